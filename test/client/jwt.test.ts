/**
 * JWT authentication of the client against a recorded fake service: the token request as the pages
 * describe it, the UserName and Authorization headers (MerchantGUID still in the URL), the cache until
 * shortly before `exp`, one token request shared by concurrent calls, one refresh and one resend on a
 * 401, per-operation choice, and the password and token in no log line, error or channel message.
 */
import diagnostics from 'node:diagnostics_channel';
import { SignJWT } from 'jose';
import { createServiceClient } from 'crossborder-merchant-kit/client';
import { fixture as serviceFixture } from './setup.js';
import { refreshAt, DEFAULT_TOKEN_TTL_MS } from '../../lib/client/jwt.js';
import { fakeService, type FakeService, type Received } from './fake-service.js';
import { clientFor, failure, GUID, TOKEN } from './setup.js';

const TOKEN_PATH = '/Authentication/GetAuthenticationToken';
const HUB = '/Browsing/ActiveHubDetails';
const USER = 'nordwear-api';
const PASSWORD = 'pw-Tr0ub4dor&3-secret';
const key = new TextEncoder().encode('a-test-signing-key-of-32-bytes!!');
const jwtFor = (n: number, expSeconds: number) => new SignJWT({ n }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(expSeconds).sign(key);
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

let svc: FakeService;
let issued: string[];
/** A fake service issuing JWTs (exp from `exp()`), answering the hub with 200 when the Authorization is the newest token. */
function issuing(exp: () => number = inAnHour, accept: (r: Received, newest: string) => boolean = (r, newest) => r.headers.authorization === newest) {
  return async (r: Received) => {
    if (r.path === TOKEN_PATH) {
      const token = await jwtFor(issued.length + 1, exp());
      issued.push(token);
      return { status: 200, body: { Token: token }, delayMs: 30 };
    }
    return accept(r, issued[issued.length - 1]) ? { status: 200, body: serviceFixture('hub-details') } : { status: 401, body: { Code: 'UNAUTHORIZED', Error: 'token expired' } };
  };
}
beforeEach(async () => { issued = []; svc = await fakeService(); svc.answer(issuing()); });
afterEach(() => svc.close());

const jwtClient = (extra: object = {}, jwt: object = {}) =>
  clientFor(svc, { accessToken: undefined, hubCacheTtlMs: 0, jwt: { userName: USER, password: PASSWORD, ...jwt }, ...extra });

describe('JWT authentication', () => {
  test('POST {baseUrl}/Authentication/GetAuthenticationToken with { UserName, Password }; then UserName + Authorization on the call, MerchantGUID still in the URL', async () => {
    const { client } = jwtClient();
    await client.getActiveHubDetails();
    const [tokenCall, call] = svc.received;
    expect(tokenCall).toMatchObject({ method: 'POST', path: TOKEN_PATH, json: { UserName: USER, Password: PASSWORD } });
    expect(tokenCall.headers['content-type']).toBe('application/json');
    expect(tokenCall.headers.authorization).toBeUndefined();
    expect(call).toMatchObject({ method: 'POST', path: HUB });
    expect(call.headers.username).toBe(USER);
    expect(call.headers.authorization).toBe(issued[0]);
    expect(call.query.get('merchantGUID')).toBe(GUID);
  });

  test("authorizationScheme: 'Bearer' sends Bearer <token>", async () => {
    svc.answer(issuing(inAnHour, (r, newest) => r.headers.authorization === `Bearer ${newest}`));
    const { client } = jwtClient({}, { authorizationScheme: 'Bearer' });
    await client.getActiveHubDetails();
    expect(svc.received[1].headers.authorization).toBe(`Bearer ${issued[0]}`);
  });

  test('the token is cached while valid: three calls, one token request', async () => {
    const { client } = jwtClient();
    for (let i = 0; i < 3; i++) await client.getActiveHubDetails();
    expect(svc.count(TOKEN_PATH)).toBe(1);
    expect(svc.count(HUB)).toBe(3);
  });

  test('a token past (or within the margin of) its exp is not reused', async () => {
    svc.answer(issuing(() => Math.floor(Date.now() / 1000) - 5));
    const { client } = jwtClient();
    await client.getActiveHubDetails();
    await client.getActiveHubDetails();
    expect(svc.count(TOKEN_PATH)).toBe(2);
  });

  test('renewal time: margin before exp (at most half the life left); 15 minutes (the documented default) for a token without a readable exp', async () => {
    const now = 1_800_000_000_000;
    const token = await jwtFor(1, now / 1000 + 600);
    expect(refreshAt(token, 60_000, now)).toBe(now + 540_000);
    expect(refreshAt(token, 3_600_000, now)).toBe(now + 300_000);
    expect(refreshAt('opaque-token', 60_000, now)).toBe(now + DEFAULT_TOKEN_TTL_MS - 60_000);
    const unsigned = (payload: string) => `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(payload).toString('base64url')}.c2ln`;
    expect(refreshAt(unsigned('{"sub":"x"}'), 60_000, now)).toBe(now + DEFAULT_TOKEN_TTL_MS - 60_000);
    expect(refreshAt(unsigned('{"exp":1e999}'), 60_000, now)).toBe(now + DEFAULT_TOKEN_TTL_MS - 60_000);
    expect(DEFAULT_TOKEN_TTL_MS).toBe(900_000);
  });

  test('concurrent calls share one token request', async () => {
    const { client } = jwtClient();
    await Promise.all(Array.from({ length: 6 }, (_, i) => client.dispatchOrders({ OrderIds: [`GE${i}`] })));
    expect(svc.count(TOKEN_PATH)).toBe(1);
    expect(svc.count('/Order/DispatchOrders')).toBe(6);
    expect(new Set(svc.received.filter((r) => r.path !== TOKEN_PATH).map((r) => r.headers.authorization))).toEqual(new Set([issued[0]]));
  });

  test('a 401 to the JWT: the token is refreshed once and the call sent once more (even a POST that is never resent)', async () => {
    const { client } = jwtClient();
    await client.getActiveHubDetails();
    // the service now refuses the first token (expired early, rotated keys, …)
    svc.answer(issuing(inAnHour, (r) => r.headers.authorization !== issued[0]));
    svc.answer(async (r) => {
      if (r.path === TOKEN_PATH) { const t = await jwtFor(issued.length + 1, inAnHour()); issued.push(t); return { status: 200, body: { Token: t } }; }
      if (r.path === '/Order/DispatchOrders') return r.headers.authorization === issued[0] ? { status: 401, body: {} } : { status: 200, body: { IsSuccess: true, Documents: [] } };
      return { status: 200, body: {} };
    });
    const result = await client.dispatchOrders({ OrderIds: ['GE1'] });
    expect(result.Documents).toEqual([]);
    expect(svc.received.filter((r) => r.path === '/Order/DispatchOrders').map((r) => r.headers.authorization)).toEqual([issued[0], issued[1]]);
    expect(svc.count(TOKEN_PATH)).toBe(2);
  });

  test('a late 401 to an old token does not throw away the newer one', async () => {
    const { client } = jwtClient();
    await client.getActiveHubDetails();
    let manifests = 0;
    svc.answer(async (r) => {
      if (r.path === TOKEN_PATH) { const t = await jwtFor(issued.length + 1, inAnHour()); issued.push(t); return { status: 200, body: { Token: t } }; }
      if (r.headers.authorization !== issued[0]) return { status: 200, body: { IsSuccess: true, Documents: [] } };
      // both calls were sent with the first token: the second refusal arrives after the new token is cached
      return { status: 401, body: {}, delayMs: manifests++ === 0 ? 0 : 150 };
    });
    await Promise.all([client.dispatchOrders({ OrderIds: ['GE1'] }), client.dispatchOrders({ OrderIds: ['GE2'] })]);
    expect(svc.count(TOKEN_PATH)).toBe(2);
    expect(svc.received.filter((r) => r.path === '/Order/DispatchOrders').map((r) => r.headers.authorization)).toEqual([issued[0], issued[0], issued[1], issued[1]]);
  });

  test('two calls refused at once share the refresh: one new token, both resent with it', async () => {
    const { client } = jwtClient();
    await client.getActiveHubDetails();
    svc.answer(async (r) => {
      if (r.path === TOKEN_PATH) { const t = await jwtFor(issued.length + 1, inAnHour()); issued.push(t); return { status: 200, body: { Token: t }, delayMs: 50 }; }
      return r.headers.authorization === issued[0] ? { status: 401, body: {} } : { status: 200, body: { IsSuccess: true, Documents: [] } };
    });
    await Promise.all([client.dispatchOrders({ OrderIds: ['GE1'] }), client.dispatchOrders({ OrderIds: ['GE2'] })]);
    expect(svc.count(TOKEN_PATH)).toBe(2);
  });

  test('the token call is a read: a 503 is retried; an error answer keeps its status and retryability', async () => {
    let n = 0;
    svc.answer(async (r) => {
      if (r.path !== TOKEN_PATH) return { status: 200, body: serviceFixture('hub-details') };
      if (n++ === 0) return { status: 503, body: { Code: 'BUSY', Error: 'try later' } };
      const t = await jwtFor(issued.length + 1, inAnHour()); issued.push(t); return { status: 200, body: { Token: t } };
    });
    const { client } = jwtClient({ retry: { retries: 1, minDelayMs: 1, maxDelayMs: 5 } });
    await client.getActiveHubDetails();
    expect(svc.count(TOKEN_PATH)).toBe(2);
    svc.answer((r) => (r.path === TOKEN_PATH ? { status: 503, body: { Code: 'BUSY', Error: 'try later' } } : { status: 200, body: {} }));
    const busy = await failure(jwtClient({ retry: { retries: 0 } }).client.getActiveHubDetails());
    expect(busy).toMatchObject({ code: 'AUTHENTICATION_FAILED', status: 503, retryable: true, cause: { code: 'BUSY', retryable: true } });
    svc.answer((r) => (r.path === TOKEN_PATH ? { status: 500, body: 'oops' } : { status: 200, body: {} }));
    expect(await failure(jwtClient({ retry: { retries: 0 } }).client.getActiveHubDetails())).toMatchObject({ cause: { code: 'HTTP_500' } });
  });

  test('a second 401 is the error: one refresh, one resend, no loop', async () => {
    svc.answer(async (r) => {
      if (r.path === TOKEN_PATH) { const t = await jwtFor(issued.length + 1, inAnHour()); issued.push(t); return { status: 200, body: { Token: t } }; }
      return { status: 401, body: { Code: 'UNAUTHORIZED', Error: 'no' } };
    });
    const { client } = jwtClient();
    const err = await failure(client.getActiveHubDetails());
    expect(err).toMatchObject({ code: 'UNAUTHORIZED', status: 401, attempts: 2 });
    expect(svc.count(TOKEN_PATH)).toBe(2);
    expect(svc.count(HUB)).toBe(2);
  });

  test('a 401 without a JWT (GUID operations) is not resent', async () => {
    svc.answer(() => ({ status: 401, body: { Code: 'UNAUTHORIZED', Error: 'no' } }));
    const { client } = clientFor(svc, { hubCacheTtlMs: 0 });
    expect(await failure(client.getActiveHubDetails())).toMatchObject({ code: 'UNAUTHORIZED', attempts: 1 });
    expect(svc.count()).toBe(1);
  });

  test('the token cannot be had: AUTHENTICATION_FAILED with the token call as cause; the operation is not sent', async () => {
    svc.answer((r) => (r.path === TOKEN_PATH ? { status: 401, body: { Code: 'INVALID_CREDENTIALS', Error: 'wrong password' } } : { status: 200, body: {} }));
    const { client } = jwtClient();
    const err = await failure(client.dispatchOrders({ OrderIds: ['GE1'] }));
    expect(err).toMatchObject({ code: 'AUTHENTICATION_FAILED', operation: 'dispatchOrders', status: 401, retryable: false, attempts: 0 });
    expect(err.cause).toMatchObject({ code: 'INVALID_CREDENTIALS', operation: 'getAuthenticationToken' });
    expect(svc.count('/Order/DispatchOrders')).toBe(0);
    svc.answer((r) => (r.path === TOKEN_PATH ? { status: 200, body: { Tokn: 'x' } } : { status: 200, body: {} }));
    expect(await failure(client.dispatchOrders({ OrderIds: ['GE1'] }))).toMatchObject({ code: 'AUTHENTICATION_FAILED', cause: { code: 'INVALID_RESPONSE' } });
  });

  test('per operation: JWT for the named operations, the MerchantGUID (and accessToken) for the others', async () => {
    svc.answer(async (r) => {
      if (r.path === TOKEN_PATH) { const t = await jwtFor(issued.length + 1, inAnHour()); issued.push(t); return { status: 200, body: { Token: t } }; }
      if (r.path === HUB) return { status: 200, body: serviceFixture('hub-details') };
      return { status: 200, body: { IsSuccess: true } };
    });
    const { client } = clientFor(svc, { hubCacheTtlMs: 0, jwt: { userName: USER, password: PASSWORD, operations: ['dispatchOrders'] } });
    await client.getActiveHubDetails();
    await client.dispatchOrders({ OrderIds: ['GE1'] });
    const hub = svc.received.find((r) => r.path === HUB)!;
    const manifest = svc.received.find((r) => r.path === '/Order/DispatchOrders')!;
    expect(hub.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(hub.headers.username).toBeUndefined();
    expect(svc.received.find((r) => r.path === TOKEN_PATH)!.headers.authorization).toBeUndefined();
    expect(manifest.headers.authorization).toBe(issued[0]);
    expect(manifest.headers.username).toBe(USER);
  });

  test('the password and the token are in no log line, error or diagnostics message, even when the service echoes them', async () => {
    const seen: unknown[] = [];
    const channel = diagnostics.tracingChannel('crossborder-merchant-kit:client');
    const record = (m: unknown) => { seen.push(structuredClone({ ...(m as object), error: String((m as { error?: unknown }).error ?? '') })); };
    const handlers = { start: record, end: record, asyncStart: record, asyncEnd: record, error: record };
    channel.subscribe(handlers);
    try {
      svc.answer(async (r) => {
        if (r.path === TOKEN_PATH) { const t = await jwtFor(issued.length + 1, inAnHour()); issued.push(t); return { status: 200, body: { Token: t } }; }
        return { status: 400, body: { Code: 'INVALID_REQUEST', Error: `user ${USER} password ${PASSWORD} token ${r.headers.authorization}` } };
      });
      const { client, log } = jwtClient();
      const err = await failure(client.getActiveHubDetails());
      svc.answer((r) => (r.path === TOKEN_PATH ? { status: 403, body: { Code: 'FORBIDDEN', Error: `bad password ${PASSWORD}` } } : { status: 200, body: {} }));
      const { client: other, log: otherLog } = jwtClient();
      const tokenErr = await failure(other.getActiveHubDetails());
      const texts = [err.message, err.description, JSON.stringify(err), tokenErr.message, JSON.stringify(tokenErr), String(tokenErr.cause?.message), log.text(), otherLog.text(), JSON.stringify(seen)];
      for (const text of texts) {
        expect(text).not.toContain(PASSWORD);
        expect(text).not.toContain(issued[0]);
      }
      expect(err.description).toContain('[REDACTED]');
      expect(tokenErr.description).toContain('[REDACTED]');
      expect(seen.length).toBeGreaterThan(0);
    } finally {
      channel.unsubscribe(handlers);
    }
  });
});

describe('the jwt option', () => {
  const base = { baseUrl: 'https://api.example.com', merchantGuid: GUID };
  test.each([
    [{ userName: USER }, /jwt.password is required/],
    [{ password: PASSWORD }, /jwt.userName is required/],
    [{ userName: USER, password: PASSWORD, operations: ['dispatchOrder'] }, /did you mean "dispatchOrders"/],
    [{ userName: USER, password: PASSWORD, operations: [] }, /non-empty array/],
    [{ userName: USER, password: PASSWORD, authorizationScheme: 'bearer' }, /'raw' or 'Bearer'/],
    [{ userName: USER, password: PASSWORD, passwrd: 'x' }, /passwrd.*password/],
  ])('%j is refused at construction', (jwt, message) => {
    expect(() => createServiceClient({ ...base, jwt } as never)).toThrow(message);
  });

  test('UserName cannot be set through headers', () => {
    expect(() => createServiceClient({ ...base, headers: { UserName: 'x' } })).toThrow(/set by the client/);
  });
});
