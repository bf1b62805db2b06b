/**
 * The service client's telemetry with the real SDK: one CLIENT span per operation (retries as
 * events), the W3C traceparent on every attempt, cbk.client.duration, and — with a context manager —
 * one trace from the callback through the adapter to the service call.
 */
import { SpanKind, SpanStatusCode, context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { createServiceClient } from 'crossborder-merchant-kit/client';
import { fakeService, type FakeService } from '../client/fake-service.js';
import { fixture as serviceFixture } from '../client/setup.js';
import { testKit } from '../helpers/kit.js';
import { MERCHANT_GUID, statusUpdate } from '../helpers/orders.js';
import { idOf, installOtel, parentOf, type OtelHarness } from '../helpers/otel.js';
import { captureLogger } from '../helpers/recording.js';

let otel: OtelHarness;
let svc: FakeService;
beforeEach(async () => {
  otel = installOtel();
  svc = await fakeService(() => ({ status: 200, body: serviceFixture('hub-details') }));
});
afterEach(async () => {
  await svc.close();
  await otel.uninstall();
});

const TOKEN = 'tok-9f8e7d6c5b4a-secret';
const clientFor = (extra = {}) => createServiceClient({
  baseUrl: svc.url, merchantGuid: MERCHANT_GUID, accessToken: TOKEN, logger: captureLogger(),
  retry: { retries: 2, minDelayMs: 1, maxDelayMs: 5 }, ...extra,
});
const traceparentOf = (span: { spanContext(): { traceId: string; spanId: string } }) => `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;

test('one CLIENT span per operation; each retry an event; traceparent of the span on every attempt', async () => {
  let n = 0;
  svc.answer(() => (n++ === 0 ? { status: 503, headers: { 'retry-after': '0' } } : { status: 200, body: serviceFixture('hub-details') }));
  await clientFor().getActiveHubDetails();
  const span = otel.span('service getActiveHubDetails');
  expect(span.kind).toBe(SpanKind.CLIENT);
  expect(span.attributes).toEqual({
    'cbk.operation': 'getActiveHubDetails', 'http.request.method': 'POST', 'server.address': '127.0.0.1',
    'server.port': Number(new URL(svc.url).port), 'http.response.status_code': 200, 'cbk.retries': 1, 'cbk.outcome': 'ok',
  });
  expect(span.status.code).toBe(SpanStatusCode.UNSET);
  expect(span.events.map((e) => [e.name, e.attributes])).toEqual([
    ['retry', { 'cbk.attempt': 1, 'http.response.status_code': 503, 'cbk.retry.delay_ms': expect.any(Number) }],
  ]);
  expect(svc.received.map((r) => r.headers.traceparent)).toEqual([traceparentOf(span), traceparentOf(span)]);
  const points = (await otel.points()).filter((p) => p.name === 'cbk.client.duration');
  expect(points.map((p) => p.attributes)).toEqual([{ 'cbk.operation': 'getActiveHubDetails', 'cbk.outcome': 'ok' }]);
});

test('an answer the service refuses: outcome client_error, status ERROR, error.type the status', async () => {
  svc.answer(() => ({ status: 404, body: { Success: false, Message: 'no such shipment' } }));
  await expect(clientFor().getShipmentInformation('TRK-1')).rejects.toThrow();
  const span = otel.span('service getShipmentInformation');
  expect(span.attributes).toMatchObject({ 'http.request.method': 'GET', 'http.response.status_code': 404, 'cbk.outcome': 'client_error', 'error.type': '404', 'cbk.retries': 0 });
  expect(span.status.code).toBe(SpanStatusCode.ERROR);
});

test('no answer at all: outcome network, error.type NETWORK, one retry event per retry with the error', async () => {
  svc.answer(() => ({ destroy: true }));
  await expect(clientFor().getActiveHubDetails()).rejects.toMatchObject({ code: 'NETWORK' });
  const span = otel.span('service getActiveHubDetails');
  expect(span.attributes).toMatchObject({ 'cbk.outcome': 'network', 'error.type': 'NETWORK', 'cbk.retries': 2 });
  expect(span.attributes['http.response.status_code']).toBeUndefined();
  expect(span.events.map((e) => e.attributes?.['error.type'])).toEqual(['NETWORK', 'NETWORK']);
  expect((await otel.points()).find((p) => p.name === 'cbk.client.duration')?.attributes).toEqual({ 'cbk.operation': 'getActiveHubDetails', 'cbk.outcome': 'network' });
});

test('with a context manager, one trace: callback → adapter → service call, and the service gets that trace', async () => {
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  try {
    const client = clientFor();
    const t = testKit({ answers: { updateOrderStatus: async () => { await client.getActiveHubDetails(); return { InternalOrderId: 'A-1' }; } } });
    const reply = await t.deliver('updateOrderStatus', statusUpdate());
    expect(reply.status).toBe(200);
  } finally {
    context.disable();
  }
  const delivery = otel.span('callback UpdateOrderStatus');
  const adapter = otel.span('adapter updateOrderStatus');
  const service = otel.span('service getActiveHubDetails');
  expect(parentOf(adapter)).toBe(idOf(delivery));
  expect(parentOf(service)).toBe(idOf(adapter));
  expect(service.spanContext().traceId).toBe(delivery.spanContext().traceId);
  expect(svc.received[0].headers.traceparent).toBe(traceparentOf(service));
});

test('the URL (its query holds the MerchantGUID) and the token are never reported', async () => {
  await clientFor().getActiveHubDetails();
  const everything = await otel.everything();
  for (const secret of [MERCHANT_GUID, TOKEN, 'merchantGUID', svc.url]) expect(everything).not.toContain(secret);
});
