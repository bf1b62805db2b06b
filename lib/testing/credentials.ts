/// <reference types="node" preserve="true" />
/** Credentials for merchants' test suites: a Basic Authorization header and signed test JWTs. */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { SignJWT, type JWK, type JWTPayload } from 'jose';

/** `Basic base64(user:password)`, the value of the Authorization header. */
export function basicAuthHeader(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}

/**
 * Options of `signTestJwt`: the key to sign with (a `secret` for HS*, or a `privateKey`), the algorithm
 * and a `kid`. Test credentials only: never use them in production.
 */
export interface SignTestJwtOptions {
  /** HS* shared secret (the same string you give auth.jwt.secret). */
  secret?: string;
  /** Private key: PKCS#8 PEM, private JWK or KeyObject. */
  privateKey?: string | JWK | KeyObject;
  /** Default HS256 with a secret; with a private key RS256 (RSA), ES256/384/512 (EC by curve) or EdDSA. */
  algorithm?: string;
  /** `kid` header parameter (to pick a key out of a JWKS). */
  kid?: string;
}

const EC_ALG: Record<string, string> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };

function defaultAlgorithm(key: KeyObject): string {
  const type = key.asymmetricKeyType;
  if (type === 'ec') return EC_ALG[key.asymmetricKeyDetails?.namedCurve ?? ''] ?? 'ES256';
  if (type === 'ed25519' || type === 'ed448') return 'EdDSA';
  if (type === 'rsa-pss') return 'PS256';
  return 'RS256';
}

/**
 * Signs `claims` as a compact JWT. `iat` defaults to now and `exp` to five minutes later; give a
 * claim to set it, or `undefined` to leave it out (e.g. `{ exp: undefined }`).
 */
export async function signTestJwt(claims: Record<string, unknown>, options: SignTestJwtOptions): Promise<string> {
  if ((options?.secret === undefined) === (options?.privateKey === undefined)) {
    throw new TypeError('signTestJwt needs exactly one of { secret } or { privateKey }');
  }
  const now = Math.floor(Date.now() / 1000);
  const payload: Record<string, unknown> = { iat: now, exp: now + 300, ...claims };
  for (const [k, v] of Object.entries(payload)) if (v === undefined) delete payload[k];
  let key: Uint8Array | KeyObject;
  let alg: string;
  if (options.secret !== undefined) {
    key = new TextEncoder().encode(options.secret);
    alg = options.algorithm ?? 'HS256';
  } else {
    const pk = options.privateKey!;
    key = typeof pk === 'string' ? createPrivateKey(pk)
      : (pk as KeyObject).type === 'private' ? (pk as KeyObject)
        : createPrivateKey({ key: pk as import('node:crypto').JsonWebKey, format: 'jwk' });
    alg = options.algorithm ?? defaultAlgorithm(key as KeyObject);
  }
  const header = options.kid === undefined ? { alg, typ: 'JWT' } : { alg, typ: 'JWT', kid: options.kid };
  return new SignJWT(payload as JWTPayload).setProtectedHeader(header).sign(key);
}
