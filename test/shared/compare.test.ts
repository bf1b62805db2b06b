/**
 * lib/shared/compare.ts: constant-time comparison of secrets. Results only (timing is not asserted):
 * equal and unequal strings, non-strings refused without throwing, every secret of a rotation list
 * counted whichever matches (first, last, none).
 */
import { createSafeMatcher, safeEqual, safeEqualAny } from '../../lib/shared/compare.js';

const SECRETS = ['current-s3cret', 'previous-s3cret'];

test('safeEqual: equal strings only; a prefix, a longer string or another case is not equal', () => {
  expect(safeEqual('current-s3cret', 'current-s3cret')).toBe(true);
  expect(safeEqual('grüezi-€', 'grüezi-€')).toBe(true);
  for (const other of ['current-s3cre', 'current-s3cret ', 'CURRENT-S3CRET', '']) expect(safeEqual(other, 'current-s3cret')).toBe(false);
});

test.each([[undefined], [null], [42], [['current-s3cret']], [{ toString: () => 'current-s3cret' }]])(
  'a non-string candidate (%p) is refused by all three, without throwing', (candidate) => {
    expect(safeEqual(candidate, 'current-s3cret')).toBe(false);
    expect(safeEqualAny(candidate, SECRETS)).toBe(false);
    expect(createSafeMatcher(SECRETS)(candidate)).toBe(false);
  });

test.each([['the first', 'current-s3cret', true], ['the last', 'previous-s3cret', true], ['none', 'other-s3cret', false]])(
  'rotation: %s of the secrets matching', (_which, candidate, expected) => {
    expect(safeEqualAny(candidate, SECRETS)).toBe(expected);
    expect(createSafeMatcher(SECRETS)(candidate)).toBe(expected);
  });

test('no secrets: nothing matches', () => {
  expect(safeEqualAny('x', [])).toBe(false);
  expect(createSafeMatcher([])('x')).toBe(false);
});
