/**
 * The life of an attempt (issue 9, items 1–5), run against every store: the OrderId lock is held
 * until the adapter settles and its success is stored; the next attempt learns how the previous one
 * ended (`context.attempt`, `context.previousAttempt`); a success whose save fails is kept and its
 * save retried; numeric amounts; holds placed from a payment replay.
 */
import type { Store, StoreLock } from 'crossborder-merchant-kit/store';
import { documentsDelivery, order, paymentOrder } from '../helpers/orders.js';
import type { StoreFactory, StoreHarness } from '../store/harness.js';
import { kitWith, sleep } from './harness.js';

const PAID = { InternalOrderId: 'A-1', PaymentAmount: '10.00', PaymentCurrencyCode: 'EUR' };

/**
 * A store whose saves fail while `failing()` is true (a PostgreSQL outage right after the adapter):
 * saveRecord, and a lock's combined saveAndRelease (PostgresStore; from acquire or claimOrReplay), which then changes nothing.
 */
function flakySaves(store: Store, failing: () => boolean): Store {
  const flakyLock = (lock: StoreLock | null): StoreLock | null => {
    if (!lock?.saveAndRelease) return lock;
    const saveAndRelease = lock.saveAndRelease.bind(lock);
    return Object.assign(Object.create(lock), {
      recovered: lock.recovered, prefetched: lock.prefetched, release: lock.release.bind(lock),
      saveAndRelease: async (...a: Parameters<typeof saveAndRelease>) => {
        if (failing()) throw new Error('connection terminated');
        return saveAndRelease(...a);
      },
    });
  };
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'saveRecord') {
        return async (...args: Parameters<Store['saveRecord']>) => {
          if (failing()) throw new Error('connection terminated');
          return target.saveRecord(...args);
        };
      }
      if (prop === 'acquire') {
        return async (...args: Parameters<Store['acquire']>) => flakyLock(await target.acquire(...args));
      }
      if (prop === 'claimOrReplay' && target.claimOrReplay) {
        return async (...args: Parameters<NonNullable<Store['claimOrReplay']>>) => {
          const claim = await target.claimOrReplay!(...args);
          return claim?.lock ? { lock: flakyLock(claim.lock) } : claim;
        };
      }
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

export function attemptBehaviour(factory: StoreFactory): void {
  let h: StoreHarness;
  beforeEach(async () => { h = await factory(); });

  test('a timed-out payment keeps the OrderId lock until the adapter settles; its late success is stored and replayed', async () => {
    let inside = 0;
    let maxInside = 0;
    let charges = 0;
    const t = kitWith(h.store, {
      performOrderPayment: async () => {
        inside++;
        maxInside = Math.max(maxInside, inside);
        await sleep(500); // ignores context.signal
        inside--;
        charges++;
        return PAID;
      },
    }, { adapterTimeoutMs: 150 });
    const first = await t.deliver('performOrderPayment', paymentOrder());
    expect(first.status).toBe(500);
    await sleep(20);
    const retry = await t.deliver('performOrderPayment', paymentOrder());
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ Success: true, ...PAID });
    expect(retry.headers['idempotency-replayed']).toBe('true');
    expect(charges).toBe(1);
    expect(maxInside).toBe(1);
    expect(t.calls('performOrderPayment')).toHaveLength(1);
  });

  test('while a timed-out adapter still runs, a duplicate waits inFlightWaitMs and gets 503 IN_FLIGHT (never a second call)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const t = kitWith(h.store, { performOrderPayment: async () => { await gate; return PAID; } }, { adapterTimeoutMs: 50, inFlightWaitMs: 100 });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(500);
    const busy = await t.deliver('performOrderPayment', paymentOrder());
    expect(busy.status).toBe(503);
    expect(busy.body).toMatchObject({ ErrorCode: 'IN_FLIGHT' });
    expect(t.calls('performOrderPayment')).toHaveLength(1);
    release();
    await sleep(100);
    const after = await t.deliver('performOrderPayment', paymentOrder());
    expect(after.body).toEqual({ Success: true, ...PAID });
    expect(t.calls('performOrderPayment')).toHaveLength(1);
  });

  test('attempts are counted per idempotency key; a clean failure leaves no previousAttempt', async () => {
    let n = 0;
    const t = kitWith(h.store, {
      performOrderPayment: () => {
        n++;
        if (n === 1) return { Success: false, Message: 'Declined' };
        if (n === 2) throw new Error('provider said no');
        return PAID;
      },
    });
    for (let i = 0; i < 3; i++) await t.deliver('performOrderPayment', paymentOrder());
    const calls = t.calls('performOrderPayment');
    expect(calls.map((c) => c.context.attempt)).toEqual([1, 2, 3]);
    expect(calls.map((c) => c.context.previousAttempt)).toEqual([undefined, undefined, undefined]);
    expect(new Set(calls.map((c) => c.context.idempotencyKey)).size).toBe(1);
  });

  test("an attempt that never ended (the process died) is reported as 'crashed' to the next one, with the same key", async () => {
    const t = kitWith(h.store, { performOrderPayment: () => { throw new Error('first try fails cleanly'); } });
    await t.deliver('performOrderPayment', paymentOrder());
    const key = t.calls('performOrderPayment')[0].context.idempotencyKey as string;
    // Another process began an attempt and died before it ended.
    const before = Date.now();
    await h.twin().beginAttempt(key, 'GE1001CH');
    const t2 = kitWith(h.store);
    expect((await t2.deliver('performOrderPayment', paymentOrder())).status).toBe(200);
    const ctx = t2.calls('performOrderPayment')[0].context;
    expect(ctx.idempotencyKey).toBe(key);
    expect(ctx.attempt).toBe(3);
    expect(ctx.previousAttempt.outcome).toBe('crashed');
    expect(ctx.previousAttempt.startedAt).toBeInstanceOf(Date);
    expect(ctx.previousAttempt.startedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  test("an adapter that never settles holds the lock only to the lease's bound; the next attempt is told 'timeout'", async () => {
    let n = 0;
    const t = kitWith(h.store, {
      performOrderPayment: () => (++n === 1 ? new Promise(() => {}) : PAID),
    }, { adapterTimeoutMs: 50, leaseMs: 500, inFlightWaitMs: 3000 });
    const started = Date.now();
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(500);
    const retry = await t.deliver('performOrderPayment', paymentOrder());
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(retry.status).toBe(200);
    const second = t.calls('performOrderPayment')[1].context;
    expect(second.attempt).toBe(2);
    expect(second.previousAttempt.outcome).toBe('timeout');
  });

  test("an invalid adapter result is 500 and the next attempt is told 'invalid-result'", async () => {
    let n = 0;
    const t = kitWith(h.store, { performOrderPayment: () => (++n === 1 ? { PaymentAmount: { value: 10 }, PaymentCurrencyCode: 'EUR' } : PAID) });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(500);
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(200);
    const second = t.calls('performOrderPayment')[1].context;
    expect(second.attempt).toBe(2);
    expect(second.previousAttempt).toMatchObject({ outcome: 'invalid-result' });
  });

  test('a numeric PaymentAmount is accepted as its exact decimal text, stored and replayed (one charge)', async () => {
    const t = kitWith(h.store, { performOrderPayment: () => ({ InternalOrderId: 'A-1', PaymentAmount: 12.5, PaymentCurrencyCode: 'EUR' }) });
    const first = await t.deliver('performOrderPayment', paymentOrder());
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ Success: true, InternalOrderId: 'A-1', PaymentAmount: '12.5', PaymentCurrencyCode: 'EUR' });
    const again = await t.deliver('performOrderPayment', paymentOrder());
    expect(again.body).toEqual(first.body);
    expect(t.calls('performOrderPayment')).toHaveLength(1);
  });

  test('a success whose save fails keeps the lock: redeliveries never reach the adapter, and the save lands when the store recovers', async () => {
    let down = true;
    const store = flakySaves(h.store, () => down);
    const t = kitWith(store, {}, { inFlightWaitMs: 100 });
    const first = await t.deliver('performOrderPayment', paymentOrder());
    expect(first.status).toBe(200);
    // Same process: answered from the reply kept in memory.
    const sameProcess = await t.deliver('performOrderPayment', paymentOrder());
    expect(sameProcess.body).toEqual(first.body);
    // Another process: the lock is still held, so it waits and gets IN_FLIGHT.
    const other = kitWith(flakySaves(h.twin(), () => down), {}, { inFlightWaitMs: 100 });
    expect((await other.deliver('performOrderPayment', paymentOrder())).status).toBe(503);
    down = false;
    await sleep(400);
    const later = kitWith(h.twin());
    const replay = await later.deliver('performOrderPayment', paymentOrder());
    expect(replay.body).toEqual(first.body);
    expect(replay.headers['idempotency-replayed']).toBe('true');
    expect(t.calls('performOrderPayment')).toHaveLength(1);
    expect(other.calls('performOrderPayment')).toHaveLength(0);
    expect(later.calls('performOrderPayment')).toHaveLength(0);
  });

  test("a save that never lands is retried until the lock's bound; the next attempt is told 'unsaved'", async () => {
    let down = true;
    const t = kitWith(flakySaves(h.store, () => down), {}, { leaseMs: 600, adapterTimeoutMs: 300, inFlightWaitMs: 3000 });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(200);
    await sleep(700);
    down = false;
    const t2 = kitWith(h.store);
    expect((await t2.deliver('performOrderPayment', paymentOrder())).status).toBe(200);
    const ctx = t2.calls('performOrderPayment')[0].context;
    expect(ctx.attempt).toBe(2);
    expect(ctx.previousAttempt.outcome).toBe('unsaved');
    expect(t.log.lines.filter((l) => /still failing to keep/.test(l.msg ?? '')).length).toBeGreaterThan(1);
  });

  test('SendOrderToMerchant announcing documents, answered from an earlier payment, still places the fulfilment hold', async () => {
    const t = kitWith(h.store);
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(200);
    const withDocs = paymentOrder({
      AdditionalRequiredDocuments: [{ DocumentTypeCode: '11', DocumentTypeName: 'EAD', DocumentExtension: 'PDF', URL: '', TrackingNumber: 'TRK-1' }],
    });
    const res = await t.deliver('sendOrderToMerchant', withDocs);
    expect(res.status).toBe(200);
    expect(res.headers['idempotency-replayed']).toBe('true');
    expect(t.calls('sendOrderToMerchant')).toHaveLength(0);
    expect(await h.store.getFulfilmentHold('GE1001CH')).toMatchObject({ awaiting: [{ DocumentTypeCode: '11', TrackingNumber: 'TRK-1' }] });
  });

  test('an order without payment still gets attempt 1 and its idempotency key', async () => {
    const t = kitWith(h.store);
    await t.deliver('sendOrderToMerchant', order());
    expect(t.calls('sendOrderToMerchant')[0].context.attempt).toBe(1);
  });

  test('document type names ("EAD", "Label") are accepted for codes in the order and the webhook, and match their numbers', async () => {
    const t = kitWith(h.store, { receiveAdditionalRequiredDocuments: () => undefined });
    const doc = (code: string, extra: Record<string, unknown>) => ({ DocumentTypeCode: code, DocumentTypeName: 'x', DocumentExtension: 'PDF', URL: '', ...extra });
    const placed = await t.deliver('sendOrderToMerchant', order({ AdditionalRequiredDocuments: [doc('EAD', { TrackingNumber: 'T1' }), doc('4', { ParcelCode: 'P1' })] }));
    expect(placed.status).toBe(200);
    expect(t.calls('sendOrderToMerchant')[0].context.fulfilmentHold.awaiting).toEqual([{ DocumentTypeCode: '11', TrackingNumber: 'T1' }, { DocumentTypeCode: '4', ParcelCode: 'P1' }]);
    const pdf = Buffer.from('%PDF-1.4 x').toString('base64');
    const docs = await t.deliver('receiveAdditionalRequiredDocuments', documentsDelivery({
      Documents: [{ ...doc('11', { TrackingNumber: 'T1' }), DocumentData: pdf }, { ...doc('Label', { ParcelCode: 'P1' }), DocumentData: pdf }],
    }));
    expect(docs.status).toBe(200);
    expect(await h.store.getFulfilmentHold('GE1001CH')).toBeNull();
  });

  test('the longest OrderId allowed (200 characters, multi-byte) and NUL-free replies fit the store; one more character is a 400', async () => {
    const t = kitWith(h.store, { performOrderPayment: () => ({ ...PAID, StatusCode: 'ok \u0000 nul in a reply text' }) });
    const longest = '€'.repeat(200);
    const first = await t.deliver('performOrderPayment', paymentOrder({ OrderId: longest }));
    expect(first.status).toBe(200);
    const again = await t.deliver('performOrderPayment', paymentOrder({ OrderId: longest }));
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await t.deliver('performOrderPayment', paymentOrder({ OrderId: `${longest}€` }))).status).toBe(400);
    expect(t.calls('performOrderPayment')).toHaveLength(1);
  });

  test('merchant order ids of any length or content are kept under a key that fits', async () => {
    const long = `INT-${'x'.repeat(5_000)}`;
    const odd = 'INT-\u0000-\ud800';
    await h.store.saveMerchantOrderIds('GE1001CH', [long, odd]);
    expect(await h.twin().findOrderId(long)).toBe('GE1001CH');
    expect(await h.twin().findOrderId(odd)).toBe('GE1001CH');
  });

  test('documents accepted by the adapter after its time-out are counted: the hold is released and the retry replayed', async () => {
    const t = kitWith(h.store, { receiveAdditionalRequiredDocuments: async () => { await sleep(250); } }, { adapterTimeoutMs: 100 });
    const doc = { DocumentTypeCode: '11', DocumentTypeName: 'EAD', DocumentExtension: 'PDF', URL: '', TrackingNumber: 'TRK123' };
    expect((await t.deliver('sendOrderToMerchant', order({ AdditionalRequiredDocuments: [doc] }))).status).toBe(200);
    expect(await h.store.getFulfilmentHold('GE1001CH')).not.toBeNull();
    expect((await t.deliver('receiveAdditionalRequiredDocuments', documentsDelivery())).status).toBe(500);
    const retry = await t.deliver('receiveAdditionalRequiredDocuments', documentsDelivery());
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotency-replayed']).toBe('true');
    expect(t.calls('receiveAdditionalRequiredDocuments')).toHaveLength(1);
    expect(await h.store.getFulfilmentHold('GE1001CH')).toBeNull();
  });
}
