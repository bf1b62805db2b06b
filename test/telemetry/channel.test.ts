/**
 * The diagnostics_channel TracingChannels, with no OpenTelemetry provider at all:
 * `crossborder-merchant-kit:callback` and `crossborder-merchant-kit:client`.
 */
import diagnostics from 'node:diagnostics_channel';
import { createServiceClient } from 'crossborder-merchant-kit/client';
import { fakeService } from '../client/fake-service.js';
import { fixture as serviceFixture } from '../client/setup.js';
import { MERCHANT_GUID, order } from '../helpers/orders.js';
import { deliver, testKit } from '../helpers/kit.js';
import { captureLogger } from '../helpers/recording.js';
import { observeDelivery } from '../../lib/telemetry/callback.js';

type Event = [string, Record<string, unknown>];

function listen(name: string): { events: Event[]; stop(): void } {
  const channel = diagnostics.tracingChannel(name);
  const events: Event[] = [];
  const at = (kind: string) => (message: unknown) => {
    const { result: _result, error, ...rest } = message as Record<string, unknown>;
    events.push([kind, { ...rest, ...(error !== undefined ? { error: (error as Error).message } : {}) }]);
  };
  const handlers = { start: at('start'), end: at('end'), asyncStart: at('asyncStart'), asyncEnd: at('asyncEnd'), error: at('error') };
  channel.subscribe(handlers);
  return { events, stop: () => channel.unsubscribe(handlers) };
}

test('callback: start and end when the delivery starts, asyncStart and asyncEnd with OrderId, outcome and status', async () => {
  const sub = listen('crossborder-merchant-kit:callback');
  try {
    const t = testKit();
    await t.deliver('sendOrderToMerchant', order());
    await t.deliver('sendOrderToMerchant', order());
  } finally {
    sub.stop();
  }
  const done = { callback: 'SendOrderToMerchant', orderId: 'GE1001CH', status: 200 };
  expect(sub.events).toEqual([
    ['start', { callback: 'SendOrderToMerchant' }],
    ['end', { callback: 'SendOrderToMerchant' }],
    ['asyncStart', { ...done, outcome: 'handled' }],
    ['asyncEnd', { ...done, outcome: 'handled' }],
    ['start', { callback: 'SendOrderToMerchant' }],
    ['end', { callback: 'SendOrderToMerchant' }],
    ['asyncStart', { ...done, outcome: 'replayed' }],
    ['asyncEnd', { ...done, outcome: 'replayed' }],
  ]);
});

test('callback: a delivery the kit itself fails (a bug, not the adapter) publishes error, then asyncStart/asyncEnd with outcome failed and 500', async () => {
  // kit.handle catches every rejection of the pipeline (and answers 500): drive the wrapper directly.
  // A delivery that rejects has no result: its OrderId is not known to telemetry (deliver() itself never rejects).
  const sub = listen('crossborder-merchant-kit:callback');
  try {
    await expect(observeDelivery('/UpdateOrderStatus', () => Promise.reject(new Error('kit bug')))).rejects.toThrow('kit bug');
  } finally {
    sub.stop();
  }
  expect(sub.events.map(([kind]) => kind)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
  expect(sub.events[4][1]).toEqual({ callback: 'UpdateOrderStatus', orderId: undefined, outcome: 'failed', status: 500, error: 'kit bug' });
});

test('client: one start … asyncEnd per operation with operation, method, status, attempts and outcome', async () => {
  let n = 0;
  const svc = await fakeService(() => (n++ === 0 ? { status: 503 } : { status: 200, body: serviceFixture('hub-details') }));
  const sub = listen('crossborder-merchant-kit:client');
  try {
    const client = createServiceClient({ baseUrl: svc.url, merchantGuid: MERCHANT_GUID, logger: captureLogger(), retry: { retries: 2, minDelayMs: 1, maxDelayMs: 5 } });
    await client.getActiveHubDetails();
  } finally {
    sub.stop();
    await svc.close();
  }
  const done = { operation: 'getActiveHubDetails', method: 'POST', status: 200, attempts: 2, outcome: 'ok' };
  expect(sub.events).toEqual([
    ['start', { operation: 'getActiveHubDetails', method: 'POST' }],
    ['end', { operation: 'getActiveHubDetails', method: 'POST' }],
    ['asyncStart', done],
    ['asyncEnd', done],
  ]);
});

test('nothing is published once the subscriber left', async () => {
  const sub = listen('crossborder-merchant-kit:callback');
  sub.stop();
  await deliver('sendOrderToMerchant', order());
  expect(sub.events).toEqual([]);
});
