/**
 * Constant-time comparison (lib/shared/compare.ts): what every secret check of the kit relies on.
 * Written against mutation testing (docs/safety-tests.md): each case fails on a specific defect —
 * a matcher that stops at the first secret, forgets an earlier match, accepts a non-string or
 * matches a different value of the same length.
 */
import { createSafeMatcher, safeEqual, safeEqualAny } from '../../lib/shared/compare.js';

const NOT_STRINGS: unknown[] = [undefined, null, 12345, true, { toString: () => 'secret-1' }, ['secret-1'], Buffer.from('secret-1')];

describe('safeEqual', () => {
  test('equal strings match; a different value, case, length or trailing space does not', () => {
    expect(safeEqual('secret-1', 'secret-1')).toBe(true);
    expect(safeEqual('secret-2', 'secret-1')).toBe(false);
    expect(safeEqual('SECRET-1', 'secret-1')).toBe(false);
    expect(safeEqual('secret-1 ', 'secret-1')).toBe(false);
    expect(safeEqual('secret', 'secret-1')).toBe(false);
    expect(safeEqual('', 'secret-1')).toBe(false);
  });

  test('non-ASCII secrets compare by their characters', () => {
    expect(safeEqual('clé-€', 'clé-€')).toBe(true);
    expect(safeEqual('cle-€', 'clé-€')).toBe(false);
  });

  test.each(NOT_STRINGS.map((v) => [v]))('a non-string candidate (%p) never matches, even one that prints as the secret', (value) => {
    expect(safeEqual(value, 'secret-1')).toBe(false);
  });
});

describe('safeEqualAny (current and previous secret, for rotation)', () => {
  const secrets = ['current-secret', 'previous-secret'];

  test('either secret matches, whichever position it has', () => {
    expect(safeEqualAny('current-secret', secrets)).toBe(true);
    expect(safeEqualAny('previous-secret', secrets)).toBe(true);
    expect(safeEqualAny('previous-secret', ['previous-secret', 'current-secret', 'third-secret'])).toBe(true);
  });

  test('a match on an earlier secret is not forgotten by a later non-match (and the reverse)', () => {
    expect(safeEqualAny('a-secret', ['a-secret', 'b-secret', 'c-secret'])).toBe(true);
    expect(safeEqualAny('c-secret', ['a-secret', 'b-secret', 'c-secret'])).toBe(true);
  });

  test('no secret matched, no secrets at all, or not a string: refused', () => {
    expect(safeEqualAny('other-secret', secrets)).toBe(false);
    expect(safeEqualAny('current-secret', [])).toBe(false);
    for (const value of NOT_STRINGS) expect(safeEqualAny(value, secrets)).toBe(false);
  });
});

describe('createSafeMatcher (secrets hashed once)', () => {
  const matches = createSafeMatcher(['first-guid', 'second-guid', 'third-guid']);

  test('each configured secret matches, first, middle and last', () => {
    expect(matches('first-guid')).toBe(true);
    expect(matches('second-guid')).toBe(true);
    expect(matches('third-guid')).toBe(true);
  });

  test('anything else does not: another value, a prefix, a different case, the empty string', () => {
    expect(matches('fourth-guid')).toBe(false);
    expect(matches('first-gui')).toBe(false);
    expect(matches('FIRST-GUID')).toBe(false);
    expect(matches('')).toBe(false);
  });

  test('a non-string candidate never matches (and does not throw)', () => {
    for (const value of NOT_STRINGS) expect(matches(value)).toBe(false);
  });

  test('a matcher without secrets matches nothing', () => {
    expect(createSafeMatcher([])('first-guid')).toBe(false);
  });

  test('the matcher keeps its own copy: changing the array later changes nothing', () => {
    const list = ['kept-secret'];
    const kept = createSafeMatcher(list);
    list[0] = 'swapped-secret';
    expect(kept('kept-secret')).toBe(true);
    expect(kept('swapped-secret')).toBe(false);
  });
});
