/**
 * Levenshtein distance, for did-you-mean suggestions on unknown option names. With `limit`, exact
 * when the distance is at most `limit`, else some number above `limit` (the work stops there: a
 * row's smallest value never shrinks in later rows).
 */
export function distance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const prev: number[] = [];
  for (let j = 0; j <= b.length; j++) prev.push(j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      let d = diag + (a[i - 1] === b[j - 1] ? 0 : 1);
      if (tmp + 1 < d) d = tmp + 1;
      if (prev[j - 1] + 1 < d) d = prev[j - 1] + 1;
      prev[j] = d;
      if (d < rowMin) rowMin = d;
      diag = tmp;
    }
    if (rowMin > limit) return limit + 1;
  }
  return prev[b.length];
}

/**
 * The closest known name, if it is close enough to be a plausible typo (case ignored): at most
 * `maxDistance` edits, by default a third of the name (at least 2).
 */
export function didYouMean(name: string, known: readonly string[], maxDistance?: number): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  const lower = name.toLowerCase();
  for (const k of known) {
    const candidate = k.toLowerCase();
    // The distance is at least the difference in length: such a name cannot beat the best so far.
    if (Math.abs(candidate.length - lower.length) >= bestScore) continue;
    // Only a name closer than the best so far (and, with maxDistance, within it) can change the
    // answer: the distance is computed up to that bound (exact below it, above it otherwise).
    const d = distance(lower, candidate, Math.min(bestScore - 1, maxDistance ?? Infinity));
    if (d < bestScore) { bestScore = d; best = k; }
  }
  return best !== undefined && bestScore <= (maxDistance ?? Math.max(2, Math.floor(best.length / 3))) ? best : undefined;
}

/** Throws-ready message for an unknown key. */
export function unknownKeyMessage(where: string, key: string, known: readonly string[]): string {
  const guess = didYouMean(key, known);
  return `Unknown option ${where}${key}${guess ? `; did you mean "${where}${guess}"?` : ''} (known: ${known.join(', ')})`;
}
