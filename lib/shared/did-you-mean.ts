/** Levenshtein distance, for did-you-mean suggestions on unknown option names. */
export function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
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
    const d = distance(lower, candidate);
    if (d < bestScore) { bestScore = d; best = k; }
  }
  return best !== undefined && bestScore <= (maxDistance ?? Math.max(2, Math.floor(best.length / 3))) ? best : undefined;
}

/** Throws-ready message for an unknown key. */
export function unknownKeyMessage(where: string, key: string, known: readonly string[]): string {
  const guess = didYouMean(key, known);
  return `Unknown option ${where}${key}${guess ? `; did you mean "${where}${guess}"?` : ''} (known: ${known.join(', ')})`;
}
