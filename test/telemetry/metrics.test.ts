/**
 * The kit's metrics with the real SDK: names, units, low-cardinality attributes only (never an
 * OrderId), spec deviations counted per callback, adapter time-outs and store failures classified.
 */
import { MemoryStore, type Store } from 'crossborder-merchant-kit/store';
import { createServiceClient } from 'crossborder-merchant-kit/client';
import { fakeService } from '../client/fake-service.js';
import { fixture as serviceFixture } from '../client/setup.js';
import { MERCHANT_GUID, order } from '../helpers/orders.js';
import { installOtel, type OtelHarness } from '../helpers/otel.js';
import { deliver, testKit } from '../helpers/kit.js';
import { captureLogger } from '../helpers/recording.js';
import { DELIVERIES } from './deliveries.js';

let otel: OtelHarness;
beforeEach(() => { otel = installOtel(); });
afterEach(() => otel.uninstall());

const ALLOWED: Record<string, string[]> = {
  'cbk.callback.duration': ['cbk.callback', 'cbk.outcome'],
  'cbk.adapter.duration': ['cbk.callback', 'cbk.result'],
  'cbk.store.duration': ['cbk.result', 'cbk.store.operation'],
  'cbk.spec_deviations': ['cbk.callback'],
  'cbk.client.duration': ['cbk.operation', 'cbk.outcome'],
  'cbk.holds.active': [],
};
const UNIT: Record<string, string> = { 'cbk.spec_deviations': '{delivery}', 'cbk.holds.active': '{hold}' };

test('every metric has its name, unit and only its low-cardinality attributes; no OrderId anywhere in the metrics', async () => {
  const { kit } = testKit();
  for (const d of DELIVERIES) expect((await kit.handle(d.name, d.request())).status).toBe(200);
  const svc = await fakeService(() => ({ status: 200, body: serviceFixture('hub-details') }));
  try {
    await createServiceClient({ baseUrl: svc.url, merchantGuid: MERCHANT_GUID, logger: captureLogger() }).getActiveHubDetails();
  } finally {
    await svc.close();
  }
  const points = await otel.points();
  expect([...new Set(points.map((p) => p.name))].sort()).toEqual(Object.keys(ALLOWED).sort());
  for (const p of points) {
    expect(Object.keys(p.attributes).sort()).toEqual(ALLOWED[p.name]);
    expect(p.unit).toBe(UNIT[p.name] ?? 's');
  }
  const orderIds = DELIVERIES.flatMap((d) => (d.orderId ? [d.orderId] : []));
  const text = JSON.stringify(points);
  for (const id of [...orderIds, 'cart-7f3a', MERCHANT_GUID]) expect(text).not.toContain(id);
  const callbacks = points.filter((p) => p.name === 'cbk.callback.duration').map((p) => p.attributes['cbk.callback']).sort();
  expect(callbacks).toEqual(DELIVERIES.map((d) => d.wire).sort());
});

test('cbk.spec_deviations counts deliveries whose payload deviated, per callback', async () => {
  const { kit } = testKit();
  const refund = DELIVERIES.find((d) => d.wire === 'NotifyOrderRefunded')!; // real payload: WebStoreCode null
  const send = DELIVERIES.find((d) => d.wire === 'SendOrderToMerchant')!;
  await kit.handle(refund.name, refund.request());
  await kit.handle(send.name, send.request());
  const deviations = (await otel.points()).filter((p) => p.name === 'cbk.spec_deviations');
  expect(deviations.map((p) => [p.attributes, p.value])).toEqual([[{ 'cbk.callback': 'NotifyOrderRefunded' }, 1]]);
});

test('an adapter that outlives adapterTimeoutMs: cbk.result timeout, and the delivery failed', async () => {
  let finish!: () => void;
  const late = new Promise<void>((r) => { finish = r; });
  const t = testKit({ adapterTimeoutMs: 20, answers: { updateOrderStatus: async () => { await late; return { InternalOrderId: 'A-1' }; } } });
  const reply = await t.deliver('updateOrderStatus', { MerchantGUID: MERCHANT_GUID, OrderId: 'GE1', StatusCode: 'canceled' });
  finish();
  expect(reply.status).toBe(500);
  const points = await otel.points();
  expect(points.find((p) => p.name === 'cbk.adapter.duration')?.attributes).toEqual({ 'cbk.callback': 'UpdateOrderStatus', 'cbk.result': 'timeout' });
  expect(points.find((p) => p.name === 'cbk.callback.duration')?.attributes).toEqual({ 'cbk.callback': 'UpdateOrderStatus', 'cbk.outcome': 'failed' });
  expect(otel.span('adapter updateOrderStatus').attributes).toMatchObject({ 'cbk.result': 'timeout', 'error.type': 'AdapterTimeout' });
});

test('a failing store: its span is an error with the error code, cbk.result error, and the delivery failed with STORE_UNAVAILABLE', async () => {
  const memory = new MemoryStore();
  const store = Object.assign(Object.create(memory) as Store, {
    getRecord: () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED postgres://app:s3cret@db'), { code: 'ECONNREFUSED' })),
  });
  const { reply } = await deliver('sendOrderToMerchant', order(), { store });
  expect(reply.status).toBe(503);
  const failed = otel.spans().filter((s) => s.name === 'store getRecord');
  expect(failed[0].attributes).toEqual({ 'cbk.store.operation': 'getRecord', 'error.type': 'ECONNREFUSED' });
  expect(failed[0].status.code).toBe(2);
  expect(otel.span('callback SendOrderToMerchant').attributes).toMatchObject({ 'cbk.outcome': 'failed', 'error.type': 'STORE_UNAVAILABLE' });
  const storePoints = (await otel.points()).filter((p) => p.name === 'cbk.store.duration');
  expect(storePoints.map((p) => p.attributes)).toContainEqual({ 'cbk.store.operation': 'getRecord', 'cbk.result': 'error' });
  expect(await otel.everything()).not.toContain('s3cret');
});
