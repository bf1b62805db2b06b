/**
 * lib/shared/compare.ts on a runtime whose node:crypto has no one-shot `hash` (Node before 20.12,
 * some other runtimes' node:crypto): the comparison falls back to createHash and still tells equal
 * from unequal secrets, non-ASCII ones included.
 */
import { mockCryptoWithoutHash } from '../helpers/crypto-without-hash.js';

mockCryptoWithoutHash();
const { safeEqual } = await import('../../lib/shared/compare.js');

describe('constant-time compare without crypto.hash', () => {
  test('equal secrets match, others do not', () => {
    expect(safeEqual('s3cret-Ünïcode-✓', 's3cret-Ünïcode-✓')).toBe(true);
    expect(safeEqual('s3cret-Ünïcode-✓', 's3cret-Unicode-✓')).toBe(false);
    expect(safeEqual('a', 'b')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
    expect(safeEqual('short', 'a much longer secret')).toBe(false);
    expect(safeEqual(undefined, 'x')).toBe(false);
  });
});
