/// <reference types="node" preserve="true" />
/**
 * JWT strategy: `Authorization: Bearer <token>`, verified with a shared `secret` (HS*, node:crypto
 * HMAC in jwt-hmac.ts), a `publicKey` (PEM or JWK, jose) or a remote key set (`jwksUrl`, fetched and
 * cached by jose). `algorithms` is required and never contains 'none'. The verified claims reach the
 * adapter as `context.auth.jwt`.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { JWK, JWTVerifyGetKey, JWTVerifyOptions } from 'jose';
import { checkObject, fail, invalid, isPlainObject, parseDuration, secretList, stringList } from '../shared/options.js';
import { single } from './config.js';
import { createHmacVerifier, type ClaimRules } from './jwt-hmac.js';
import type { AuthOutcome, AuthStrategy } from './types.js';

/** A public key for `auth.jwt.publicKey`: PEM text (SPKI or certificate), a JWK object, or a `KeyObject`. */
export type PublicKeyInput = string | JWK | KeyObject;

/**
 * Options of `auth.jwt` ({@link createJwtStrategy}): a bearer JSON Web Token verified with exactly one of
 * `secret`, `publicKey` or `jwksUrl`, against the `algorithms` you list.
 */
export interface JwtAuthOptions {
  /** HS256/384/512 shared secret (at least 32 bytes), or [current, previous] while rotating. */
  secret?: string | readonly string[];
  /** Public key as PEM (SPKI or certificate), JWK or KeyObject, or several while rotating. */
  publicKey?: PublicKeyInput | readonly PublicKeyInput[];
  /** URL of a JSON Web Key Set (https, or http on a loopback address); fetched on demand and cached. */
  jwksUrl?: string | URL;
  /** Accepted algorithms, e.g. ['RS256'] or ['HS256']; required; 'none' is never accepted. */
  algorithms: readonly string[];
  /** Expected `iss` (one of). */
  issuer?: string | readonly string[];
  /** Expected `aud` (one of). */
  audience?: string | readonly string[];
  /** Leeway for exp/nbf/iat: seconds, or a string such as '30s'. */
  clockTolerance?: number | string;
  /** Largest accepted token age from its `iat` (then `iat` is required): seconds or e.g. '5m'. */
  maxTokenAge?: number | string;
  /** Claims that must be present, e.g. ['exp', 'sub']. */
  requiredClaims?: readonly string[];
}

const HMAC = ['HS256', 'HS384', 'HS512'];
const BY_KEY_TYPE: Record<string, string[]> = {
  rsa: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'],
  'rsa-pss': ['PS256', 'PS384', 'PS512'],
  ec: ['ES256', 'ES384', 'ES512'],
  ed25519: ['EdDSA', 'Ed25519'],
  ed448: ['EdDSA'],
};
const ASYMMETRIC = [...new Set(Object.values(BY_KEY_TYPE).flat())];
const BEARER = /^ *bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const KEYS = ['secret', 'publicKey', 'jwksUrl', 'algorithms', 'issuer', 'audience', 'clockTolerance', 'maxTokenAge', 'requiredClaims'];

let jose: Promise<typeof import('./jose-verify.js')> | undefined;
/**
 * jose is imported at the first verification with a public key or key set, not when the kit is
 * imported: a kit without JWT auth, or with an HMAC secret (jwt-hmac.ts), never loads it (cold start).
 */
const loadJose = (): Promise<typeof import('./jose-verify.js')> => (jose ??= import('./jose-verify.js'));

/** Seconds of a duration option (a string is rounded to whole seconds, as jose rounds it). */
function duration(value: unknown, where: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = parseDuration(value, where, 0, { numberUnit: 's', allowZero: true });
  return typeof value === 'number' ? value : Math.round(ms / 1000);
}

function toPublicKey(input: unknown, where: string, algorithms: readonly string[]): KeyObject {
  let key: KeyObject;
  try {
    if (typeof input === 'string') key = createPublicKey(input);
    else if (isPlainObject(input)) {
      if ('d' in input || input.kty === 'oct') return invalid(`Option ${where} is a private or secret JWK; give the public key (or use secret for HS*)`);
      key = createPublicKey({ key: input as import('node:crypto').JsonWebKey, format: 'jwk' });
    } else if (input && typeof input === 'object' && (input as KeyObject).type === 'public') key = input as KeyObject;
    else return invalid(`Option ${where} must be a PEM string, a public JWK or a public KeyObject`);
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_CBK_OPTION_INVALID') throw err;
    return invalid(`Option ${where} is not a readable public key (PEM or JWK)`);
  }
  const fits = BY_KEY_TYPE[key.asymmetricKeyType ?? ''] ?? [];
  if (!algorithms.some((a) => fits.includes(a))) {
    invalid(`Option ${where} is a ${key.asymmetricKeyType} key, which none of algorithms [${algorithms.join(', ')}] uses (it fits ${fits.join(', ') || 'nothing'})`);
  }
  return key;
}

/** A remote key set: jose's, made at the first verification (its cache of fetched keys lives as long as the strategy). */
function remoteKeySet(value: unknown, where: string): () => Promise<JWTVerifyGetKey> {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    return invalid(`Option ${where} must be an absolute URL`);
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    invalid(`Option ${where} must use https (plain http only on localhost), got ${url.protocol}`);
  }
  let keySet: Promise<JWTVerifyGetKey> | undefined;
  return () => (keySet ??= loadJose().then(({ createRemoteJWKSet }) => createRemoteJWKSet(url)));
}

function describe(err: unknown): string {
  const e = err as { code?: string; claim?: string; message?: string };
  return `${e.code ?? 'ERR_JWT'}${e.claim ? ` (${e.claim})` : ''}: ${e.message ?? 'verification failed'}`;
}

/** Errors after which trying the next (rotated) key is pointless: the signature already verified. */
const FINAL = new Set(['ERR_JWT_EXPIRED', 'ERR_JWT_CLAIM_VALIDATION_FAILED', 'ERR_JOSE_ALG_NOT_ALLOWED', 'ERR_JWT_INVALID', 'ERR_JWS_INVALID']);

/**
 * JWT bearer authentication (`Authorization: Bearer <token>`), as the kit builds it from `auth.jwt`.
 * Verifies the signature with the given key(s) (rotated keys tried in turn), then `exp`/`nbf`, the
 * `issuer`, `audience`, `maxTokenAge` and `requiredClaims`; unsigned tokens (`alg: none`) are never
 * accepted. A refused token is 401; the token's claims are exposed to the adapter as `context.auth.jwt`.
 *
 * @param options - The key source (one of `secret`, `publicKey`, `jwksUrl`), `algorithms` and claim rules.
 * @param where - The option path named in error messages (default `'auth.jwt'`).
 * @throws KitError `ERR_CBK_OPTION_REQUIRED` when no key source or several are given, or `algorithms` is
 * missing or empty; `ERR_CBK_OPTION_INVALID` for `'none'` or an algorithm that does not fit the key, a
 * secret shorter than 32 bytes, an unreadable key, a `jwksUrl` that is not https (or http on loopback),
 * a bad duration; `ERR_CBK_OPTION_UNKNOWN` for an unknown key.
 */
export function createJwtStrategy(options: JwtAuthOptions, where = 'auth.jwt'): AuthStrategy & { secrets: readonly string[] } {
  const o = checkObject(options, where, KEYS);
  const sources = ['secret', 'publicKey', 'jwksUrl'].filter((k) => o[k] !== undefined);
  if (sources.length !== 1) {
    fail('ERR_CBK_OPTION_REQUIRED', `Option ${where} needs exactly one of secret (HS*), publicKey (PEM or JWK) or jwksUrl${sources.length ? `, got ${sources.join(' and ')}` : ''}`);
  }
  if (!Array.isArray(o.algorithms) || o.algorithms.length === 0) {
    fail('ERR_CBK_OPTION_REQUIRED', `Option ${where}.algorithms is required: the algorithms you accept, e.g. ['RS256'] or ['HS256']`);
  }
  const algorithms = o.algorithms as string[];
  for (const alg of algorithms) {
    if (typeof alg === 'string' && alg.toLowerCase() === 'none') invalid(`Option ${where}.algorithms must not contain 'none' (unsigned tokens are never accepted)`);
    const allowed = o.secret !== undefined ? HMAC : ASYMMETRIC;
    if (!allowed.includes(alg)) {
      invalid(`Option ${where}.algorithms has ${JSON.stringify(alg)}, which does not fit ${sources[0]} (use ${allowed.join(', ')})`);
    }
  }
  let keys: Array<KeyObject | (() => Promise<JWTVerifyGetKey>)> = [];
  let secrets: string[] = [];
  if (o.secret !== undefined) {
    secrets = secretList(o.secret, `${where}.secret`);
    if (secrets.some((s) => Buffer.byteLength(s) < 32)) invalid(`Option ${where}.secret must be at least 32 bytes (256 bits) long`);
  } else if (o.publicKey !== undefined) {
    const list = Array.isArray(o.publicKey) ? o.publicKey : [o.publicKey];
    if (list.length === 0) invalid(`Option ${where}.publicKey must not be an empty array`);
    keys = list.map((k, i) => toPublicKey(k, Array.isArray(o.publicKey) ? `${where}.publicKey[${i}]` : `${where}.publicKey`, algorithms));
  } else {
    keys = [remoteKeySet(o.jwksUrl, `${where}.jwksUrl`)];
  }
  const verifyOptions: JWTVerifyOptions = { algorithms };
  if (o.issuer !== undefined) verifyOptions.issuer = stringList(o.issuer, `${where}.issuer`);
  if (o.audience !== undefined) verifyOptions.audience = stringList(o.audience, `${where}.audience`);
  const clockTolerance = duration(o.clockTolerance, `${where}.clockTolerance`);
  if (clockTolerance !== undefined) verifyOptions.clockTolerance = clockTolerance;
  const maxTokenAge = duration(o.maxTokenAge, `${where}.maxTokenAge`);
  if (maxTokenAge !== undefined) verifyOptions.maxTokenAge = maxTokenAge;
  if (o.requiredClaims !== undefined) verifyOptions.requiredClaims = stringList(o.requiredClaims, `${where}.requiredClaims`);
  const hmac = secrets.length > 0 ? createHmacVerifier(secrets, algorithms, verifyOptions as ClaimRules) : undefined;

  return {
    name: 'jwt',
    secrets,
    async authenticate(request): Promise<AuthOutcome> {
      const header = single(request.headers.authorization);
      if (header === undefined) return { ok: false, reason: 'Authorization header missing' };
      const m = typeof header === 'string' ? BEARER.exec(header) : null;
      if (!m) return { ok: false, reason: /^ *bearer *$/i.test(header ?? '') ? 'empty Bearer token' : 'Authorization header is not a Bearer token' };
      if (hmac) return hmac(m[1]);
      let reason = 'no key verified the token';
      const { jwtVerify } = await loadJose();
      for (const key of keys) {
        try {
          const { payload } = typeof key === 'function'
            ? await jwtVerify(m[1], await key(), verifyOptions)
            : await jwtVerify(m[1], key, verifyOptions);
          return { ok: true, data: payload };
        } catch (err) {
          reason = describe(err);
          if (FINAL.has((err as { code?: string }).code ?? '')) break;
        }
      }
      return { ok: false, reason };
    },
  };
}
