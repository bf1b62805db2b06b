/**
 * The HS* path of the JWT strategy (node:crypto HMAC, lib/auth/jwt-hmac.ts) against jose's
 * jwtVerify with the same options: the same tokens accepted, the same refused, with jose's codes.
 */
import crypto from 'node:crypto';
import { jest } from '@jest/globals';
import { jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { createJwtStrategy, type JwtAuthOptions } from 'crossborder-merchant-kit';

const SECRET = 'current-hs256-secret-0123456789abcdef';
const PREVIOUS = 'previous-hs256-secret-abcdef0123456789';
const OTHER = 'some-other-secret-0123456789abcdef0123';
const now = () => Math.floor(Date.now() / 1000);
const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const hmac = (alg: string, secret: string, input: string) =>
  crypto.createHmac(`sha${alg.slice(2)}`, secret).update(input).digest('base64url');
/** A token built by hand: any header, any claims text, signed (or not) as asked. */
const raw = (header: unknown, claims: unknown, secret = SECRET, alg = 'HS256') => {
  const input = `${b64(header)}.${b64(claims)}`;
  return `${input}.${hmac(alg, secret, input)}`;
};
const sign = (claims: JWTPayload, alg = 'HS256', secret = SECRET, header: Record<string, unknown> = {}) =>
  new SignJWT(claims).setProtectedHeader({ alg, ...header }).sign(new TextEncoder().encode(secret));

const request = (token: string) => ({
  method: 'POST', path: '/SendOrderToMerchant', query: {}, remoteAddress: '127.0.0.1', body: '',
  headers: { authorization: `Bearer ${token}` },
});

/** A refusal: jose's error code, and the reason the log shows (code, claim, message: the same words as jose's). */
type Verdict = { ok: true; claims: unknown } | { ok: false; code: string; reason: string };
const refused = (code: string, reason: string): Verdict => ({ ok: false, code, reason });

async function kit(token: string, options: Partial<JwtAuthOptions>): Promise<Verdict> {
  const strategy = createJwtStrategy({ secret: SECRET, algorithms: ['HS256'], ...options } as JwtAuthOptions);
  const r = await strategy.authenticate(request(token) as never, { log: undefined as never, callback: 'sendOrderToMerchant' });
  return r.ok ? { ok: true, claims: r.data } : refused(r.reason.split(/[ :]/)[0], r.reason);
}

async function jose(token: string, options: Partial<JwtAuthOptions>): Promise<Verdict> {
  const { secret = SECRET, ...rest } = { algorithms: ['HS256'], ...options } as JwtAuthOptions;
  for (const s of Array.isArray(secret) ? secret : [secret]) {
    try {
      const { payload } = await jwtVerify(token, new TextEncoder().encode(s), rest as never);
      return { ok: true, claims: payload };
    } catch (err) {
      const { code, claim, message } = err as { code: string; claim?: string; message: string };
      if (code !== 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') return refused(code, `${code}${claim ? ` (${claim})` : ''}: ${message}`);
    }
  }
  return refused('ERR_JWS_SIGNATURE_VERIFICATION_FAILED', 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED: signature verification failed');
}

const ISS = { issuer: 'https://service.example.com', audience: 'merchant-callbacks' };
const GOOD = { iss: 'https://service.example.com', aud: 'merchant-callbacks', sub: 'service' };

/** The first of `make(0)`, `make(1)`, … that `ok` accepts (tokens with a given shape of segment). */
const first = <T>(make: (i: number) => T, ok: (t: T) => boolean): T => {
  for (let i = 0; i < 1000; i++) if (ok(make(i))) return make(i);
  throw new Error('no such token in 1000 tries');
};
/** base64url text in the base64 alphabet: Node's decoder reads both alike, the JWS format only the first. */
const toBase64 = (segment: string) => segment.replace(/-/g, '+').replace(/_/g, '/');
const urlChars = (segment: string) => /[-_]/.test(segment);
/** A signed token whose header or claims segment is changed by `change` before signing. */
const rawWith = (header: unknown, claims: unknown, change: { h?: (s: string) => string; p?: (s: string) => string }) => {
  const input = `${(change.h ?? String)(b64(header))}.${(change.p ?? String)(b64(claims))}`;
  return `${input}.${hmac('HS256', SECRET, input)}`;
};
// '>>>' puts a '>' at each of the three byte positions of a base64 group: one of them encodes as '-'.
const headerWithUrlChars = { alg: 'HS256', kid: '>>>' };
const claimsWithUrlChars = { ...GOOD, note: '>>>' };
/** Header and claims whose base64url length is a multiple of 4: one more character makes 4n+1, no base64. */
const header4n = first((i) => ({ alg: 'HS256', kid: 'k'.repeat(i) }), (h) => b64(h).length % 4 === 0);
const claims4n = first((i) => ({ ...GOOD, kid: 'k'.repeat(i) }), (c) => b64(c).length % 4 === 0);

/** [name, token (built lazily), options, expected outcome: 'ok' or jose's error code]. */
const CASES: Array<[string, () => Promise<string> | string, Partial<JwtAuthOptions>, string]> = [
  ['valid HS256', () => sign({ ...GOOD, iat: now(), exp: now() + 300 }), ISS, 'ok'],
  ['valid HS384', () => sign({ ...GOOD, exp: now() + 300 }, 'HS384'), { ...ISS, algorithms: ['HS256', 'HS384'] }, 'ok'],
  ['valid HS512, no time claims', () => sign({ sub: 'x' }, 'HS512'), { algorithms: ['HS512'] }, 'ok'],
  ['valid, audience array holds ours', () => sign({ ...GOOD, aud: ['x', 'merchant-callbacks'] }), ISS, 'ok'],
  ['valid, one of several issuers', () => sign({ ...GOOD, iss: 'b' }), { issuer: ['a', 'b'] }, 'ok'],
  ['valid, typ and kid headers', () => sign(GOOD, 'HS256', SECRET, { typ: 'JWT', kid: 'k1' }), ISS, 'ok'],
  ['wrong signature (one character changed)', async () => {
    const t = await sign(GOOD);
    const i = t.length - 5;
    return t.slice(0, i) + (t[i] === 'A' ? 'B' : 'A') + t.slice(i + 1);
  }, {}, 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'],
  ['signed with another secret', () => sign(GOOD, 'HS256', OTHER), {}, 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'],
  ['payload swapped under a valid signature', async () => {
    const [h, , s] = (await sign(GOOD)).split('.');
    return `${h}.${b64({ ...GOOD, sub: 'admin' })}.${s}`;
  }, {}, 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'],
  ['signature of an HS512 token under an HS256 header', async () => {
    const [, p, s] = (await sign(GOOD, 'HS512')).split('.');
    return `${b64({ alg: 'HS256' })}.${p}.${s}`;
  }, {}, 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'],
  ['empty signature', async () => (await sign(GOOD)).replace(/[^.]+$/, ''), {}, 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'],
  ['alg none, no signature', () => `${b64({ alg: 'none' })}.${b64(GOOD)}.`, {}, 'ERR_JOSE_ALG_NOT_ALLOWED'],
  ['alg none, signed anyway', () => raw({ alg: 'none' }, GOOD), {}, 'ERR_JOSE_ALG_NOT_ALLOWED'],
  ['alg HS384 when only HS256 is allowed', () => sign(GOOD, 'HS384'), {}, 'ERR_JOSE_ALG_NOT_ALLOWED'],
  ['alg RS256 header, HMAC signature', () => raw({ alg: 'RS256' }, GOOD), {}, 'ERR_JOSE_ALG_NOT_ALLOWED'],
  ['alg in another case', () => raw({ alg: 'hs256' }, GOOD), {}, 'ERR_JOSE_ALG_NOT_ALLOWED'],
  ['alg missing', () => raw({ typ: 'JWT' }, GOOD), {}, 'ERR_JWS_INVALID'],
  ['alg not a string', () => raw({ alg: ['HS256'] }, GOOD), {}, 'ERR_JWS_INVALID'],
  ['crit with an unknown extension', () => raw({ alg: 'HS256', crit: ['exp'], exp: 1 }, GOOD), {}, 'ERR_JOSE_NOT_SUPPORTED'],
  ['crit b64 false (unencoded payload)', () => raw({ alg: 'HS256', crit: ['b64'], b64: false }, GOOD), {}, 'refused'],
  ['expired', () => sign({ ...GOOD, exp: now() - 60 }), {}, 'ERR_JWT_EXPIRED'],
  ['expired, but within clockTolerance', () => sign({ ...GOOD, exp: now() - 60 }), { clockTolerance: '2m' }, 'ok'],
  ['expired beyond clockTolerance', () => sign({ ...GOOD, exp: now() - 600 }), { clockTolerance: 120 }, 'ERR_JWT_EXPIRED'],
  ['nbf in the future', () => sign({ ...GOOD, nbf: now() + 3600 }), {}, 'ERR_JWT_CLAIM_VALIDATION_FAILED'],
  ['nbf in the future, within clockTolerance', () => sign({ ...GOOD, nbf: now() + 30 }), { clockTolerance: '1m' }, 'ok'],
  ['exp not a number', () => raw({ alg: 'HS256' }, { ...GOOD, exp: String(now() + 300) }), {}, 'ERR_JWT_CLAIM_VALIDATION_FAILED'],
  ['nbf not a number', () => raw({ alg: 'HS256' }, { ...GOOD, nbf: null }), {}, 'ERR_JWT_CLAIM_VALIDATION_FAILED'],
  ['wrong issuer', () => sign({ ...GOOD, iss: 'https://evil.example.com' }), ISS, 'ERR_JWT_CLAIM_VALIDATION_FAILED'],
  ['wrong audience', () => sign({ ...GOOD, aud: 'someone-else' }), ISS, 'ERR_JWT_CLAIM_VALIDATION_FAILED'],
  ['audience array without ours', () => sign({ ...GOOD, aud: ['a', 'b'] }), ISS, 'ERR_JWT_CLAIM_VALIDATION_FAILED'],
  ['issuer missing', () => sign({ aud: GOOD.aud }), ISS, 'ERR_JWT_CLAIM_VALIDATION_FAILED'],
  ['audience array holds the second of the accepted ones', () => sign({ ...GOOD, aud: ['x', 'b'] }), { audience: ['a', 'b'] }, 'ok'],
  ['aud a number', () => sign({ ...GOOD, aud: 5 } as never), ISS, 'ERR_JWT_CLAIM_VALIDATION_FAILED'],
  ['iat in the future, no maxTokenAge (not checked, as by jose)', () => sign({ ...GOOD, iat: now() + 3600 }), ISS, 'ok'],
  ['audience missing', () => sign({ iss: GOOD.iss }), ISS, 'ERR_JWT_CLAIM_VALIDATION_FAILED'],
  ['required claim missing', () => sign({ iss: 'x' }), { requiredClaims: ['sub', 'exp'] }, 'ERR_JWT_CLAIM_VALIDATION_FAILED'],
  ['required claims present', () => sign({ sub: 'x', exp: now() + 60 }), { requiredClaims: ['sub', 'exp'] }, 'ok'],
  ['maxTokenAge: iat missing', () => sign(GOOD), { maxTokenAge: '5m' }, 'ERR_JWT_CLAIM_VALIDATION_FAILED'],
  ['maxTokenAge: too old', () => sign({ ...GOOD, iat: now() - 3600 }), { maxTokenAge: '10m' }, 'ERR_JWT_EXPIRED'],
  ['maxTokenAge: iat in the future', () => sign({ ...GOOD, iat: now() + 3600 }), { maxTokenAge: 600 }, 'ERR_JWT_CLAIM_VALIDATION_FAILED'],
  ['maxTokenAge: young enough', () => sign({ ...GOOD, iat: now() - 60 }), { maxTokenAge: '1.5 minutes' }, 'ok'],
  ['iat not a number', () => raw({ alg: 'HS256' }, { ...GOOD, iat: 'yesterday' }), {}, 'ERR_JWT_CLAIM_VALIDATION_FAILED'],
  ['two segments', async () => (await sign(GOOD)).split('.').slice(0, 2).join('.'), {}, 'ERR_JWS_INVALID'],
  ['four segments', async () => `${await sign(GOOD)}.x`, {}, 'ERR_JWS_INVALID'],
  ['header not base64url JSON', () => `bm90IGpzb24.${b64(GOOD)}.${hmac('HS256', SECRET, `bm90IGpzb24.${b64(GOOD)}`)}`, {}, 'ERR_JWS_INVALID'],
  ['header an array', () => raw(['HS256'], GOOD), {}, 'ERR_JWS_INVALID'],
  ['header in the base64 alphabet (+ or / for - or _)', () => rawWith(headerWithUrlChars, GOOD, { h: toBase64 }), {}, 'ERR_JWS_INVALID'],
  ['header of 4n+1 characters (a trailing character Node would drop)', () => rawWith(header4n, GOOD, { h: (x) => `${x}A` }), {}, 'ERR_JWS_INVALID'],
  ['claims in the base64 alphabet', () => rawWith({ alg: 'HS256' }, claimsWithUrlChars, { p: toBase64 }), {}, 'refused'],
  ['claims of 4n+1 characters', () => rawWith({ alg: 'HS256' }, claims4n, { p: (x) => `${x}A` }), {}, 'refused'],
  ['signature in the base64 alphabet', () => {
    const token = first((i) => raw({ alg: 'HS256' }, { ...GOOD, n: i }), (t) => urlChars(t.split('.')[2]));
    const [h, p, sig] = token.split('.');
    return `${h}.${p}.${toBase64(sig)}`;
  }, {}, 'refused'],
  ['header with + (base64, not base64url)', async () => `+${await sign(GOOD)}`, {}, 'ERR_JWS_INVALID'],
  ['claims not JSON', () => raw({ alg: 'HS256' }, 'not json'), {}, 'ERR_JWT_INVALID'],
  ['claims an array', () => raw({ alg: 'HS256' }, [GOOD]), {}, 'ERR_JWT_INVALID'],
  ['claims null', () => raw({ alg: 'HS256' }, 'null'), {}, 'ERR_JWT_INVALID'],
  ['claims not UTF-8', () => {
    const input = `${b64({ alg: 'HS256' })}.${Buffer.from([0x7b, 0xff, 0x7d]).toString('base64url')}`;
    return `${input}.${hmac('HS256', SECRET, input)}`;
  }, {}, 'ERR_JWT_INVALID'],
  ['claims not UTF-8 inside a JSON string (not read as U+FFFD)', () => {
    const input = `${b64({ alg: 'HS256' })}.${Buffer.from([...Buffer.from('{"sub":"'), 0xff, ...Buffer.from('"}')]).toString('base64url')}`;
    return `${input}.${hmac('HS256', SECRET, input)}`;
  }, {}, 'ERR_JWT_INVALID'],
  ['previous secret while rotating', () => sign(GOOD, 'HS256', PREVIOUS), { secret: [SECRET, PREVIOUS] }, 'ok'],
  ['neither rotated secret', () => sign(GOOD, 'HS256', OTHER), { secret: [SECRET, PREVIOUS] }, 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'],
  ['bad signature and expired: the signature is checked first', () => sign({ exp: now() - 60 }, 'HS256', OTHER), {}, 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'],
];

/** Where the check is this verifier's own, so are the words (jose names the unknown extension; any crit is refused here). */
const OWN_REASON: Record<string, string> = {
  'crit with an unknown extension': 'ERR_JOSE_NOT_SUPPORTED: "crit" (Critical) Header Parameter is not supported',
};

describe('HS* JWT with node:crypto gives the verdict jose gives, refusals in jose\'s words', () => {
  test.each(CASES)('%s', async (name, make, options, expected) => {
    const token = await make();
    const [ours, theirs] = [await kit(token, options), await jose(token, options)];
    if (expected === 'refused') { // both refuse, for different stated reasons
      expect([ours.ok, theirs.ok]).toEqual([false, false]);
      return;
    }
    expect(ours).toEqual(name in OWN_REASON ? { ...theirs, reason: OWN_REASON[name] } : theirs);
    expect(ours).toEqual(expected === 'ok' ? { ok: true, claims: expect.anything() } : { ok: false, code: expected, reason: expect.any(String) });
  });

  test('the time-claim boundaries fall on the same second as jose\'s (clock frozen)', async () => {
    const T = 1_900_000_000;
    jest.useFakeTimers({ now: T * 1000 + 500, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const cases: Array<[JWTPayload, Partial<JwtAuthOptions>, boolean]> = [
        [{ exp: T }, {}, false], [{ exp: T + 1 }, {}, true],
        [{ exp: T - 30 }, { clockTolerance: 30 }, false], [{ exp: T - 29 }, { clockTolerance: '30s' }, true],
        [{ nbf: T }, {}, true], [{ nbf: T + 1 }, {}, false], [{ nbf: T + 30 }, { clockTolerance: 30 }, true], [{ nbf: T + 31 }, { clockTolerance: 30 }, false],
        [{ iat: T - 600 }, { maxTokenAge: '10m' }, true], [{ iat: T - 601 }, { maxTokenAge: 600 }, false],
        [{ iat: T - 610 }, { maxTokenAge: 600, clockTolerance: 10 }, true], [{ iat: T - 611 }, { maxTokenAge: 600, clockTolerance: 10 }, false],
        [{ iat: T + 10 }, { maxTokenAge: 600, clockTolerance: 10 }, true], [{ iat: T + 11 }, { maxTokenAge: 600, clockTolerance: 10 }, false],
        [{ iat: T + 1 }, { maxTokenAge: 600 }, false],
      ];
      for (const [claims, options, accepted] of cases) {
        const token = raw({ alg: 'HS256' }, claims);
        const [ours, theirs] = [await kit(token, options), await jose(token, options)];
        expect({ claims, options, ok: ours.ok }).toEqual({ claims, options, ok: accepted });
        expect(ours).toEqual(theirs);
      }
    } finally {
      jest.useRealTimers();
    }
  });

  test('refused here though jose accepts (documented): crit b64 true, b64 other than true, and a padded signature', async () => {
    for (const b64 of [false, 'true']) {
      const unencoded = raw({ alg: 'HS256', b64 }, GOOD);
      expect(await jose(unencoded, {})).toMatchObject({ ok: true });
      expect(await kit(unencoded, {})).toEqual(refused('ERR_JWT_INVALID', 'ERR_JWT_INVALID: JWTs MUST NOT use unencoded payload'));
    }
    expect(await kit(raw({ alg: 'HS256', b64: true }, GOOD), {})).toMatchObject({ ok: true }); // b64 true is the default
    const critB64 = raw({ alg: 'HS256', crit: ['b64'], b64: true }, GOOD);
    expect(await jose(critB64, {})).toMatchObject({ ok: true });
    expect(await kit(critB64, {})).toEqual(refused('ERR_JOSE_NOT_SUPPORTED', 'ERR_JOSE_NOT_SUPPORTED: "crit" (Critical) Header Parameter is not supported'));
    const padded = `${await sign(GOOD)}=`;
    expect(await jose(padded, {})).toMatchObject({ ok: true });
    expect(await kit(padded, {})).toEqual(refused('ERR_JWS_SIGNATURE_VERIFICATION_FAILED', 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED: signature verification failed'));
  });

  test('a cached header does not carry a verdict over to another token with the same header', async () => {
    const options = {};
    const strategy = createJwtStrategy({ secret: SECRET, algorithms: ['HS256'], ...options });
    const check = async (t: string) => (await strategy.authenticate(request(t) as never, { log: undefined as never, callback: 'x' })).ok;
    const good = await sign(GOOD);
    expect(await check(good)).toBe(true);
    const [h, p] = good.split('.');
    expect(await check(`${h}.${p}.${hmac('HS256', OTHER, `${h}.${p}`)}`)).toBe(false);
    expect(await check(`${h}.${b64({ exp: now() - 10 })}.${hmac('HS256', SECRET, `${h}.${b64({ exp: now() - 10 })}`)}`)).toBe(false);
    expect(await check(good)).toBe(true);
  });

  test('time claims are checked on every use, not once per token', async () => {
    const strategy = createJwtStrategy({ secret: SECRET, algorithms: ['HS256'] });
    const token = await sign({ exp: now() + 60 });
    const check = async () => (await strategy.authenticate(request(token) as never, { log: undefined as never, callback: 'x' })).ok;
    expect(await check()).toBe(true);
    const spy = jest.spyOn(Date, 'now').mockReturnValue((now() + 120) * 1000);
    try {
      expect(await check()).toBe(false);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('the HMAC signature is compared in constant time', () => {
  afterEach(() => jest.restoreAllMocks());

  test('crypto.timingSafeEqual decides: it sees the sent and the expected signature, and its "false" refuses a good token', async () => {
    const spy = jest.spyOn(crypto, 'timingSafeEqual');
    const token = await sign(GOOD);
    expect(await kit(token, {})).toMatchObject({ ok: true });
    expect(spy).toHaveBeenCalledTimes(1);
    const [given, expected] = spy.mock.calls[0] as [Buffer, Buffer];
    expect(Buffer.from(given).toString('base64url')).toBe(token.split('.')[2]);
    expect(Buffer.from(expected).toString('base64url')).toBe(token.split('.')[2]);

    spy.mockReturnValue(false);
    expect(await kit(token, {})).toEqual(refused('ERR_JWS_SIGNATURE_VERIFICATION_FAILED', 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED: signature verification failed'));
  });

  test('with rotated secrets, each candidate goes through the constant-time compare', async () => {
    const spy = jest.spyOn(crypto, 'timingSafeEqual');
    expect(await kit(await sign(GOOD, 'HS256', PREVIOUS), { secret: [SECRET, PREVIOUS] })).toMatchObject({ ok: true });
    expect(spy).toHaveBeenCalledTimes(2);
  });
});
