/**
 * The always-on MerchantGUID check of POST callbacks: constant time, GUID hex case-insensitive,
 * a null or non-string value never matches.
 */
import { safeEqualAny } from './safe-compare.js';

export function merchantGuidMatches(candidate: unknown, configured: readonly string[]): boolean {
  if (typeof candidate !== 'string' || candidate.length === 0) return false;
  return safeEqualAny(candidate.trim().toLowerCase(), configured.map((g) => g.toLowerCase()));
}
