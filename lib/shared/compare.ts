/**
 * Constant-time string comparison. Both sides are hashed first, so neither the content nor the
 * length of the secret leaks through timing.
 */
import crypto from 'node:crypto';
import { sha256 as digest } from './sha256.js';

/**
 * Compares a candidate with a secret in constant time (exported as `timingSafeEqualString`): both are
 * hashed (SHA-256) first, so neither the content nor the length of the secret leaks through timing.
 * Use it in your own `authorizer` or strategy instead of `===`.
 *
 * @param candidate - What the request carried; anything but a string is unequal.
 * @param secret - The expected value.
 * @returns true when they are equal.
 */
export function safeEqual(candidate: unknown, secret: string): boolean {
  if (typeof candidate !== 'string') return false;
  return crypto.timingSafeEqual(digest(candidate), digest(secret));
}

/**
 * A constant-time matcher for fixed `secrets` (hashed once, here): each call hashes the candidate
 * once and compares it with every secret's digest, all of them whatever matched.
 */
export function createSafeMatcher(secrets: readonly string[]): (candidate: unknown) => boolean {
  const digests = secrets.map(digest);
  return (candidate) => {
    if (typeof candidate !== 'string') return false;
    const d = digest(candidate);
    let ok = false;
    for (const s of digests) ok = crypto.timingSafeEqual(d, s) || ok;
    return ok;
  };
}

/** True when `candidate` equals any of `secrets` (current and previous, for rotation); checks them all. */
export function safeEqualAny(candidate: unknown, secrets: readonly string[]): boolean {
  let ok = false;
  for (const s of secrets) ok = safeEqual(candidate, s) || ok;
  return ok;
}
