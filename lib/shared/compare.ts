/**
 * Constant-time string comparison. Both sides are hashed first, so neither the content nor the
 * length of the secret leaks through timing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export function safeEqual(candidate: unknown, secret: string): boolean {
  if (typeof candidate !== 'string') return false;
  return timingSafeEqual(digest(candidate), digest(secret));
}

/** True when `candidate` equals any of `secrets` (current and previous, for rotation); checks them all. */
export function safeEqualAny(candidate: unknown, secrets: readonly string[]): boolean {
  let ok = false;
  for (const s of secrets) ok = safeEqual(candidate, s) || ok;
  return ok;
}
