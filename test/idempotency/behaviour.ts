/**
 * Exactly-once behaviour of the kit, run against every store (memory.test.ts, postgres.pg.test.ts).
 */
import { CallbackError } from 'crossborder-merchant-kit';
import { CARD_NUMBER, order, paymentDetails, paymentOrder, statusUpdate } from '../helpers/orders.js';
import type { StoreFactory, StoreHarness } from '../store/harness.js';
import { kitWith, sleep } from './harness.js';

const payment = (overrides: Record<string, unknown> = {}) => paymentOrder(overrides);

/** `coreOnly`: the store has the required core only; tests of what a capability adds are left out (test/store/minimal-store.test.ts has what it does instead). */
export function idempotencyBehaviour(factory: StoreFactory, { coreOnly = false } = {}): void {
  let h: StoreHarness;
  beforeEach(async () => { h = await factory(); });

  test('a redelivery gets the stored reply without calling the adapter', async () => {
    let n = 0;
    const t = kitWith(h.store, { sendOrderToMerchant: () => ({ InternalOrderId: `INT-${++n}`, OrderId: '1001' }) });
    const first = await t.deliver('sendOrderToMerchant', order());
    const again = await t.deliver('sendOrderToMerchant', order());
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(JSON.stringify(again.body)).toBe('{"Success":true,"InternalOrderId":"INT-1","OrderId":"1001"}');
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(t.calls('sendOrderToMerchant')).toHaveLength(1);
    expect(t.log.summaries().map((l) => l.obj.outcome)).toEqual(['success', 'replayed']);
  });

  test('the same payload with its keys in another order is the same delivery; the envelope form too', async () => {
    const t = kitWith(h.store);
    const o = order();
    await t.deliver('sendOrderToMerchant', o);
    await t.deliver('sendOrderToMerchant', Object.fromEntries(Object.entries(o).reverse()));
    expect(t.calls('sendOrderToMerchant')).toHaveLength(1);
  });

  test('concurrent identical deliveries: one adapter call, identical replies', async () => {
    let n = 0;
    const t = kitWith(h.store, { sendOrderToMerchant: async () => { await sleep(50); return { InternalOrderId: `INT-${++n}` }; } });
    const replies = await Promise.all(Array.from({ length: 25 }, () => t.deliver('sendOrderToMerchant', order())));
    expect(t.calls('sendOrderToMerchant')).toHaveLength(1);
    for (const r of replies) expect(r).toMatchObject({ status: 200, body: { Success: true, InternalOrderId: 'INT-1' } });
  });

  test('context.idempotencyKey is stable across redeliveries and differs for another payload', async () => {
    const t = kitWith(h.store, { sendOrderToMerchant: () => ({ InternalOrderId: 'A' }) }, {});
    await t.deliver('sendOrderToMerchant', order());
    await t.deliver('sendOrderToMerchant', order({ CustomerComments: 'gift' }));
    const [a, b] = t.calls('sendOrderToMerchant').map((c) => c.context.idempotencyKey);
    expect(a).toMatch(/^sendOrderToMerchant:GE1001CH:[0-9a-f]{64}$/);
    expect(b).not.toBe(a);
    const t2 = kitWith((await factory()).store);
    await t2.deliver('sendOrderToMerchant', order());
    expect(t2.calls('sendOrderToMerchant')[0].context.idempotencyKey).toBe(a);
  });

  if (!coreOnly) test('an order update (same OrderId, new payload) calls the adapter with context.previous', async () => {
    let n = 0;
    const t = kitWith(h.store, { sendOrderToMerchant: () => ({ InternalOrderId: `INT-${++n}` }) });
    await t.deliver('sendOrderToMerchant', order());
    const update = await t.deliver('sendOrderToMerchant', order({ CustomerComments: 'leave at the door' }));
    expect(update.body).toEqual({ Success: true, InternalOrderId: 'INT-2' });
    const [first, second] = t.calls('sendOrderToMerchant');
    expect(first.context.previous).toBeUndefined();
    expect(second.context.previous).toEqual({ Success: true, InternalOrderId: 'INT-1' });
    await t.deliver('updateOrderStatus', statusUpdate('canceled'));
    expect(t.calls('updateOrderStatus')[0].context.previous).toEqual({ Success: true, InternalOrderId: 'INT-2' });
  });

  test('calls for one OrderId never run in parallel; other orders do', async () => {
    const running = new Map<string, number>();
    let maxSame = 0;
    let maxAll = 0;
    const track = async (o: any) => {
      running.set(o.OrderId, (running.get(o.OrderId) ?? 0) + 1);
      maxSame = Math.max(maxSame, ...running.values());
      maxAll = Math.max(maxAll, [...running.values()].reduce((a, b) => a + b, 0));
      await sleep(30);
      running.set(o.OrderId, running.get(o.OrderId)! - 1);
      return { InternalOrderId: 'X', PaymentAmount: '1.00', PaymentCurrencyCode: 'EUR' };
    };
    const t = kitWith(h.store, { sendOrderToMerchant: track, updateOrderStatus: track, performOrderPayment: track });
    const replies = await Promise.all([
      t.deliver('sendOrderToMerchant', order()),
      t.deliver('sendOrderToMerchant', order({ CustomerComments: 'v2' })),
      t.deliver('updateOrderStatus', statusUpdate('processing')),
      t.deliver('performOrderPayment', payment()),
      t.deliver('sendOrderToMerchant', order({ OrderId: 'OTHER-1' })),
      t.deliver('sendOrderToMerchant', order({ OrderId: 'OTHER-2' })),
    ]);
    for (const r of replies) expect(r.status).toBe(200);
    expect(maxSame).toBe(1);
    expect(maxAll).toBeGreaterThan(1);
  });

  test('after a successful payment every payment request for the OrderId gets it, whatever its payload', async () => {
    let charges = 0;
    const t = kitWith(h.store, {
      performOrderPayment: () => ({ InternalOrderId: 'A-1', PaymentAmount: `${++charges}0.00`, PaymentCurrencyCode: 'EUR' }),
    });
    const paid = await t.deliver('performOrderPayment', payment());
    const other = await t.deliver('performOrderPayment', payment({ PaymentDetails: paymentDetails({ CardNumber: '5555555555554444' }), CurrencyCode: 'CHF' }));
    const viaOrder = await t.deliver('sendOrderToMerchant', payment({ CustomerComments: 'resent with payment' }));
    expect(paid.body).toEqual({ Success: true, InternalOrderId: 'A-1', PaymentAmount: '10.00', PaymentCurrencyCode: 'EUR' });
    expect(other.body).toEqual(paid.body);
    expect(viaOrder.body).toEqual(paid.body);
    expect(charges).toBe(1);
    expect(t.calls('sendOrderToMerchant')).toHaveLength(0);
    expect(t.log.lines.filter((l) => l.level === 'warn' && /payment already succeeded/.test(l.msg ?? ''))).toHaveLength(2);
    expect(t.log.summaries().map((l) => l.obj.outcome)).toEqual(['success', 'payment_replayed', 'payment_replayed']);
  });

  test('a payment made by SendOrderToMerchant with PaymentDetails counts too; an order without payment does not', async () => {
    const t = kitWith(h.store);
    await t.deliver('sendOrderToMerchant', order());
    await t.deliver('performOrderPayment', payment());
    expect(t.calls('performOrderPayment')).toHaveLength(1);
    const t2 = kitWith((await factory()).store);
    const created = await t2.deliver('sendOrderToMerchant', payment());
    const retry = await t2.deliver('performOrderPayment', payment({ CustomerComments: 'x' }));
    expect(retry.body).toEqual(created.body);
    expect(t2.calls('performOrderPayment')).toHaveLength(0);
  });

  test('a redelivery and a repeated payment are answered while another delivery of the OrderId holds its lock (this process or another)', async () => {
    let unblock!: () => void;
    const gate = new Promise<void>((r) => { unblock = r; });
    let entered!: () => void;
    const inAdapter = new Promise<void>((r) => { entered = r; });
    const t = kitWith(h.store, {
      sendOrderToMerchant: () => ({ InternalOrderId: 'INT-1' }),
      performOrderPayment: () => ({ InternalOrderId: 'A-1', PaymentAmount: '10.00', PaymentCurrencyCode: 'EUR' }),
      updateOrderStatus: async () => { entered(); await gate; },
    }, { inFlightWaitMs: 2_000 });
    await t.deliver('sendOrderToMerchant', order());
    await t.deliver('performOrderPayment', payment());
    let holderDone = false;
    const holder = t.deliver('updateOrderStatus', statusUpdate('processing')).finally(() => { holderDone = true; });
    await inAdapter;
    // Were a replay to wait for the lock, it would get 503 IN_FLIGHT after inFlightWaitMs (the holder never ends by itself).
    for (const k of [t, kitWith(h.twin(), {}, { inFlightWaitMs: 2_000 })]) {
      const again = await k.deliver('sendOrderToMerchant', order());
      expect(again).toMatchObject({ status: 200, body: { Success: true, InternalOrderId: 'INT-1' } });
      expect(again.headers['idempotency-replayed']).toBe('true');
      const paid = await k.deliver('performOrderPayment', payment({ CurrencyCode: 'CHF' }));
      expect(paid).toMatchObject({ status: 200, body: { InternalOrderId: 'A-1', PaymentAmount: '10.00' } });
      expect(paid.headers['idempotency-replayed']).toBe('true');
    }
    expect(holderDone).toBe(false);
    unblock();
    expect((await holder).status).toBe(200);
    expect(t.calls('sendOrderToMerchant')).toHaveLength(1);
    expect(t.calls('performOrderPayment')).toHaveLength(1);
  });

  test('declines and failures are not stored: a retry runs again', async () => {
    let attempt = 0;
    const t = kitWith(h.store, {
      performOrderPayment: () => {
        attempt++;
        if (attempt === 1) throw new CallbackError('Card declined', { errorCode: 'DECLINED' });
        if (attempt === 2) return { Success: false, Message: 'Insufficient funds' };
        if (attempt === 3) throw new Error('provider timeout');
        return { PaymentAmount: '10.00', PaymentCurrencyCode: 'EUR' };
      },
    });
    const replies = [];
    for (let i = 0; i < 5; i++) replies.push(await t.deliver('performOrderPayment', payment()));
    expect(replies.map((r) => r.status)).toEqual([400, 400, 500, 200, 200]);
    expect(replies[4].body).toEqual(replies[3].body);
    expect(attempt).toBe(4);
  });

  test('past inFlightWaitMs a delivery gets a retryable 503; the retry then gets the reply', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const t = kitWith(h.store, { sendOrderToMerchant: async () => { await gate; return { InternalOrderId: 'SLOW' }; } }, { inFlightWaitMs: 150 });
    const slow = t.deliver('sendOrderToMerchant', order());
    await sleep(30);
    const busy = await t.deliver('sendOrderToMerchant', order());
    expect(busy.status).toBe(503);
    expect(busy.headers['retry-after']).toBe('5');
    expect(busy.body).toMatchObject({ Success: false, ErrorCode: 'IN_FLIGHT' });
    release();
    expect((await slow).status).toBe(200);
    const retry = await t.deliver('sendOrderToMerchant', order());
    expect(retry.body).toEqual({ Success: true, InternalOrderId: 'SLOW' });
    expect(t.calls('sendOrderToMerchant')).toHaveLength(1);
  });

  test('a crashed delivery (in-progress, never stored) blocks a retry only until its lease expires', async () => {
    const crashed = await h.twin().acquire('GE1001CH', { waitMs: 1000, leaseMs: 300 });
    expect(crashed).not.toBeNull();
    const t = kitWith(h.store, {}, { inFlightWaitMs: 5000 });
    const res = await t.deliver('sendOrderToMerchant', order());
    expect(res.status).toBe(200);
    expect(t.calls('sendOrderToMerchant')).toHaveLength(1);
    expect(t.log.lines.some((l) => l.level === 'warn' && /lease of an in-progress delivery/.test(l.msg ?? ''))).toBe(true);
  });

  test('cart-info is a read: never deduplicated', async () => {
    const t = kitWith(h.store);
    const get = () => t.kit.handle('getCheckoutCartInfo', { method: 'GET', path: '/', headers: {}, query: { merchantCartToken: 'c-1' } });
    expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(200);
    expect(t.calls('getCheckoutCartInfo')).toHaveLength(2);
  });

  test('replies expire after the store ttl: a redelivery then runs again', async () => {
    const t = kitWith(h.withTtl(100));
    await t.deliver('updateOrderStatus', statusUpdate('processing'));
    await sleep(200);
    await t.deliver('updateOrderStatus', statusUpdate('processing'));
    expect(t.calls('updateOrderStatus')).toHaveLength(2);
  });

  test('no card number in anything stored, even when an adapter echoes it', async () => {
    const t = kitWith(h.store, {
      performOrderPayment: (o: any) => ({ PaymentAmount: '10.00', PaymentCurrencyCode: 'EUR', Message: `charged ${o.PaymentDetails.CardNumber}` }),
    });
    const res = await t.deliver('performOrderPayment', payment());
    await t.deliver('sendOrderToMerchant', payment({ OrderId: 'GE-2' }));
    expect(JSON.stringify(res.body)).not.toContain(CARD_NUMBER);
    const stored = await h.scan();
    expect(stored.length).toBeGreaterThan(0);
    expect(stored).toContain('GE1001CH');
    expect(stored).not.toContain(CARD_NUMBER);
    expect(stored).not.toMatch(/CardNumber|CVVNumber|Zurich|jane\.doe/);
  });
}
