/**
 * Safety round 3 (issue 36, items 5 and 6): only non-negative delta-seconds and real HTTP dates
 * count as Retry-After, capped at one day; the time-out bounds the call whatever a custom fetch does.
 */
import { createServiceClient, type FetchLike } from 'crossborder-merchant-kit/client';
import { getEventListeners } from 'node:events';
import { MAX_RETRY_AFTER_MS, retryAfterMs, untilAborted } from '../../lib/client/request.js';
import { captureLogger } from '../helpers/recording.js';
import { fakeService, type FakeService } from './fake-service.js';
import { failure, fixture, GUID } from './setup.js';

const NOW = Date.parse('2026-11-27T12:00:00Z');

describe('retryAfterMs', () => {
  test('delta-seconds: non-negative digits only', () => {
    expect(retryAfterMs('0', NOW)).toBe(0);
    expect(retryAfterMs('120', NOW)).toBe(120_000);
    expect(retryAfterMs(' 7 ', NOW)).toBe(7_000);
  });

  test.each(['-86400', '-1', '1e3', '1.5', '+5', '0x10', 'soon', '86400 seconds', '', '12:00', 'Infinity'])(
    '%j is not a Retry-After (undefined)', (value) => {
      expect(retryAfterMs(value, NOW)).toBeUndefined();
    });

  test('the three HTTP-date forms, read as GMT; a past date is 0', () => {
    expect(retryAfterMs('Fri, 27 Nov 2026 12:00:30 GMT', NOW)).toBe(30_000);
    expect(retryAfterMs('Friday, 27-Nov-26 12:01:00 GMT', NOW)).toBe(60_000);
    expect(retryAfterMs('Fri Nov 27 12:00:05 2026', NOW)).toBe(5_000);
    expect(retryAfterMs('Fri, 27 Nov 2026 11:00:00 GMT', NOW)).toBe(0);
  });

  test('capped at one day (MAX_RETRY_AFTER_MS), in seconds or as a date', () => {
    expect(MAX_RETRY_AFTER_MS).toBe(86_400_000);
    expect(retryAfterMs('86400', NOW)).toBe(86_400_000);
    expect(retryAfterMs('86401', NOW)).toBe(86_400_000);
    expect(retryAfterMs('99999999999999999999999', NOW)).toBe(86_400_000);
    expect(retryAfterMs('Sat, 01 Jan 9999 00:00:00 GMT', NOW)).toBe(86_400_000);
  });

  test('a date in the right form that is no date (day 99, hour 25) is not a Retry-After', () => {
    expect(retryAfterMs('Fri, 99 Nov 2026 12:00:00 GMT', NOW)).toBeUndefined();
    expect(retryAfterMs('Fri, 27 Nov 2026 25:00:00 GMT', NOW)).toBeUndefined();
  });

  test('absent: undefined', () => {
    expect(retryAfterMs(null, NOW)).toBeUndefined();
  });
});

describe('a hostile Retry-After on a retryable answer', () => {
  let svc: FakeService;
  afterEach(() => svc.close());

  test('Retry-After: -86400 on a 503 is ignored: the client retries, and reports no retryAfterMs', async () => {
    svc = await fakeService(() => ({ status: 503, headers: { 'retry-after': '-86400' }, body: { Code: 'INTERNAL_ERROR', Error: 'busy' } }));
    const client = createServiceClient({ baseUrl: svc.url, merchantGuid: GUID, logger: captureLogger(), retry: { retries: 2, minDelayMs: 1, maxDelayMs: 20 } });
    const err = await failure(client.getShipmentInformation('T1'));
    expect(err).toMatchObject({ code: 'INTERNAL_ERROR', attempts: 3, retryable: true });
    expect(err.retryAfterMs).toBeUndefined();
  });

  test('an absurd delta-seconds value ends the retries and is reported capped at one day', async () => {
    svc = await fakeService(() => ({ status: 503, headers: { 'retry-after': '999999999999' } }));
    const client = createServiceClient({ baseUrl: svc.url, merchantGuid: GUID, logger: captureLogger(), retry: { retries: 2, minDelayMs: 1, maxDelayMs: 20 } });
    const err = await failure(client.getShipmentInformation('T1'));
    expect(err).toMatchObject({ code: 'HTTP_503', attempts: 1, retryAfterMs: MAX_RETRY_AFTER_MS });
  });
});

describe('the time-out bounds the call whatever the fetch does', () => {
  const ok = () => new Response(JSON.stringify(fixture('shipment-information')), { status: 200, headers: { 'content-type': 'application/json' } });

  test('a fetch that ignores the signal and never answers: TIMEOUT', async () => {
    const fetch: FetchLike = () => new Promise<Response>(() => undefined);
    const client = createServiceClient({ baseUrl: 'http://127.0.0.1:9', merchantGuid: GUID, fetch, timeoutMs: 50, retry: { retries: 1, minDelayMs: 1, maxDelayMs: 2 } });
    expect(await failure(client.getShipmentInformation('T1'))).toMatchObject({ code: 'TIMEOUT', attempts: 2, retryable: true });
  });

  test('a fetch that ignores the signal and answers a success after the time-out: TIMEOUT, not the success', async () => {
    let late!: () => void;
    const answered = new Promise<void>((r) => { late = r; });
    const fetch: FetchLike = (_url, init) => new Promise<Response>((resolve) => {
      // Answers once the client gave up (the abort it ignores), like headers after 3 s with timeoutMs 300.
      init.signal?.addEventListener('abort', () => setTimeout(() => { resolve(ok()); late(); }, 5));
    });
    const client = createServiceClient({ baseUrl: 'http://127.0.0.1:9', merchantGuid: GUID, fetch, timeoutMs: 50, retry: { retries: 0 } });
    expect(await failure(client.getShipmentInformation('T1'))).toMatchObject({ code: 'TIMEOUT', attempts: 1 });
    await answered;
  });

  test('a fetch whose body never ends: TIMEOUT', async () => {
    const fetch: FetchLike = async () => new Response(new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode('{"a":')); } }), { status: 200 });
    const client = createServiceClient({ baseUrl: 'http://127.0.0.1:9', merchantGuid: GUID, fetch, timeoutMs: 50, retry: { retries: 0 } });
    expect(await failure(client.getShipmentInformation('T1'))).toMatchObject({ code: 'TIMEOUT' });
  });
});

describe('untilAborted', () => {
  test('settles as the work when it settles first, and leaves no listener on the signal', async () => {
    const c = new AbortController();
    await expect(untilAborted(Promise.resolve('done'), c.signal)).resolves.toBe('done');
    await expect(untilAborted(Promise.reject(new Error('refused')), c.signal)).rejects.toThrow('refused');
    expect(getEventListeners(c.signal, 'abort')).toHaveLength(0);
  });

  test('rejects with the signal\'s reason when it aborts first, also when it already has', async () => {
    const c = new AbortController();
    const never = new Promise<string>(() => undefined);
    const pending = untilAborted(never, c.signal);
    const reason = new Error('time-out');
    c.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await expect(untilAborted(never, c.signal)).rejects.toBe(reason);
  });
});
