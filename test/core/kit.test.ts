/**
 * The framework-free core, as a third binding would use it: routes, body limits, and
 * `handle(callback, request)` with a raw or an already-parsed body.
 */
import { createCallbackKit, DEFAULT_PATHS } from 'crossborder-merchant-kit';
import { MERCHANT_GUID, order } from '../helpers/orders.js';
import { recordingAdapter } from '../helpers/recording.js';
import { CALLBACK_ENTRIES } from '../../lib/core/registry.js';

const post = (body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  ({ method: 'POST', path: '/SendOrderToMerchant', headers, query: {}, body });

test('routes list every mounted (method, path) pair; cart info has GET and POST', () => {
  const kit = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter() });
  // Every callback of the registry (the recording adapter implements them all), each of its methods at its default path, in registry order.
  expect(kit.routes).toEqual(CALLBACK_ENTRIES.flatMap((e) => e.methods.map((method) => ({ callback: e.name, method, path: e.defaultPath }))));
  expect(kit.routes.filter((r) => r.callback === 'getCheckoutCartInfo')).toEqual([
    { callback: 'getCheckoutCartInfo', method: 'GET', path: DEFAULT_PATHS.getCheckoutCartInfo },
    { callback: 'getCheckoutCartInfo', method: 'POST', path: DEFAULT_PATHS.getCheckoutCartInfo },
  ]);
  expect(kit.routes).toContainEqual({ callback: 'sendOrderToMerchant', method: 'POST', path: '/SendOrderToMerchant' });
});

test('bodyLimit: 1 MB by default, the documents webhook 25 MB, both configurable', () => {
  const kit = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter() });
  expect(kit.bodyLimit('sendOrderToMerchant')).toBe(1024 * 1024);
  expect(kit.bodyLimit('receiveAdditionalRequiredDocuments')).toBe(25 * 1024 * 1024);
  const custom = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), bodyLimit: '500kb', documentsBodyLimit: 10_000_000 });
  expect(custom.bodyLimit('performOrderPayment')).toBe(500 * 1024);
  expect(custom.bodyLimit('receiveAdditionalRequiredDocuments')).toBe(10_000_000);
});

test.each([
  ['a Buffer', Buffer.from(JSON.stringify(order()))],
  ['a string', JSON.stringify(order())],
  ['an already-parsed object', order()],
])('handle accepts the body as %s', async (_what, body) => {
  const adapter = recordingAdapter();
  const kit = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter });
  const reply = await kit.handle('sendOrderToMerchant', post(body));
  expect(reply.status).toBe(200);
  expect(reply.body).toEqual({ Success: true, InternalOrderId: 'A-1', OrderId: '1001', StatusCode: 'N/A' });
  expect(reply.headers['cache-control']).toBe('no-store');
  expect(adapter.calls[0].input.OrderId).toBe('GE1001CH');
});

test('handle never rejects, whatever the request', async () => {
  const kit = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter() });
  const odd = [post(undefined), post(null), post(42), post(Buffer.from([0xff, 0xfe])), post('{}', {})];
  for (const request of odd) {
    const reply = await kit.handle('sendOrderToMerchant', request);
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(reply.status).toBeLessThan(500);
    expect((reply.body as { Success: boolean }).Success).toBe(false);
  }
});
