/**
 * The client talks to the internet with the merchant's token: a hostile or broken service (or a
 * man in the middle) must not exhaust its memory, hold it past timeoutMs, pull the token or the
 * MerchantGUID to another host, or change the request through an id. And whatever fails, no error
 * text or log line carries the token or the GUID.
 */
import { createServiceClient } from 'crossborder-merchant-kit/client';
import { startHostile, type Hostile } from '../helpers/hostile-merchant.js';
import { captureLogger } from '../helpers/recording.js';
import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure, fixture, GUID, TOKEN } from './setup.js';

let hostile: Hostile | undefined;
let elsewhere: Hostile | undefined;
let svc: FakeService | undefined;
afterEach(async () => {
  await hostile?.close(); await elsewhere?.close(); await svc?.close();
  hostile = elsewhere = svc = undefined;
});

const ORDERS = [{ OrderId: 'GE1', TrackingNumbers: ['1Z999AA10123456784'] }];
/** Everything a failure shows a developer or a log: none of it may hold a secret. */
function expectNoSecret(err: unknown, log: ReturnType<typeof captureLogger>) {
  const e = err as Error & { description?: string };
  const shown = [e.message, e.description, JSON.stringify(e), String(e.stack), JSON.stringify(log.lines)].join('\n');
  expect(shown).not.toContain(TOKEN);
  expect(shown).not.toContain(GUID);
}
const client = (baseUrl: string, extra: object = {}) => {
  const log = captureLogger();
  return {
    log,
    client: createServiceClient({ baseUrl, merchantGuid: GUID, accessToken: TOKEN, logger: log, retry: { retries: 0 }, timeoutMs: 2000, ...extra }),
  };
};

describe('answer size', () => {
  test('a 1 GB answer is read up to maxResponseBytes and no further: INVALID_RESPONSE, memory untouched', async () => {
    hostile = await startHostile('huge');
    const { client: c, log } = client(hostile.url, { maxResponseBytes: 1024 * 1024 });
    const heapBefore = process.memoryUsage().heapUsed;
    const err = await failure(c.getShipmentInformation('1Z999AA10123456784'));
    expect(err).toMatchObject({ code: 'INVALID_RESPONSE', status: 200, attempts: 1 });
    expect(err.description).toMatch(/larger than maxResponseBytes \(1048576 bytes\)/);
    // the service pushed what the socket buffers took, never the gigabyte
    expect(hostile.bytesSent).toBeLessThan(64 * 1024 * 1024);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
    expectNoSecret(err, log);
  });

  test('the default limit is 8 MiB and the option is checked at construction', async () => {
    hostile = await startHostile('huge');
    const err = await failure(client(hostile.url).client.getShipmentInformation('1Z999AA10123456784'));
    expect(err.description).toMatch(/\(8388608 bytes\)/);
    for (const bad of [0, -1, 1.5, '10', Number.NaN]) {
      expect(() => createServiceClient({ baseUrl: hostile!.url, merchantGuid: GUID, maxResponseBytes: bad as number })).toThrow(/maxResponseBytes/);
    }
  });
});

describe('timeoutMs bounds the whole exchange', () => {
  test('a body dripped a byte at a time ends as TIMEOUT', async () => {
    hostile = await startHostile('drip');
    const { client: c, log } = client(hostile.url, { timeoutMs: 300 });
    const err = await failure(c.getShipmentInformation('1Z999AA10123456784'));
    expect(err).toMatchObject({ code: 'TIMEOUT', attempts: 1 });
    expectNoSecret(err, log);
  });

  test('even with a fetch that ignores the abort signal, the body read stops at timeoutMs', async () => {
    const neverEnding = () => Promise.resolve(new Response(new ReadableStream({ start(ctl) { ctl.enqueue(new TextEncoder().encode('{')); } }), { status: 200 }));
    const { client: c } = client('http://127.0.0.1:9', { timeoutMs: 200, fetch: neverEnding });
    expect(await failure(c.getShipmentInformation('1Z999AA10123456784'))).toMatchObject({ code: 'TIMEOUT' });
  });
});

describe('redirects are never followed', () => {
  test.each([
    ['getShipmentInformation (token, GUID in the query)', (c: ReturnType<typeof client>['client']) => c.getShipmentInformation('1Z999AA10123456784')],
    ['requestAdditionalRequiredDocuments (token, GUID header)', (c: ReturnType<typeof client>['client']) => c.requestAdditionalRequiredDocuments(ORDERS)],
    ['createOrderRefund (a refund is not resent elsewhere)', (c: ReturnType<typeof client>['client']) => c.createOrderRefund({ OrderId: 'GE1', TotalRefundAmount: '1.00', ExternalReference: 'r-1' })],
    ['getRefundDetails', (c: ReturnType<typeof client>['client']) => c.getRefundDetails('GE1')],
    ['updateOrderStatus', (c: ReturnType<typeof client>['client']) => c.updateOrderStatus({ OrderId: 'GE1', StatusCode: 'processing' })],
    ['updateShippingAddress (Idempotency-Key)', (c: ReturnType<typeof client>['client']) => c.updateShippingAddress({ orderId: 'GE1', primaryShipping: { city: 'Bern' } })],
  ])('%s: a 307 to another host is an HTTP_307 error; the other host sees nothing', async (_what, run) => {
    elsewhere = await startHostile('stack');
    hostile = await startHostile('redirect', { redirectTo: elsewhere.url });
    const { client: c, log } = client(hostile.url, { retry: { retries: 2, minDelayMs: 1, maxDelayMs: 5 } });
    const err = await failure(run(c));
    expect(err).toMatchObject({ code: 'HTTP_307', status: 307, attempts: 1, retryable: false });
    expect(err.description).toMatch(/redirect; not followed/);
    expect(elsewhere.hits).toBe(0);
    expect(hostile.hits).toBe(1);
    expectNoSecret(err, log);
  });
});

describe('ids cannot change the request', () => {
  beforeEach(async () => { svc = await fakeService(() => ({ status: 200, body: fixture('shipment-information') })); });

  test.each([
    ['GE1&merchantGUID=x', '/api/shipments/GE1%26merchantGUID%3Dx'],
    ['GE1?merchantGUID=x', '/api/shipments/GE1%3FmerchantGUID%3Dx'],
    ['GE1#frag', '/api/shipments/GE1%23frag'],
    ['../../admin', '/api/shipments/..%2F..%2Fadmin'],
    ['..%2fadmin', '/api/shipments/..%252fadmin'],
    ['%2e%2e', '/api/shipments/%252e%252e'],
  ])('tracking number %j stays one path segment; the query is only the GUID', async (id, path) => {
    const { client: c } = clientFor(svc!);
    await c.getShipmentInformation(id);
    expect(svc!.received).toHaveLength(1);
    expect(svc!.received[0].path).toBe(path);
    expect(svc!.received[0].query.getAll('merchantGUID')).toEqual([GUID]);
    expect([...svc!.received[0].query.keys()]).toEqual(['merchantGUID']);
  });

  test.each(['.', '..'])('tracking number %j (a path step) is INVALID_ARGUMENT; nothing is sent', async (id) => {
    const { client: c } = clientFor(svc!);
    expect(await failure(c.getShipmentInformation(id))).toMatchObject({ code: 'INVALID_ARGUMENT', attempts: 0 });
    expect(svc!.received).toHaveLength(0);
  });

  test('an OrderId with query characters stays inside the orderStatus parameter (UpdateOrderStatus); the GUID is sent once', async () => {
    svc!.answer(() => ({ status: 200, body: { Success: true } }));
    const { client: c } = clientFor(svc!);
    await c.updateOrderStatus({ OrderId: 'GE1&merchantGUID=x#', StatusCode: 'processing' });
    const q = svc!.received[0].query;
    expect([...q.keys()]).toEqual(['merchantGUID', 'orderStatus']);
    expect(q.getAll('merchantGUID')).toEqual([GUID]);
    expect(JSON.parse(q.get('orderStatus')!).OrderId).toBe('GE1&merchantGUID=x#');
  });

  test.each([['GE1?merchantGUID=x', '/v1/orders/GE1%3FmerchantGUID%3Dx/refunds'], ['../admin', '/v1/orders/..%2Fadmin/refunds']])(
    'getRefundDetails: order id %j stays one path segment', async (id, path) => {
      svc!.answer(() => ({ status: 200, body: { Refunds: [] } }));
      const { client: c } = clientFor(svc!);
      await c.getRefundDetails(id);
      expect(svc!.received[0].path).toBe(path);
      expect([...svc!.received[0].query.keys()]).toEqual(['merchantGUID']);
    });

  test('an OrderId with query or path characters travels in the JSON body only, unchanged', async () => {
    svc!.answer(() => ({ status: 200, body: { Success: true } }));
    const { client: c } = clientFor(svc!);
    await c.requestAdditionalRequiredDocuments([{ OrderId: 'GE1&merchantGUID=x/../#', TrackingNumbers: ['T1'] }]);
    expect(svc!.received[0].path).toBe('/additional-required-documents');
    expect([...svc!.received[0].query.keys()]).toEqual([]);
    expect(svc!.received[0].json.Orders[0].OrderId).toBe('GE1&merchantGUID=x/../#');
  });
});

test('Retry-After beyond retry.maxDelayMs is not waited for: one attempt, the error carries it', async () => {
  svc = await fakeService(() => ({ status: 503, body: '', headers: { 'retry-after': '86400' } }));
  const { client: c, log } = clientFor(svc, { retry: { retries: 3, minDelayMs: 1, maxDelayMs: 50 } });
  const err = await failure(c.getShipmentInformation('1Z999AA10123456784'));
  expect(err).toMatchObject({ code: 'HTTP_503', attempts: 1, retryAfterMs: 86_400_000 });
  expect(svc.received).toHaveLength(1);
  expectNoSecret(err, log);
});
