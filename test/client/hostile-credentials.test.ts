/**
 * Safety round 3 (issue 36, items 1–4): no credential leaves the client through its diagnostics
 * channel, through a token of an earlier attempt, through the service's Code/ErrorCode, or spelt in
 * another letter case (the GUID also with or without braces and hyphens).
 */
import diagnostics from 'node:diagnostics_channel';
import { createServiceClient } from 'crossborder-merchant-kit/client';
import { captureLogger } from '../helpers/recording.js';
import { fakeService, type FakeService } from './fake-service.js';
import { failure, fixture } from './setup.js';

const GUID = '5b0e6c2a-1f3d-4c8e-9a7b-2d4f6e8a0c1e';
const TOKEN = 'tok-Live-9QwErTy-3141';
const SPELLINGS = [
  GUID, GUID.toUpperCase(), `{${GUID}}`, `{${GUID.toUpperCase()}}`, GUID.replace(/-/g, ''), GUID.replace(/-/g, '').toUpperCase(),
];
/** Every spelling of every credential a test looks for, and the GUID's hex core as a last resort. */
const LEAKS = [...SPELLINGS, TOKEN, TOKEN.toUpperCase(), TOKEN.toLowerCase(), '5b0e6c2a', '5B0E6C2A'];

let svc: FakeService;
beforeEach(async () => { svc = await fakeService(() => ({ status: 200, body: fixture('shipment-information') })); });
afterEach(() => svc.close());

const client = (extra: object = {}) => createServiceClient({
  baseUrl: svc.url, merchantGuid: GUID, accessToken: TOKEN, logger: captureLogger(),
  retry: { retries: 2, minDelayMs: 1, maxDelayMs: 20 }, timeoutMs: 2000, ...extra,
});

const noLeak = (text: string, leaks: readonly string[] = LEAKS) => {
  for (const leaked of leaks) expect(text).not.toContain(leaked);
};

function listen(): { messages: Record<string, unknown>[]; stop(): void } {
  const channel = diagnostics.tracingChannel('crossborder-merchant-kit:client');
  const messages: Record<string, unknown>[] = [];
  const keep = (m: unknown) => { messages.push(m as Record<string, unknown>); };
  const handlers = { start: keep, end: keep, asyncStart: keep, asyncEnd: keep, error: keep };
  channel.subscribe(handlers);
  return { messages, stop: () => channel.unsubscribe(handlers) };
}

describe('item 1: the client channel publishes the public answer, masked', () => {
  test('result is { status, attempts, body } with every credential masked; no secrets list', async () => {
    svc.answer(() => ({ status: 400, body: { Code: 'INVALID_REQUEST', Error: `merchant ${GUID.toUpperCase()} token ${TOKEN}` } }));
    const sub = listen();
    try {
      await failure(client().getShipmentInformation('T1'));
      await client().getActiveHubDetails().catch(() => undefined);
    } finally {
      sub.stop();
    }
    const results = sub.messages.map((m) => m.result).filter((r) => r !== undefined) as Record<string, unknown>[];
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) {
      expect(Object.keys(r).sort()).toEqual(['attempts', 'body', 'status']);
      expect(r.status).toBe(400);
      expect(r.body).toContain('[REDACTED]');
    }
    noLeak(JSON.stringify(sub.messages));
    // Serialised as an APM agent would: nothing of the internal answer (headers, secrets) either.
    for (const m of sub.messages) expect(JSON.stringify(m)).not.toContain('secrets');
  });

  test('a success: the body as the service sent it (no credential in it), status and attempts', async () => {
    const sub = listen();
    try {
      await client().getShipmentInformation('T1');
    } finally {
      sub.stop();
    }
    const [result] = sub.messages.map((m) => m.result).filter((r) => r !== undefined) as Record<string, unknown>[];
    expect(result).toEqual({ status: 200, attempts: 1, body: JSON.stringify(fixture('shipment-information')) });
  });
});

describe('item 2: every token of every attempt is masked', () => {
  test('tok-1 of the first attempt, echoed in the final error, is masked', async () => {
    let n = 0;
    svc.answer((_r, nth) => (nth === 1
      ? { status: 503, body: { Code: 'INTERNAL_ERROR', Error: 'busy' } }
      : { status: 400, body: { Code: 'INVALID_REQUEST', Error: 'token tok-rotating-1 was revoked; tok-rotating-2 too' } }));
    const err = await failure(client({ accessToken: () => `tok-rotating-${++n}` }).getShipmentInformation('T1'));
    expect(svc.received.map((r) => r.headers.authorization)).toEqual(['Bearer tok-rotating-1', 'Bearer tok-rotating-2']);
    expect(err.description).toBe('token [REDACTED] was revoked; [REDACTED] too');
    noLeak(`${err.message} ${err.description}`, ['tok-rotating-1', 'tok-rotating-2']);
  });

  test('an earlier token echoed in a NETWORK failure text is masked too', async () => {
    let n = 0;
    const fetch = async (_url: string, init: RequestInit) => {
      const auth = (init.headers as Record<string, string>).authorization;
      throw new Error(`socket hang up after ${n === 1 ? 'first' : 'second'} ${auth} (previous tok-net-1)`);
    };
    const err = await failure(client({ fetch, accessToken: () => `tok-net-${++n}` }).getShipmentInformation('T1'));
    expect(err.code).toBe('NETWORK');
    noLeak(err.message, ['tok-net-1', 'tok-net-2', 'tok-net-3']);
  });
});

describe('item 3: a credential in the service\'s Code or ErrorCode is masked', () => {
  test.each([
    ['Code', 400], ['ErrorCode', 400], ['Code', 200], ['ErrorCode', 200],
  ])('%s on HTTP %i: err.code and err.message masked', async (field, status) => {
    for (const value of [GUID, TOKEN, GUID.toUpperCase(), `E-${TOKEN.toLowerCase()}`]) {
      svc.answer(() => ({ status, body: { [field]: value, Error: 'refused' } }));
      const err = await failure(client().getShipmentInformation('T1'));
      expect(err.code).toContain('[REDACTED]');
      noLeak(`${err.code} ${err.message} ${JSON.stringify(err)}`);
    }
  });

  test('dispatch: a GUID in the rejection\'s Code is masked', async () => {
    svc.answer(() => ({ status: 200, body: { Success: false, Code: GUID.toUpperCase(), Reason: `unknown merchant {${GUID}}` } }));
    const err = await failure(client().updateOrderDispatchV2(fixture('dispatch-request-v2')));
    expect(err.code).toBe('DISPATCH_REJECTED');
    noLeak(`${err.message} ${err.reason}`);
  });
});

describe('item 4: credentials in every letter case; the GUID with or without braces and hyphens', () => {
  test.each(SPELLINGS.map((s) => [s]))('the service echoes %s: masked in the error', async (spelling) => {
    svc.answer(() => ({ status: 401, body: { Code: 'UNAUTHORIZED', Error: `merchant ${spelling} unknown; token ${TOKEN.toUpperCase()}` } }));
    const err = await failure(client().getShipmentInformation('T1'));
    expect(err.description).toBe('merchant [REDACTED] unknown; token [REDACTED]');
    noLeak(`${err.message} ${err.description}`);
  });

  test('a token function\'s token in another case is masked', async () => {
    svc.answer(() => ({ status: 401, body: { Code: 'UNAUTHORIZED', Error: 'token TOK-FN-ABCDEF expired' } }));
    const err = await failure(client({ accessToken: async () => 'tok-fn-abcdef' }).getShipmentInformation('T1'));
    expect(err.description).toBe('token [REDACTED] expired');
  });
});

test('a token too short to mask (2 characters) masks nothing else either', async () => {
  svc.answer(() => ({ status: 400, body: { Code: 'INVALID_REQUEST', Error: 'undefined value ab' } }));
  const err = await failure(client({ accessToken: async () => 'ab' }).getShipmentInformation('T1'));
  expect(err.description).toBe('undefined value ab');
});
