/**
 * context.signal: made on first read (DeliveryContext, lib/core/stages/adapter.ts), aborted by the adapter's time-out
 * whether the adapter read it before the time-out or only after it; never aborted for a call that
 * settled in time; one per delivery.
 */
import { createCallbackKit, type CallbackContext } from 'crossborder-merchant-kit';
import { MERCHANT_GUID, order } from '../../helpers/orders.js';

const post = (orderId: string) => ({
  method: 'POST', path: '/SendOrderToMerchant', headers: { 'content-type': 'application/json' }, query: {},
  body: JSON.stringify(order({ OrderId: orderId })),
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function kitWith(sendOrderToMerchant: (o: unknown, ctx: CallbackContext) => unknown, adapterTimeoutMs = 40) {
  return createCallbackKit({
    merchantGuid: MERCHANT_GUID, logger: false, adapterTimeoutMs,
    adapter: { sendOrderToMerchant: sendOrderToMerchant as never, updateOrderStatus: () => {} },
  });
}

test('a signal read before the time-out is aborted by it, with the time-out as its reason, and fires abort once', async () => {
  let signal: AbortSignal | undefined;
  let abortedDuringCall: boolean | undefined;
  let events = 0;
  let release!: () => void;
  const settled = new Promise<void>((r) => { release = r; });
  const kit = kitWith(async (_o, ctx) => {
    signal = ctx.signal;
    abortedDuringCall = signal.aborted;
    signal.addEventListener('abort', () => { events++; });
    expect(ctx.signal).toBe(signal); // the same signal on every read
    await settled;
    return { InternalOrderId: 'late' };
  });
  const res = await kit.handle('sendOrderToMerchant', post('GE-SIG-1'));
  expect(res.status).toBe(500);
  expect(abortedDuringCall).toBe(false);
  expect(signal!.aborted).toBe(true);
  expect((signal!.reason as Error).name).toBe('AdapterTimeout');
  expect(events).toBe(1);
  release();
  await sleep(10);
  expect(events).toBe(1);
});

test('a signal first read after the time-out is already aborted, with the same reason', async () => {
  let signal: AbortSignal | undefined;
  let readAt: 'late' | undefined;
  const kit = kitWith(async (_o, ctx) => {
    await sleep(120);
    signal = ctx.signal;
    readAt = 'late';
    return { InternalOrderId: 'late' };
  });
  const res = await kit.handle('sendOrderToMerchant', post('GE-SIG-2'));
  expect(res.status).toBe(500);
  await sleep(160);
  expect(readAt).toBe('late');
  expect(signal!.aborted).toBe(true);
  expect((signal!.reason as Error).name).toBe('AdapterTimeout');
  expect((signal!.reason as Error).message).toMatch(/within 40 ms/);
});

test('the signal of a call that settled in time is never aborted, also after the time-out would have passed', async () => {
  let signal: AbortSignal | undefined;
  const kit = kitWith((_o, ctx) => { signal = ctx.signal; return { InternalOrderId: 'ok' }; });
  const res = await kit.handle('sendOrderToMerchant', post('GE-SIG-3'));
  expect(res.status).toBe(200);
  await sleep(100);
  expect(signal!.aborted).toBe(false);
});

test('each delivery has its own signal: timing out one does not abort another', async () => {
  const signals = new Map<string, AbortSignal>();
  const kit = kitWith(async (o, ctx) => {
    const id = (o as { OrderId: string }).OrderId;
    signals.set(id, ctx.signal);
    if (id === 'GE-SLOW') await sleep(120);
    return { InternalOrderId: id };
  });
  const [slow, fast] = await Promise.all([kit.handle('sendOrderToMerchant', post('GE-SLOW')), kit.handle('sendOrderToMerchant', post('GE-FAST'))]);
  expect([slow.status, fast.status]).toEqual([500, 200]);
  expect(signals.get('GE-SLOW')).not.toBe(signals.get('GE-FAST'));
  expect(signals.get('GE-SLOW')!.aborted).toBe(true);
  expect(signals.get('GE-FAST')!.aborted).toBe(false);
  await sleep(150);
});

test('the context keeps its fields; signal is one getter shared by every context (no per-delivery property)', async () => {
  const contexts: CallbackContext[] = [];
  const kit = kitWith((_o, ctx) => { contexts.push(ctx); return { InternalOrderId: 'ok' }; });
  await kit.handle('sendOrderToMerchant', post('GE-CTX-1'));
  await kit.handle('sendOrderToMerchant', post('GE-CTX-2'));
  const [a, b] = contexts;
  for (const key of ['callback', 'requestId', 'log', 'headers', 'remoteAddress', 'auth', 'idempotencyKey', 'attempt', 'specDeviations']) {
    expect(Object.prototype.hasOwnProperty.call(a, key)).toBe(true);
  }
  expect(a.callback).toBe('sendOrderToMerchant');
  expect(a.requestId).not.toBe(b.requestId);
  expect('signal' in a).toBe(true);
  expect(Object.getOwnPropertyDescriptor(a, 'signal')).toBeUndefined();
  expect(Object.getPrototypeOf(a)).toBe(Object.getPrototypeOf(b));
  expect(a.signal).toBeInstanceOf(AbortSignal);
  expect(() => JSON.stringify(a)).not.toThrow();
});

test('a signal assigned by the adapter replaces the kit\'s, as on a plain context', async () => {
  const own = new AbortController().signal;
  let seen: AbortSignal | undefined;
  const kit = kitWith((_o, ctx) => { ctx.signal = own; seen = ctx.signal; return { InternalOrderId: 'ok' }; });
  expect((await kit.handle('sendOrderToMerchant', post('GE-SIG-OWN'))).status).toBe(200);
  expect(seen).toBe(own);
});
