/**
 * The JWT strategy on its own (lib/auth/jwt.ts): its options checked at construction (the error code
 * and message a developer sees; which keys fit which algorithms), the refusal reason the log shows for
 * each kind of Authorization header, and public-key rotation (a token of the second key accepted, a
 * token the first key verified but refused not tried on the next key). Written against mutation
 * testing (docs/safety-tests.md, area auth-jwt).
 */
import http from 'node:http';
import { createHmac, createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { jest } from '@jest/globals';
import { CompactSign, exportJWK, SignJWT } from 'jose';
import { createJwtStrategy, KitError, type JwtAuthOptions } from 'crossborder-merchant-kit';
import { HS_SECRET } from './fixtures.js';
import { otherRsa, rsa, rsaPublicPem } from './rsa-keys.js';

const otherPublicPem = otherRsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const strategy = createJwtStrategy({ publicKey: [rsaPublicPem, otherPublicPem], algorithms: ['RS256'] });
const checkWith = (s: ReturnType<typeof createJwtStrategy>, authorization: string | string[] | undefined) =>
  s.authenticate({ headers: authorization === undefined ? {} : { authorization } } as never, {} as never);
const check = (authorization: string | string[] | undefined) => checkWith(strategy, authorization);
const sign = (key: KeyObject, expiresAt: number, claims: Record<string, unknown> = { sub: 'service' }) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).setIssuedAt(expiresAt - 60).setExpirationTime(expiresAt).sign(key);
const now = () => Math.floor(Date.now() / 1000);

/** The KitError thrown building the strategy: code and message (without the " [code]" suffix). */
function refusal(options: unknown, where?: string): { code: string; message: string } | 'built' {
  try {
    createJwtStrategy(options as JwtAuthOptions, where);
    return 'built';
  } catch (err) {
    expect(err).toBeInstanceOf(KitError);
    return { code: (err as KitError).code, message: (err as Error).message.replace(/ \[[A-Z_]+\]$/, '') };
  }
}
const invalid = (message: string) => ({ code: 'ERR_CBK_OPTION_INVALID', message });
const required = (message: string) => ({ code: 'ERR_CBK_OPTION_REQUIRED', message });

const pem = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }).toString();
const KEYS = {
  rsa: rsa.publicKey,
  'rsa-pss': generateKeyPairSync('rsa-pss', { modulusLength: 2048 }).publicKey,
  ec: generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey,
  ed25519: generateKeyPairSync('ed25519').publicKey,
  ed448: generateKeyPairSync('ed448').publicKey,
};
const ASYMMETRIC = 'RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA, Ed25519';

describe('options, checked at construction', () => {
  test.each([
    [{ algorithms: ['RS256'] }, required('Option auth.jwt needs exactly one of secret (HS*), publicKey (PEM or JWK) or jwksUrl')],
    [{ secret: HS_SECRET, jwksUrl: 'https://keys.example.com/jwks.json', algorithms: ['HS256'] },
      required('Option auth.jwt needs exactly one of secret (HS*), publicKey (PEM or JWK) or jwksUrl, got secret and jwksUrl')],
    [{ publicKey: rsaPublicPem, jwksUrl: 'https://keys.example.com/jwks.json', algorithms: ['RS256'] },
      required('Option auth.jwt needs exactly one of secret (HS*), publicKey (PEM or JWK) or jwksUrl, got publicKey and jwksUrl')],
    [{ publicKey: rsaPublicPem }, required("Option auth.jwt.algorithms is required: the algorithms you accept, e.g. ['RS256'] or ['HS256']")],
    [{ publicKey: rsaPublicPem, algorithms: 'RS256' }, required("Option auth.jwt.algorithms is required: the algorithms you accept, e.g. ['RS256'] or ['HS256']")],
    [{ publicKey: rsaPublicPem, algorithms: [] }, required("Option auth.jwt.algorithms is required: the algorithms you accept, e.g. ['RS256'] or ['HS256']")],
    [{ publicKey: rsaPublicPem, algorithms: ['none'] }, invalid("Option auth.jwt.algorithms must not contain 'none' (unsigned tokens are never accepted)")],
    [{ secret: HS_SECRET, algorithms: ['HS256', 'NONE'] }, invalid("Option auth.jwt.algorithms must not contain 'none' (unsigned tokens are never accepted)")],
    [{ publicKey: rsaPublicPem, algorithms: [5] }, invalid(`Option auth.jwt.algorithms has 5, which does not fit publicKey (use ${ASYMMETRIC})`)],
    [{ jwksUrl: 'https://keys.example.com/jwks.json', algorithms: ['HS256'] }, invalid(`Option auth.jwt.algorithms has "HS256", which does not fit jwksUrl (use ${ASYMMETRIC})`)],
    [{ secret: HS_SECRET, algorithms: ['RS256'] }, invalid('Option auth.jwt.algorithms has "RS256", which does not fit secret (use HS256, HS384, HS512)')],
    [{ secret: 'x'.repeat(31), algorithms: ['HS256'] }, invalid('Option auth.jwt.secret must be at least 32 bytes (256 bits) long')],
    [{ secret: `${'é'.repeat(15)}x`, algorithms: ['HS256'] }, invalid('Option auth.jwt.secret must be at least 32 bytes (256 bits) long')],
    [{ secret: [HS_SECRET, 'x'.repeat(31)], algorithms: ['HS256'] }, invalid('Option auth.jwt.secret must be at least 32 bytes (256 bits) long')],
    [{ secret: [], algorithms: ['HS256'] }, invalid('Option auth.jwt.secret must be a non-empty string or a non-empty array of them (current and previous, for rotation)')],
    [{ publicKey: [], algorithms: ['RS256'] }, invalid('Option auth.jwt.publicKey must not be an empty array')],
    [{ publicKey: 42, algorithms: ['RS256'] }, invalid('Option auth.jwt.publicKey must be a PEM string, a public JWK or a public KeyObject')],
    [{ publicKey: null, algorithms: ['RS256'] }, invalid('Option auth.jwt.publicKey must be a PEM string, a public JWK or a public KeyObject')],
    [{ publicKey: Object.assign(() => {}, { type: 'public' }), algorithms: ['RS256'] }, invalid('Option auth.jwt.publicKey must be a PEM string, a public JWK or a public KeyObject')],
    [{ publicKey: [rsaPublicPem, rsa.privateKey], algorithms: ['RS256'] }, invalid('Option auth.jwt.publicKey[1] must be a PEM string, a public JWK or a public KeyObject')],
    [{ publicKey: { kty: 'oct', k: 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA' }, algorithms: ['RS256'] },
      invalid('Option auth.jwt.publicKey is a private or secret JWK; give the public key (or use secret for HS*)')],
    [{ publicKey: 'nope', algorithms: ['RS256'] }, invalid('Option auth.jwt.publicKey is not a readable public key (PEM or JWK)')],
    [{ publicKey: [rsaPublicPem, { kty: 'RSA' }], algorithms: ['RS256'] }, invalid('Option auth.jwt.publicKey[1] is not a readable public key (PEM or JWK)')],
    [{ publicKey: KEYS.ec, algorithms: ['RS256'] }, invalid('Option auth.jwt.publicKey is a ec key, which none of algorithms [RS256] uses (it fits ES256, ES384, ES512)')],
    [{ publicKey: KEYS['rsa-pss'], algorithms: ['RS256', 'ES256'] }, invalid('Option auth.jwt.publicKey is a rsa-pss key, which none of algorithms [RS256, ES256] uses (it fits PS256, PS384, PS512)')],
    [{ publicKey: KEYS.ed448, algorithms: ['Ed25519'] }, invalid('Option auth.jwt.publicKey is a ed448 key, which none of algorithms [Ed25519] uses (it fits EdDSA)')],
    [{ publicKey: generateKeyPairSync('x25519').publicKey, algorithms: ['RS256'] }, invalid('Option auth.jwt.publicKey is a x25519 key, which none of algorithms [RS256] uses (it fits nothing)')],
    [{ jwksUrl: 'keys.example.com/jwks.json', algorithms: ['RS256'] }, invalid('Option auth.jwt.jwksUrl must be an absolute URL')],
    [{ jwksUrl: 'http://keys.example.com/jwks.json', algorithms: ['RS256'] }, invalid('Option auth.jwt.jwksUrl must use https (plain http only on localhost), got http:')],
    [{ jwksUrl: 'ftp://localhost/jwks.json', algorithms: ['RS256'] }, invalid('Option auth.jwt.jwksUrl must use https (plain http only on localhost), got ftp:')],
    [{ publicKey: rsaPublicPem, algorithms: ['RS256'], issuer: '' }, invalid('Option auth.jwt.issuer must be a non-empty string or an array of them')],
    [{ publicKey: rsaPublicPem, algorithms: ['RS256'], audience: [] }, invalid('Option auth.jwt.audience must be a non-empty string or an array of them')],
    [{ publicKey: rsaPublicPem, algorithms: ['RS256'], requiredClaims: [1] }, invalid('Option auth.jwt.requiredClaims must be a non-empty string or an array of them')],
    [{ publicKey: rsaPublicPem, algorithms: ['RS256'], clockTolerance: 'soon' }, invalid("Option auth.jwt.clockTolerance must be a number of seconds or a duration such as '30s' or '5m'")],
    [{ publicKey: rsaPublicPem, algorithms: ['RS256'], maxTokenAge: -1 }, invalid("Option auth.jwt.maxTokenAge must be a number of seconds or a duration such as '30s' or '5m'")],
  ])('%j is refused', (options, expected) => {
    expect(refusal(options)).toEqual(expected);
  });

  test('a private JWK given as publicKey is refused, named so', async () => {
    expect(refusal({ publicKey: await exportJWK(rsa.privateKey), algorithms: ['RS256'] }))
      .toEqual(invalid('Option auth.jwt.publicKey is a private or secret JWK; give the public key (or use secret for HS*)'));
  });

  test('messages name the option where it was given', () => {
    expect(refusal({ algorithms: ['RS256'] }, 'auth.perCallback.updateOrderStatus.jwt')).toEqual(
      required('Option auth.perCallback.updateOrderStatus.jwt needs exactly one of secret (HS*), publicKey (PEM or JWK) or jwksUrl'));
    expect(refusal({ publicKey: rsaPublicPem, algorithms: ['RS256'], algorithm: 'RS256' })).toMatchObject({ code: 'ERR_CBK_OPTION_UNKNOWN' });
  });

  test.each([
    ...['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'].map((alg) => ['rsa', alg]),
    ...['PS256', 'PS384', 'PS512'].map((alg) => ['rsa-pss', alg]),
    ...['ES256', 'ES384', 'ES512'].map((alg) => ['ec', alg]),
    ['ed25519', 'EdDSA'], ['ed25519', 'Ed25519'], ['ed448', 'EdDSA'],
  ] as Array<[keyof typeof KEYS, string]>)('a public %s key with algorithms [%s] builds (KeyObject and PEM)', (type, alg) => {
    expect(refusal({ publicKey: KEYS[type], algorithms: [alg] })).toBe('built');
    expect(refusal({ publicKey: pem(KEYS[type]), algorithms: [alg] })).toBe('built');
  });

  test('rotated keys of two types with their two algorithms build; a public JWK builds', async () => {
    expect(refusal({ publicKey: [rsaPublicPem, KEYS.ec], algorithms: ['RS256', 'ES256'] })).toBe('built');
    expect(refusal({ publicKey: await exportJWK(KEYS.ec), algorithms: ['ES256'] })).toBe('built');
  });

  test.each(['HS256', 'HS384', 'HS512'])('a secret with algorithms [%s] builds; 32 bytes are enough, in any characters', (alg) => {
    expect(refusal({ secret: 'x'.repeat(32), algorithms: [alg] })).toBe('built');
    expect(refusal({ secret: ['é'.repeat(16), HS_SECRET], algorithms: [alg] })).toBe('built');
  });

  test.each(['https://keys.example.com/jwks.json', 'http://localhost:8080/jwks', 'http://127.0.0.1/jwks', 'http://[::1]/jwks'])('jwksUrl %s builds', (url) => {
    expect(refusal({ jwksUrl: url, algorithms: ['RS256'] })).toBe('built');
    expect(refusal({ jwksUrl: new URL(url), algorithms: ['RS256'] })).toBe('built');
  });

  test('every claim option is known and accepted, zero durations included', () => {
    expect(refusal({
      publicKey: rsaPublicPem, algorithms: ['RS256'], issuer: 'https://service.example.com', audience: ['a', 'b'],
      clockTolerance: 0, maxTokenAge: '0s', requiredClaims: ['exp'],
    })).toBe('built');
  });
});

describe('what the options make the strategy check', () => {
  const T = 1_900_000_000;
  const hs = (claims: Record<string, unknown>) => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const input = `${b64({ alg: 'HS256' })}.${b64(claims)}`;
    return `Bearer ${input}.${createHmac('sha256', HS_SECRET).update(input).digest('base64url')}`;
  };
  afterEach(() => jest.restoreAllMocks());

  test('a duration string is rounded to whole seconds: clockTolerance "1500ms" is 2 s', async () => {
    jest.spyOn(Date, 'now').mockReturnValue(T * 1000 + 500);
    const s = createJwtStrategy({ secret: HS_SECRET, algorithms: ['HS256'], clockTolerance: '1500ms' });
    expect((await checkWith(s, hs({ nbf: T + 2 }))).ok).toBe(true);
    expect(await checkWith(s, hs({ nbf: T + 3 }))).toEqual({ ok: false, reason: 'ERR_JWT_CLAIM_VALIDATION_FAILED (nbf): "nbf" claim timestamp check failed' });
    expect(await checkWith(s, hs({ exp: T - 2 }))).toEqual({ ok: false, reason: 'ERR_JWT_EXPIRED (exp): "exp" claim timestamp check failed' });
  });

  test('a number of seconds is kept as given: clockTolerance 1.5 is not rounded up to 2', async () => {
    jest.spyOn(Date, 'now').mockReturnValue(T * 1000 + 500);
    const s = createJwtStrategy({ secret: HS_SECRET, algorithms: ['HS256'], clockTolerance: 1.5 });
    expect((await checkWith(s, hs({ nbf: T + 1 }))).ok).toBe(true);
    expect(await checkWith(s, hs({ nbf: T + 2 }))).toEqual({ ok: false, reason: 'ERR_JWT_CLAIM_VALIDATION_FAILED (nbf): "nbf" claim timestamp check failed' });
  });

  test('maxTokenAge as a string: "1m" accepts a token issued 60 s ago, refuses one issued 61 s ago', async () => {
    jest.spyOn(Date, 'now').mockReturnValue(T * 1000);
    const s = createJwtStrategy({ secret: HS_SECRET, algorithms: ['HS256'], maxTokenAge: '1m' });
    expect((await checkWith(s, hs({ iat: T - 60 }))).ok).toBe(true);
    expect(await checkWith(s, hs({ iat: T - 61 }))).toMatchObject({ ok: false, reason: expect.stringMatching(/^ERR_JWT_EXPIRED \(iat\): /) });
    expect(await checkWith(s, hs({}))).toMatchObject({ ok: false, reason: expect.stringMatching(/^ERR_JWT_CLAIM_VALIDATION_FAILED \(iat\): missing/) });
  });

  test('issuer, audience and required claims reach the public-key path', async () => {
    const s = createJwtStrategy({ publicKey: rsaPublicPem, algorithms: ['RS256'], issuer: 'svc', audience: 'me', requiredClaims: ['sub'] });
    const good = { iss: 'svc', aud: 'me', sub: 'x' };
    expect((await checkWith(s, `Bearer ${await sign(rsa.privateKey, now() + 300, good)}`)).ok).toBe(true);
    for (const [claims, claim] of [[{ ...good, iss: 'evil' }, 'iss'], [{ ...good, aud: 'you' }, 'aud'], [{ iss: 'svc', aud: 'me' }, 'sub']] as const) {
      const outcome = await checkWith(s, `Bearer ${await sign(rsa.privateKey, now() + 300, claims)}`);
      expect(outcome).toMatchObject({ ok: false, reason: expect.stringMatching(new RegExp(`^ERR_JWT_CLAIM_VALIDATION_FAILED \\(${claim}\\): `)) });
    }
  });
});

describe('authenticate: the refusal reason the log shows', () => {
  test('no Authorization header: refused, named so', async () => {
    expect(await check(undefined)).toEqual({ ok: false, reason: 'Authorization header missing' });
  });

  test.each(['Bearer', 'bearer   ', '  Bearer'])('an empty Bearer token (%j): refused, named so', async (header) => {
    expect(await check(header)).toEqual({ ok: false, reason: 'empty Bearer token' });
  });

  test.each(['XBearer abc.def.ghi', 'XBearer', 'Bearer !!!', 'Basic abc', 'Bearerabc.def.ghi', 'Bearer abc def', 'Bearer a=b',
    ['Bearer a.b.c', 'Bearer a.b.c']])('not a Bearer token (%j): refused, named so', async (header) => {
    expect(await check(header)).toEqual({ ok: false, reason: 'Authorization header is not a Bearer token' });
  });

  // Every character a Bearer token may hold (RFC 6750 b64token), at the ends of each range: the header
  // is read as a token (then refused by the verifier as malformed), not as "not a Bearer token".
  test.each(['Bearer AZaz09-._~+/==', 'bearer  AZaz09-._~+/  ', '  BEARER AZaz09-._~+/='])('a Bearer token in any spelling (%j) reaches the verifier', async (header) => {
    expect(await check(header)).toEqual({ ok: false, reason: 'ERR_JWS_INVALID: Invalid Compact JWS' });
  });

  test('a token signed with an algorithm the key supports but the options do not list: refused', async () => {
    const ps256 = await new SignJWT({ sub: 'service' }).setProtectedHeader({ alg: 'PS256' }).setExpirationTime(now() + 300).sign(rsa.privateKey);
    expect(await check(`Bearer ${ps256}`)).toEqual({ ok: false, reason: 'ERR_JOSE_ALG_NOT_ALLOWED: "alg" (Algorithm) Header Parameter value not allowed' });
  });

  test('a token no key verified: the signature error, as jose words it', async () => {
    const s = createJwtStrategy({ publicKey: rsaPublicPem, algorithms: ['RS256'] });
    expect(await checkWith(s, `Bearer ${await sign(otherRsa.privateKey, now() + 300)}`))
      .toEqual({ ok: false, reason: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED: signature verification failed' });
  });

  test('a key set that cannot be fetched: refused with the fetch error, nothing thrown', async () => {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve)); // nothing listens there any more
    const s = createJwtStrategy({ jwksUrl: `http://127.0.0.1:${port}/jwks.json`, algorithms: ['RS256'] });
    const outcome = await checkWith(s, `Bearer ${await sign(rsa.privateKey, now() + 300)}`);
    expect(outcome).toMatchObject({ ok: false, reason: expect.stringMatching(/^ERR_JWT: /) });
  });
});

describe('authenticate: public-key rotation', () => {
  test('a token of the second key is accepted', async () => {
    expect(await check(`Bearer ${await sign(otherRsa.privateKey, now() + 300)}`)).toMatchObject({ ok: true, data: { sub: 'service' } });
  });

  test('a token the first key verified but expired is refused as expired (not tried on the next key)', async () => {
    const outcome = await check(`Bearer ${await sign(rsa.privateKey, now() - 600)}`);
    expect(outcome.ok).toBe(false);
    expect((outcome as { reason: string }).reason).toMatch(/^ERR_JWT_EXPIRED \(exp\): /);
  });

  // Each refusal below comes after the first key verified the signature; the second key would only add
  // "signature verification failed", hiding the real reason.
  const signedRaw = (payload: Uint8Array) => new CompactSign(payload).setProtectedHeader({ alg: 'RS256' }).sign(rsa.privateKey);
  test('a verified token with a wrong issuer is refused on its issuer', async () => {
    const s = createJwtStrategy({ publicKey: [rsaPublicPem, otherPublicPem], algorithms: ['RS256'], issuer: 'svc' });
    expect(await checkWith(s, `Bearer ${await sign(rsa.privateKey, now() + 300, { iss: 'evil' })}`))
      .toEqual({ ok: false, reason: 'ERR_JWT_CLAIM_VALIDATION_FAILED (iss): unexpected "iss" claim value' });
  });

  test('a verified token whose claims are not an object is refused as such', async () => {
    expect(await check(`Bearer ${await signedRaw(new TextEncoder().encode('[1]'))}`))
      .toEqual({ ok: false, reason: 'ERR_JWT_INVALID: JWT Claims Set must be a top-level JSON object' });
  });

  test('a verified token whose payload is no base64url is refused as malformed', async () => {
    const [h] = (await signedRaw(new Uint8Array([1]))).split('.');
    const input = `${h}.abcde`;
    const token = `${input}.${createSign('sha256').update(input).sign(rsa.privateKey).toString('base64url')}`;
    expect(await check(`Bearer ${token}`)).toEqual({ ok: false, reason: 'ERR_JWS_INVALID: Failed to base64url decode the payload' });
  });
});
