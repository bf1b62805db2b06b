/**
 * SHA-256 in one call. crypto.hash (Node 20.12+) is one native call with no Hash stream object per
 * digest; a runtime whose node:crypto lacks it (test/shared/sha256-fallback.test.ts) gets createHash.
 */
import crypto from 'node:crypto';

type OneShot = (algorithm: string, data: string | Uint8Array, encoding: 'buffer' | 'hex') => Buffer | string;
const oneShot = (crypto as { hash?: OneShot }).hash;

/** The SHA-256 digest (32 bytes) of a string's UTF-8 bytes. */
export const sha256 = oneShot
  ? (s: string): Buffer => oneShot('sha256', s, 'buffer') as Buffer
  : (s: string): Buffer => crypto.createHash('sha256').update(s, 'utf8').digest();

/** The SHA-256 of bytes, as 64 lowercase hex digits. */
export const sha256Hex = oneShot
  ? (bytes: Uint8Array): string => oneShot('sha256', bytes, 'hex') as string
  : (bytes: Uint8Array): string => crypto.createHash('sha256').update(bytes).digest('hex');
