/**
 * The always-on MerchantGUID check of POST callbacks: constant time, GUID hex case-insensitive,
 * the value compared as sent (surrounding spaces, a non-breaking space or a BOM make it differ),
 * a null or non-string value never matches.
 */
import { createSafeMatcher } from '../shared/compare.js';

/** A matcher for the configured GUIDs (normalised once, at construction). */
export function createMerchantGuidMatcher(configured: readonly string[]): (candidate: unknown) => boolean {
  const matches = createSafeMatcher(configured.map((g) => g.trim().toLowerCase()));
  return (candidate) => {
    if (typeof candidate !== 'string' || candidate.length === 0) return false;
    return matches(candidate.toLowerCase());
  };
}
