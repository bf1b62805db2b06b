/**
 * didYouMean (lib/shared/did-you-mean.ts) skips names whose length alone rules them out; the guess is
 * the same as comparing with every known name, first closest name in order, case ignored.
 */
import fc from 'fast-check';
import { didYouMean, distance } from '../../lib/shared/did-you-mean.js';

/** The plain search: every known name's distance, the first smallest. */
function plainGuess(name: string, known: readonly string[], maxDistance?: number): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  for (const k of known) {
    const d = distance(name.toLowerCase(), k.toLowerCase());
    if (d < bestScore) { bestScore = d; best = k; }
  }
  return best !== undefined && bestScore <= (maxDistance ?? Math.max(2, Math.floor(best.length / 3))) ? best : undefined;
}

test('the guess is the plain search\'s, for any name and list (ties: the first in order)', () => {
  const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'A', 'B', 'İ', 'ß'), maxLength: 9 });
  fc.assert(fc.property(word, fc.array(word, { maxLength: 12 }), fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }), (name, known, max) => {
    expect(didYouMean(name, known, max)).toBe(plainGuess(name, known, max));
  }), { numRuns: 2000 });
});

test('typos get their name; far names get none', () => {
  const known = ['merchantGuid', 'adapter', 'store', 'saveReply', 'getReply'];
  expect(didYouMean('merchantGiud', known)).toBe('merchantGuid');
  expect(didYouMean('STORE', known)).toBe('store');
  expect(didYouMean('saveReplies', known)).toBe('saveReply');
  expect(didYouMean('somethingElseEntirely', known)).toBeUndefined();
});
