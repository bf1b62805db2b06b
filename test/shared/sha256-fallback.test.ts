/**
 * lib/shared/sha256.ts on a runtime whose node:crypto has no one-shot `hash` (Node before 20.12,
 * some other runtimes' node:crypto): both forms fall back to createHash with the same digests.
 */
import { mockCryptoWithoutHash } from '../helpers/crypto-without-hash.js';
import { sha256Cases } from '../helpers/sha256-cases.js';

mockCryptoWithoutHash();
const { sha256, sha256Hex } = await import('../../lib/shared/sha256.js');

describe('sha256 helpers without crypto.hash', () => {
  sha256Cases(sha256, sha256Hex);
});
