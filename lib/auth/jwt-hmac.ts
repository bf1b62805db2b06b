/**
 * HS256/384/512 JWT verification with node:crypto (an HMAC and a constant-time compare, no
 * WebCrypto thread-pool hop): the shared-secret path of the JWT strategy. jose keeps public keys
 * and JWKS. Checks and their order follow jose's `jwtVerify`, so a token is accepted or refused
 * alike either way and refusals carry jose's error codes; test/auth/jwt-hmac.test.ts compares the
 * two on valid and invalid tokens. Stricter than jose in three rare cases, all refused here: any
 * `crit` header (jose accepts `crit: ["b64"]` with `b64: true`), `b64` other than `true`, and a
 * base64 `=` padding on the signature (RFC 7515 encodes without padding).
 */
import crypto from 'node:crypto';
import { isPlainObject } from '../shared/options.js';

/** Claim checks, as jose's JWTVerifyOptions; durations already in seconds. */
export interface ClaimRules {
  issuer?: readonly string[];
  audience?: readonly string[];
  clockTolerance?: number;
  maxTokenAge?: number;
  requiredClaims?: readonly string[];
}

export type HmacOutcome = { ok: true; data: Record<string, unknown> } | { ok: false; reason: string };

type Header = { readonly alg: string; readonly hash: string; readonly size: number };

const SEGMENT = /^[A-Za-z0-9_-]*$/;
const HASHES: Record<string, [string, number]> = { HS256: ['sha256', 32], HS384: ['sha384', 48], HS512: ['sha512', 64] };
/** Decoded headers kept (the service sends one or two distinct headers; an attacker cannot grow it). */
/** Parsed JWT headers remembered per verifier (the cache is emptied when full). */
export const MAX_HEADERS = 64;
const utf8 = new TextDecoder('utf-8', { fatal: true });

class Refusal extends Error {
  constructor(readonly code: string, message: string, readonly claim?: string) {
    super(message);
  }
}

const describe = (e: Refusal) => `${e.code}${e.claim ? ` (${e.claim})` : ''}: ${e.message}`;
const claimFailed = (message: string, claim: string) => new Refusal('ERR_JWT_CLAIM_VALIDATION_FAILED', message, claim);


function decodeJson(segment: string): unknown {
  // 4n+1 characters are no base64 (jose's decoder refuses them too).
  if (!SEGMENT.test(segment) || segment.length % 4 === 1) throw new Error('not base64url');
  return JSON.parse(utf8.decode(Buffer.from(segment, 'base64url')));
}

/** A segment that must decode to a JSON object; anything else is refused with `code` and `message`. */
function decodeObject(segment: string, code: string, message: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = decodeJson(segment);
  } catch {
    throw new Refusal(code, message);
  }
  if (!isPlainObject(value)) throw new Refusal(code, message);
  return value;
}

function parseHeader(segment: string, allowed: ReadonlySet<string>): Header {
  const header = decodeObject(segment, 'ERR_JWS_INVALID', 'JWS Protected Header is invalid');
  if (header.crit !== undefined) throw new Refusal('ERR_JOSE_NOT_SUPPORTED', '"crit" (Critical) Header Parameter is not supported');
  if (header.b64 !== undefined && header.b64 !== true) throw new Refusal('ERR_JWT_INVALID', 'JWTs MUST NOT use unencoded payload');
  const { alg } = header;
  if (typeof alg !== 'string' || !alg) throw new Refusal('ERR_JWS_INVALID', 'JWS "alg" (Algorithm) Header Parameter missing or invalid');
  if (!allowed.has(alg) || !HASHES[alg]) throw new Refusal('ERR_JOSE_ALG_NOT_ALLOWED', '"alg" (Algorithm) Header Parameter value not allowed');
  const [hash, size] = HASHES[alg];
  return { alg, hash, size };
}

function numericDate(claims: Record<string, unknown>, claim: string, required = false): number | undefined {
  const value = claims[claim];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'number') throw claimFailed(`"${claim}" claim must be a number`, claim);
  return value;
}

/** jose's validateClaimsSet, same checks in the same order. */
export function checkClaims(claims: Record<string, unknown>, rules: ClaimRules, now: number): void {
  const { issuer, audience, maxTokenAge, requiredClaims = [] } = rules;
  const tolerance = rules.clockTolerance ?? 0;
  const presence = [...requiredClaims];
  if (maxTokenAge !== undefined) presence.push('iat');
  if (audience !== undefined) presence.push('aud');
  if (issuer !== undefined) presence.push('iss');
  for (const claim of new Set(presence.reverse())) {
    if (!Object.hasOwn(claims, claim)) throw claimFailed(`missing required "${claim}" claim`, claim);
  }
  if (issuer !== undefined && !issuer.includes(claims.iss as string)) throw claimFailed('unexpected "iss" claim value', 'iss');
  if (audience !== undefined) {
    const aud = claims.aud;
    const present = typeof aud === 'string' ? audience.includes(aud) : Array.isArray(aud) ? audience.some((a) => aud.includes(a)) : false;
    if (!present) throw claimFailed('unexpected "aud" claim value', 'aud');
  }
  const iat = numericDate(claims, 'iat', maxTokenAge !== undefined);
  const nbf = numericDate(claims, 'nbf');
  if (nbf !== undefined && nbf > now + tolerance) throw claimFailed('"nbf" claim timestamp check failed', 'nbf');
  const exp = numericDate(claims, 'exp');
  if (exp !== undefined && exp <= now - tolerance) throw new Refusal('ERR_JWT_EXPIRED', '"exp" claim timestamp check failed', 'exp');
  if (maxTokenAge !== undefined) {
    const age = now - (iat as number);
    if (age - tolerance > maxTokenAge) throw new Refusal('ERR_JWT_EXPIRED', '"iat" claim timestamp check failed (too far in the past)', 'iat');
    if (age < -tolerance) throw claimFailed('"iat" claim timestamp check failed (it should be in the past)', 'iat');
  }
}

/**
 * A verifier for compact HS* tokens signed with any of `secrets` (current first, then previous).
 * `now` (seconds) is read on every call, so time claims are always checked afresh.
 */
/** The verifier, and how many parsed headers it caches (at most MAX_HEADERS, from verified tokens only). */
export type HmacVerifier = ((token: string) => HmacOutcome) & { readonly cachedHeaders: number };

export function createHmacVerifier(secrets: readonly string[], algorithms: readonly string[], rules: ClaimRules): HmacVerifier {
  const keys = secrets.map((s) => crypto.createSecretKey(Buffer.from(s, 'utf8')));
  const allowed = new Set(algorithms);
  const headers = new Map<string, Header>();

  const verify = (token: string): HmacOutcome => {
    try {
      const parts = token.split('.');
      if (parts.length !== 3) throw new Refusal('ERR_JWS_INVALID', 'Invalid Compact JWS');
      const [h, p, s] = parts;
      // Parsed headers are cached only once a signature verified: a sender without the secret leaves no trace here.
      const cached = headers.get(h);
      const header = cached ?? parseHeader(h, allowed);
      // The signature as sent, decoded only when it is well-formed base64url of the digest's size.
      const given = SEGMENT.test(s) && s.length === Math.ceil((header.size * 4) / 3) ? Buffer.from(s, 'base64url') : undefined;
      let verified = false;
      for (const key of keys) {
        const expected = crypto.createHmac(header.hash, key).update(h).update('.').update(p).digest();
        if (given !== undefined && given.length === expected.length && crypto.timingSafeEqual(given, expected)) {
          verified = true;
          break;
        }
      }
      if (!verified) throw new Refusal('ERR_JWS_SIGNATURE_VERIFICATION_FAILED', 'signature verification failed');
      if (cached === undefined) {
        if (headers.size >= MAX_HEADERS) headers.clear();
        headers.set(h, header);
      }
      const claims = decodeObject(p, 'ERR_JWT_INVALID', 'JWT Claims Set must be a top-level JSON object');
      checkClaims(claims, rules, Math.floor(Date.now() / 1000));
      return { ok: true, data: claims };
    } catch (err) {
      if (err instanceof Refusal) return { ok: false, reason: describe(err) };
      throw err;
    }
  };
  return Object.defineProperty(verify, 'cachedHeaders', { get: () => headers.size, enumerable: true }) as HmacVerifier;
}
