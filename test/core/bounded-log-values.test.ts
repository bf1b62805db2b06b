/**
 * Issue 36: every value the kit copies from a request into telemetry and log lines is bounded — ids
 * at the kit's id limit (200), then cut and marked — for every callback (a refused cart-info POST
 * once copied a 300 kB OrderID into `cbk.order_id` and the `callback handled` line).
 */
import diagnostics from 'node:diagnostics_channel';
import { createCallbackKit, type CallbackName } from 'crossborder-merchant-kit';
import { CALLBACK_NAMES } from '../../lib/core/registry.js';
import { cutText, MAX_LOGGED_ID } from '../../lib/shared/bounded.js';
import { MERCHANT_GUID, OTHER_GUID, order } from '../helpers/orders.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';

const HUGE = 'X'.repeat(300_000);
/** Every callback of the registry. */
const CALLBACKS: readonly CallbackName[] = CALLBACK_NAMES;
const post = (path: string, body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST', path, query: {}, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body),
});

function channelOrderIds(): { ids: unknown[]; stop(): void } {
  const channel = diagnostics.tracingChannel('crossborder-merchant-kit:callback');
  const ids: unknown[] = [];
  const keep = (m: unknown) => { ids.push((m as { orderId?: unknown }).orderId); };
  const handlers = { start: keep, end: keep, asyncStart: keep, asyncEnd: keep, error: keep };
  channel.subscribe(handlers);
  return { ids, stop: () => channel.unsubscribe(handlers) };
}

describe('cutText', () => {
  test('short text as is; longer text cut at the bound and marked with its length', () => {
    expect(cutText('GE1001CH', 200)).toBe('GE1001CH');
    expect(cutText('a'.repeat(200), 200)).toBe('a'.repeat(200));
    expect(cutText('a'.repeat(201), 200)).toBe(`${'a'.repeat(200)}…[cut, 201 chars]`);
  });

  test('never half a surrogate pair', () => {
    const cut = cutText(`${'a'.repeat(199)}😀tail`, 200);
    expect(cut).toBe(`${'a'.repeat(199)}…[cut, 205 chars]`);
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});

describe.each(CALLBACKS)('%s with a 300 kB id', (callback) => {
  test.each([['accepted GUID', MERCHANT_GUID], ['refused GUID', OTHER_GUID]])('%s: log lines and channel carry at most the id limit, marked', async (_what, guid) => {
    const logger = captureLogger();
    const kit = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger });
    const path = kit.routes.find((r) => r.callback === callback)!.path;
    const sub = channelOrderIds();
    let status: number;
    try {
      ({ status } = await kit.handle(callback, { ...post(path, order({ MerchantGUID: guid, OrderId: HUGE, OrderID: HUGE })), query: { merchantCartToken: 'c1' } }));
    } finally {
      sub.stop();
    }
    // An exactly-once OrderId longer than the id limit is refused (never cut and used); the cart's is only logged.
    if (callback !== 'getCheckoutCartInfo') expect(status).toBe(400);
    expect(status).toBeLessThan(500);
    for (const line of logger.lines) expect(JSON.stringify(line).length).toBeLessThan(5_000);
    for (const id of sub.ids) if (id !== undefined) expect((id as string).length).toBeLessThanOrEqual(MAX_LOGGED_ID + 30);
    const summary = logger.summaries()[0];
    if (summary.obj.orderId !== undefined) expect(summary.obj.orderId).toBe(`${'X'.repeat(200)}…[cut, 300000 chars]`);
  });
});

test('the refused cart-info POST of the report: its OrderID cut and marked in the log line and the channel', async () => {
  const logger = captureLogger();
  const kit = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger });
  const sub = channelOrderIds();
  try {
    const res = await kit.handle('getCheckoutCartInfo', { ...post('/GetCheckoutCartInfo', { MerchantGUID: OTHER_GUID, OrderID: HUGE }), query: { merchantCartToken: 'c1' } });
    expect(res.status).toBeGreaterThanOrEqual(400);
  } finally {
    sub.stop();
  }
  const marked = `${'X'.repeat(200)}…[cut, 300000 chars]`;
  expect(logger.summaries()[0].obj.orderId).toBe(marked);
  expect(sub.ids.filter((id) => id !== undefined)).toEqual([marked, marked]);
});

test('a 100 kB Content-Type or Content-Encoding is cut in the refusal\'s reason', async () => {
  const logger = captureLogger();
  const kit = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger });
  const long = `text/${'y'.repeat(100_000)}`;
  expect((await kit.handle('updateOrderStatus', post('/UpdateOrderStatus', {}, { 'content-type': long }))).status).toBe(415);
  expect((await kit.handle('updateOrderStatus', post('/UpdateOrderStatus', {}, { 'content-encoding': long }))).status).toBe(415);
  const reasons = logger.lines.filter((l) => l.msg === 'callback refused').map((l) => l.obj.reason as string);
  expect(reasons).toHaveLength(2);
  for (const reason of reasons) {
    expect(reason.length).toBeLessThan(300);
    expect(reason).toContain('…[cut, 100005 chars]');
  }
  // The reply says what to send instead.
  const type = await kit.handle('updateOrderStatus', post('/UpdateOrderStatus', {}, { 'content-type': 'text/plain' }));
  const encoding = await kit.handle('updateOrderStatus', post('/UpdateOrderStatus', {}, { 'content-encoding': 'gzip' }));
  expect(type.body).toMatchObject({ ErrorCode: 'UNSUPPORTED_MEDIA_TYPE', Description: 'Send the body as application/json' });
  expect(encoding.body).toMatchObject({ ErrorCode: 'UNSUPPORTED_MEDIA_TYPE', Description: 'Send the body without content-encoding' });
});

test('cutText: a text already cut at the bound stays as it is (an id cut where read, then logged)', () => {
  const once = cutText('z'.repeat(500), 200);
  expect(cutText(once, 200)).toBe(once);
  expect(cutText(`${'z'.repeat(300)}…[cut, 9 chars]`, 200)).toBe(`${'z'.repeat(200)}…[cut, 315 chars]`);
});

test('a cart without OrderID (GET) logs none; a numeric OrderID is logged as its text', async () => {
  const logger = captureLogger();
  const kit = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger });
  const get = await kit.handle('getCheckoutCartInfo', { method: 'GET', path: '/GetCheckoutCartInfo', query: { merchantCartToken: 'c1' }, headers: {} });
  expect(get.status).toBe(200);
  expect(logger.summaries()[0].obj).not.toHaveProperty('orderId');
  const numeric = await kit.handle('getCheckoutCartInfo', { ...post('/GetCheckoutCartInfo', { MerchantGUID: MERCHANT_GUID, OrderID: 12345 }), query: { merchantCartToken: 'c1' } });
  expect(numeric.status).toBe(200);
  expect(logger.summaries()[1].obj.orderId).toBe('12345');
});

test('a request without a Content-Type: refused 415, the reason says null', async () => {
  const logger = captureLogger();
  const kit = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger });
  const res = await kit.handle('updateOrderStatus', { method: 'POST', path: '/UpdateOrderStatus', query: {}, headers: {}, body: '{}' });
  expect(res.status).toBe(415);
  expect(logger.lines.find((l) => l.msg === 'callback refused')?.obj.reason).toBe('content-type null is not JSON');
});
