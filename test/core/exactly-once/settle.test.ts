/**
 * The end of an attempt (lib/core/exactly-once/settle.ts), seen from outside: what a later
 * delivery gets, what the store keeps, and the log line an operator reads when the store fails at the
 * end of an attempt (the reply is still answered, the lock still released or bounded).
 */
import { LeaseLostError, MemoryStore, type AcquireOptions, type NewRecord, type Store, type StoreLock } from 'crossborder-merchant-kit/store';
import { isSuccess } from '../../../lib/core/exactly-once/index.js';
import { BatchingMemoryStore } from '../../idempotency/batching-store.js';
import { documentsDelivery, order, paymentOrder, statusUpdate } from '../../helpers/orders.js';
import type { CapturingLogger } from '../../helpers/recording.js';
import { kitWith, sleep } from '../../idempotency/harness.js';

const PAID = { InternalOrderId: 'A-1', PaymentAmount: '10.00', PaymentCurrencyCode: 'EUR' };

/** `store` with some methods replaced (the others bound to it), as a store failing in one place would be. */
function faulty<S extends Store>(store: S, overrides: Partial<Record<keyof MemoryStore, (...args: any[]) => unknown>>): S {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop in overrides) return overrides[prop as keyof typeof overrides];
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

const broken = (what: string) => async () => { throw new Error(`${what}: connection terminated`); };
const messages = (log: CapturingLogger, level: string) => log.lines.filter((l) => l.level === level).map((l) => l.msg);
/** The error a log line carries (as the kit's logger passes it on: type, message, stack). */
const errorOf = (log: CapturingLogger, msg: string) => log.lines.find((l) => l.msg === msg)?.obj.err?.message;

describe('the merchant order ids of a created order', () => {
  test('SendOrderToMerchant keeps its non-empty InternalOrderId and OrderId for the client; other callbacks keep none', async () => {
    const store = new MemoryStore();
    const t = kitWith(store, {
      sendOrderToMerchant: () => ({ InternalOrderId: 'INT-7', OrderId: '' }),
      updateOrderStatus: () => ({ InternalOrderId: 'INT-9' }),
    });
    expect((await t.deliver('sendOrderToMerchant', order())).status).toBe(200);
    expect(await store.findOrderId('INT-7')).toBe('GE1001CH');
    expect(await store.findOrderId('')).toBeNull();
    expect((await t.deliver('updateOrderStatus', statusUpdate('processing'))).status).toBe(200);
    expect(await store.findOrderId('INT-9')).toBeNull();
    const both = new MemoryStore();
    await kitWith(both, { sendOrderToMerchant: () => ({ InternalOrderId: 'INT-8', OrderId: 'M-8' }) }).deliver('sendOrderToMerchant', order());
    expect([await both.findOrderId('INT-8'), await both.findOrderId('M-8')]).toEqual(['GE1001CH', 'GE1001CH']);
  });

  test('the store is given only the string ids: an order created without an OrderId hands over its InternalOrderId alone', async () => {
    const given: unknown[] = [];
    const store = new MemoryStore();
    const t = kitWith(faulty(store, { saveMerchantOrderIds: async (...a: unknown[]) => { given.push(a); } }), { sendOrderToMerchant: () => ({ InternalOrderId: 'INT-7' }) });
    await t.deliver('sendOrderToMerchant', order());
    expect(given).toStrictEqual([['GE1001CH', ['INT-7']]]);
  });

  test('a store failing to keep them: the order is still answered and stored, the failure logged; a callback with none never asks', async () => {
    const store = faulty(new MemoryStore(), { saveMerchantOrderIds: broken('saveMerchantOrderIds') });
    const t = kitWith(store, { sendOrderToMerchant: () => ({ InternalOrderId: 'INT-7' }) });
    expect((await t.deliver('updateOrderStatus', statusUpdate('processing'))).status).toBe(200);
    expect(messages(t.log, 'error')).toEqual([]);
    const res = await t.deliver('sendOrderToMerchant', order());
    expect(res).toMatchObject({ status: 200, body: { Success: true, InternalOrderId: 'INT-7' } });
    expect(messages(t.log, 'error')).toEqual(['store failed to keep the merchant order ids of an order']);
    expect(errorOf(t.log, 'store failed to keep the merchant order ids of an order')).toBe('saveMerchantOrderIds: connection terminated');
    expect((await t.deliver('sendOrderToMerchant', order())).headers['idempotency-replayed']).toBe('true');
  });
});

describe('a store failing at the end of an attempt', () => {
  test('recording how an attempt ended fails: the reply stands, the failure is logged with the outcome', async () => {
    let n = 0;
    const t = kitWith(faulty(new MemoryStore(), { endAttempt: broken('endAttempt') }), {
      performOrderPayment: () => (++n === 1 ? { PaymentAmount: { value: 10 }, PaymentCurrencyCode: 'EUR' } : { Success: false, Message: 'Declined' }),
    });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(500);
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(400);
    const failed = t.log.lines.filter((l) => l.msg === 'idempotency store failed to record how an attempt ended');
    expect(failed.map((l) => [l.level, l.obj.outcome, l.obj.err?.message])).toEqual([
      ['error', 'invalid-result', 'endAttempt: connection terminated'], ['error', null, 'endAttempt: connection terminated']]);
  });

  test('releasing the OrderId lock fails: the reply stands and the failure is logged', async () => {
    const store = new MemoryStore();
    const failingRelease = faulty(store, {
      acquire: async (...a: Parameters<MemoryStore['acquire']>) => {
        const lock = await store.acquire(...a);
        return lock && { recovered: lock.recovered, release: async () => { await lock.release(); throw new Error('release: connection terminated'); } } satisfies StoreLock;
      },
    });
    const t = kitWith(failingRelease, { updateOrderStatus: () => ({ Success: false, Message: 'unknown order' }) });
    expect((await t.deliver('performOrderPayment', paymentOrder())).body).toEqual({ Success: true, ...{ InternalOrderId: 'A-1', PaymentAmount: '129.90', PaymentCurrencyCode: 'EUR' } });
    expect((await t.deliver('updateOrderStatus', statusUpdate('processing'))).status).toBe(400);
    expect(messages(t.log, 'error')).toEqual([
      'idempotency store failed to release an OrderId lock (its lease will expire)',
      'idempotency store failed to release an OrderId lock (its lease will expire)',
    ]);
    expect(errorOf(t.log, 'idempotency store failed to release an OrderId lock (its lease will expire)')).toBe('release: connection terminated');
  });
});

describe('a success whose save fails', () => {
  test('is logged, kept and retried: once stored, its attempt ends cleanly and the merchant ids are kept', async () => {
    let down = true;
    const store = new MemoryStore();
    const t = kitWith(faulty(store, { saveRecord: async (r: any) => { if (down) throw new Error('connection terminated'); return store.saveRecord(r); } }),
      { sendOrderToMerchant: () => ({ InternalOrderId: 'INT-5' }) });
    expect((await t.deliver('sendOrderToMerchant', order())).status).toBe(200);
    expect(messages(t.log, 'error')).toEqual(['idempotency store failed to keep a successful reply; keeping the OrderId lock and retrying']);
    expect(errorOf(t.log, 'idempotency store failed to keep a successful reply; keeping the OrderId lock and retrying')).toBe('connection terminated');
    down = false;
    await sleep(300);
    expect(t.log.lines.filter((l) => l.level === 'info').map((l) => l.msg)).toContain('a successful reply that could not be stored at first is now stored');
    expect(await store.findOrderId('INT-5')).toBe('GE1001CH');
    // The attempt ended cleanly: a changed order (same OrderId, other key) is not told of an unfinished one, and its lock is free.
    const key = t.calls('sendOrderToMerchant')[0].context.idempotencyKey as string;
    expect((await store.beginAttempt(key, 'GE1001CH')).previousAttempt).toBeUndefined();
  });

  test('given up at the lock\'s bound: logged, and this process forgets the kept reply (the next delivery runs again, told "unsaved")', async () => {
    let down = true;
    const store = new MemoryStore();
    const t = kitWith(faulty(store, { saveRecord: async (r: any) => { if (down) throw new Error('connection terminated'); return store.saveRecord(r); } }),
      {}, { leaseMs: 400, adapterTimeoutMs: 200, inFlightWaitMs: 3000 });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(200);
    // While it is kept: a payment request with another payload, in this process, gets the kept payment.
    const other = await t.deliver('performOrderPayment', paymentOrder({ CurrencyCode: 'CHF' }));
    expect(other).toMatchObject({ status: 200, body: { Success: true, InternalOrderId: 'A-1' } });
    expect(other.headers['idempotency-replayed']).toBe('true');
    await sleep(500);
    expect(messages(t.log, 'error')).toContain('gave up storing a successful reply (the OrderId lock reached its bound); the next attempt is told previousAttempt.outcome = unsaved');
    down = false;
    const again = await t.deliver('performOrderPayment', paymentOrder());
    expect(again.headers['idempotency-replayed']).toBeUndefined();
    expect(t.calls('performOrderPayment').map((c) => c.context.previousAttempt?.outcome)).toEqual([undefined, 'unsaved']);
    const otherAgain = await kitWith(store).deliver('performOrderPayment', paymentOrder({ CurrencyCode: 'CHF' }));
    expect(otherAgain.headers['idempotency-replayed']).toBe('true');
  });

  test('a payment kept in memory answers a later payment request of the OrderId only while it is kept', async () => {
    let down = true;
    const store = new MemoryStore();
    const t = kitWith(faulty(store, { saveRecord: async (r: any) => { if (down) throw new Error('connection terminated'); return store.saveRecord(r); } }),
      {}, { leaseMs: 400, adapterTimeoutMs: 200, inFlightWaitMs: 3000 });
    await t.deliver('performOrderPayment', paymentOrder());
    await sleep(500);
    down = false;
    // Given up: the payment request with another payload reaches the adapter (the charge was never stored).
    const other = await t.deliver('performOrderPayment', paymentOrder({ CurrencyCode: 'CHF' }));
    expect(other.headers['idempotency-replayed']).toBeUndefined();
    expect(t.calls('performOrderPayment')).toHaveLength(2);
  });
  test('an order reply kept in memory is no payment: a payment request for the OrderId waits for the lock, it is not answered "paid"', async () => {
    const store = new MemoryStore();
    const t = kitWith(faulty(store, { saveRecord: broken('saveRecord') }), {}, { inFlightWaitMs: 100 });
    expect((await t.deliver('sendOrderToMerchant', order())).status).toBe(200);
    const pay = await t.deliver('performOrderPayment', paymentOrder());
    expect(pay).toMatchObject({ status: 503, body: { ErrorCode: 'IN_FLIGHT' } });
    expect(pay.headers['idempotency-replayed']).toBeUndefined();
  });

  test('its save is retried with back-off: a few tries before the lock\'s bound, not a storm', async () => {
    let tries = 0;
    const store = new MemoryStore();
    const t = kitWith(faulty(store, { saveRecord: async () => { tries++; throw new Error('connection terminated'); } }),
      {}, { leaseMs: 2_000, adapterTimeoutMs: 200, inFlightWaitMs: 5_000 });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(200);
    // The lock is released when the kit gives up (at 1.8 s: tries after 50, 150, 350, 750, 1550 ms at most).
    expect((await kitWith(store).deliver('updateOrderStatus', statusUpdate('processing'))).status).toBe(200);
    expect(tries - 1).toBeGreaterThanOrEqual(2);
    expect(tries - 1).toBeLessThanOrEqual(5);
    const retries = t.log.lines.filter((l) => l.msg === 'idempotency store still failing to keep a successful reply');
    expect(retries.map((l) => [l.level, l.obj.err?.message])).toEqual(Array(tries - 1).fill(['warn', 'connection terminated']));
  });
});

describe('an adapter that timed out', () => {
  test('and then declines: the lock is released at once and the next delivery runs, told "timeout"', async () => {
    let n = 0;
    const t = kitWith(new MemoryStore(), {
      performOrderPayment: async () => (++n === 1 ? (await sleep(150), { Success: false, Message: 'Declined' }) : PAID),
    }, { adapterTimeoutMs: 50, leaseMs: 20_000, inFlightWaitMs: 5_000 });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(500);
    await sleep(200);
    const started = Date.now();
    const retry = await t.deliver('performOrderPayment', paymentOrder());
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(retry.body).toEqual({ Success: true, ...PAID });
    expect(t.calls('performOrderPayment')[1].context.previousAttempt.outcome).toBe('timeout');
    expect(messages(t.log, 'warn')).not.toContain('adapter succeeded after its time-out; its reply is stored and replayed to later deliveries');
  });

  test('and then fails: the lock is released at once and the next delivery is told "timeout"', async () => {
    let n = 0;
    const t = kitWith(new MemoryStore(), {
      performOrderPayment: async () => { if (++n === 1) { await sleep(150); throw new Error('provider down'); } return PAID; },
    }, { adapterTimeoutMs: 50, leaseMs: 20_000, inFlightWaitMs: 5_000 });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(500);
    await sleep(200);
    const retry = await t.deliver('performOrderPayment', paymentOrder());
    expect(retry.status).toBe(200);
    expect(t.calls('performOrderPayment')[1].context.previousAttempt.outcome).toBe('timeout');
  });

  test('and then succeeds: logged, stored and replayed; the lock is released', async () => {
    const t = kitWith(new MemoryStore(), { performOrderPayment: async () => { await sleep(150); return PAID; } },
      { adapterTimeoutMs: 50, leaseMs: 20_000, inFlightWaitMs: 5_000 });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(500);
    await sleep(200);
    expect(messages(t.log, 'warn')).toContain('adapter succeeded after its time-out; its reply is stored and replayed to later deliveries');
    const retry = await t.deliver('performOrderPayment', paymentOrder());
    expect(retry.headers['idempotency-replayed']).toBe('true');
    // The lock was released: another delivery of the OrderId runs at once.
    const started = Date.now();
    expect((await t.deliver('updateOrderStatus', statusUpdate('processing'))).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  test('and then succeeds while the store is down: the late success is kept and its save retried', async () => {
    let down = true;
    const store = new MemoryStore();
    const t = kitWith(faulty(store, { saveRecord: async (r: any) => { if (down) throw new Error('connection terminated'); return store.saveRecord(r); } }),
      { performOrderPayment: async () => { await sleep(150); return PAID; } }, { adapterTimeoutMs: 50, leaseMs: 20_000, inFlightWaitMs: 5_000 });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(500);
    await sleep(200);
    expect(messages(t.log, 'error')).toContain('idempotency store failed to keep a successful reply; keeping the OrderId lock and retrying');
    const sameProcess = await t.deliver('performOrderPayment', paymentOrder());
    expect(sameProcess.body).toEqual({ Success: true, ...PAID });
    down = false;
    await sleep(300);
    expect((await kitWith(store).deliver('performOrderPayment', paymentOrder())).headers['idempotency-replayed']).toBe('true');
    expect(t.calls('performOrderPayment')).toHaveLength(1);
  });

  test('past the lock\'s bound: logged and released', async () => {
    const t = kitWith(new MemoryStore(), { performOrderPayment: () => new Promise(() => {}) }, { adapterTimeoutMs: 50, leaseMs: 300 });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(500);
    await sleep(400);
    expect(messages(t.log, 'error')).toContain('adapter still running when the OrderId lock reached its bound; releasing it (the next attempt is told previousAttempt.outcome = timeout)');
  });

  test('documents accepted late whose count fails are not stored: logged, and the retry runs the adapter again', async () => {
    let late = true;
    const store = new MemoryStore();
    const t = kitWith(faulty(store, { recordDocuments: async (...a: Parameters<MemoryStore['recordDocuments']>) => { if (late) throw new Error('connection terminated'); return store.recordDocuments(...a); } }),
      { receiveAdditionalRequiredDocuments: async () => { await sleep(150); } }, { adapterTimeoutMs: 50, inFlightWaitMs: 5_000 });
    expect((await t.deliver('receiveAdditionalRequiredDocuments', documentsDelivery())).status).toBe(500);
    await sleep(200);
    expect(messages(t.log, 'error')).toContain('store failed to count the documents of a late success; not storing it, so the retry runs again');
    expect(errorOf(t.log, 'store failed to count the documents of a late success; not storing it, so the retry runs again')).toBe('connection terminated');
    late = false;
    const retry = await t.deliver('receiveAdditionalRequiredDocuments', documentsDelivery());
    expect(retry.headers['idempotency-replayed']).toBeUndefined();
    expect(t.calls('receiveAdditionalRequiredDocuments')).toHaveLength(2);
  });
});

describe('what counts as a success to store (isSuccess)', () => {
  // The pipeline only builds 200 replies with Success: true, and every other reply with Success: false; this guards that
  // invariant should a step ever answer otherwise: only a 200 whose body is an object with Success: true is stored and replayed.
  test.each([
    ['a 200 with Success: true', { status: 200, headers: {}, body: { Success: true } }, true],
    ['a 200 with Success: false', { status: 200, headers: {}, body: { Success: false } }, false],
    ['a 200 with Success: "true"', { status: 200, headers: {}, body: { Success: 'true' } }, false],
    ['a 201 with Success: true', { status: 201, headers: {}, body: { Success: true } }, false],
    ['a 400 with Success: true', { status: 400, headers: {}, body: { Success: true } }, false],
    ['a 200 without a body', { status: 200, headers: {}, body: null }, false],
    ['a 200 with a text body', { status: 200, headers: {}, body: 'Success' }, false],
  ])('%s: %s', (_name, res, stored) => {
    expect(isSuccess(res as never)).toBe(stored);
  });
});

describe('the end of an attempt on a batching store (saveAndRelease)', () => {
  test('a success, on time or late, is stored and the lock released in one step: no retry follows', async () => {
    const store = new BatchingMemoryStore();
    let n = 0;
    const t = kitWith(store, { performOrderPayment: async () => { if (++n === 2) await sleep(150); return PAID; } }, { adapterTimeoutMs: 50, inFlightWaitMs: 5_000 });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(200);
    expect((await t.deliver('performOrderPayment', paymentOrder({ OrderId: 'GE-LATE' }))).status).toBe(500);
    await sleep(300);
    expect(store.used.saveAndRelease).toBe(2);
    expect((await t.deliver('performOrderPayment', paymentOrder({ OrderId: 'GE-LATE' }))).headers['idempotency-replayed']).toBe('true');
    expect(t.log.lines.filter((l) => /now stored|still failing/.test(l.msg ?? ''))).toEqual([]);
  });
});

/**
 * A batching store fencing its saves by the lease, as PostgresStore does: each saveAndRelease does
 * what `saves` says next ('lost': refused, LeaseLostError, after `winner` (another attempt's reply) was
 * stored, if any; 'fail': a store error; 'ok': stored), and counts its tries.
 */
class FencingStore extends BatchingMemoryStore {
  saves: Array<'lost' | 'fail' | 'ok'> = [];
  tries = 0;
  winner?: (key: string) => NewRecord;
  override async acquire(orderId: string, options: AcquireOptions): Promise<StoreLock | null> {
    const lock = await super.acquire(orderId, options);
    if (!lock?.saveAndRelease) return lock;
    const save = lock.saveAndRelease.bind(lock);
    return {
      ...lock,
      saveAndRelease: async (record: NewRecord, ids: readonly string[]) => {
        this.tries++;
        const next = this.saves.shift() ?? 'ok';
        if (next === 'fail') throw new Error('connection terminated');
        if (next === 'lost') {
          if (this.winner) await this.saveRecord(this.winner(record.key));
          throw new LeaseLostError();
        }
        await save(record, ids);
      },
    };
  }
}

describe('a save refused because the lease was lost (a fencing store, e.g. PostgresStore after a stall)', () => {
  const lostLines = (log: CapturingLogger) => log.lines.filter((l) => l.level === 'error' && /lost its lease/.test(l.msg ?? ''));

  test('nothing stored anywhere: 503 STORE_UNAVAILABLE, not its own reply; reported; not retried; the next attempt is told "unsaved"', async () => {
    const store = new FencingStore();
    store.saves = ['lost'];
    const t = kitWith(store, { sendOrderToMerchant: () => ({ InternalOrderId: 'INT-LOST' }) });
    const res = await t.deliver('sendOrderToMerchant', order());
    expect(res).toMatchObject({ status: 503, body: { ErrorCode: 'STORE_UNAVAILABLE' } });
    expect(JSON.stringify(res.body)).not.toContain('INT-LOST');
    expect(t.log.lines.filter((l) => l.msg === 'callback refused').map((l) => l.obj.reason)).toEqual(['idempotency store failed']);
    expect(lostLines(t.log).map((l) => [l.msg, l.obj])).toEqual([[
      'this attempt lost its lease before its reply was stored (it stalled past leaseMs); its reply is not stored nor sent (503): the next attempt is told previousAttempt.outcome = unsaved',
      expect.objectContaining({ internalOrderId: 'INT-LOST', storedInternalOrderId: null })]]);
    await sleep(100);
    expect(store.tries).toBe(1);
    expect(await store.findOrderId('INT-LOST')).toBeNull();
    // The lock was released, and the next delivery runs told what happened.
    const again = await t.deliver('sendOrderToMerchant', order());
    expect(again).toMatchObject({ status: 200, body: { InternalOrderId: 'INT-LOST' } });
    expect(t.calls('sendOrderToMerchant').map((c) => [c.context.attempt, c.context.previousAttempt?.outcome])).toEqual([[1, undefined], [2, 'unsaved']]);
  });

  test('another attempt took over and stored its reply: the delivery is answered with that reply; both ids are reported', async () => {
    const store = new FencingStore();
    store.saves = ['lost'];
    store.winner = (key) => ({ key, callback: 'sendOrderToMerchant', orderId: 'GE1001CH', hash: 'h', payment: false, response: { Success: true, InternalOrderId: 'INT-WINNER' } });
    const t = kitWith(store, { sendOrderToMerchant: () => ({ InternalOrderId: 'INT-LOSER' }) });
    const res = await t.deliver('sendOrderToMerchant', order());
    expect(res).toMatchObject({ status: 200, body: { Success: true, InternalOrderId: 'INT-WINNER' } });
    expect(res.headers['idempotency-replayed']).toBe('true');
    expect(t.log.lines.find((l) => l.msg === 'callback handled')?.obj).toMatchObject({ outcome: 'replayed', status: 200 });
    const [line] = lostLines(t.log);
    expect(line.obj).toMatchObject({ internalOrderId: 'INT-LOSER', storedInternalOrderId: 'INT-WINNER' });
    expect(line.msg).toMatch(/another attempt took over and its reply is the order's; this attempt's reply is not stored nor sent: undo what it did/);
    // Its attempt was not marked 'unsaved' over the winner's (this fake winner left the attempt as it found it: running).
    const key = t.calls('sendOrderToMerchant')[0].context.idempotencyKey as string;
    expect((await store.beginAttempt(key, 'GE1001CH')).previousAttempt?.outcome).toBe('crashed');
    expect((await t.deliver('sendOrderToMerchant', order())).body).toMatchObject({ InternalOrderId: 'INT-WINNER' });
  });

  test('its own reply turns out stored (the save committed though its answer was lost): answered as stored, nothing reported', async () => {
    const store = new FencingStore();
    store.saves = ['lost'];
    store.winner = (key) => ({ key, callback: 'sendOrderToMerchant', orderId: 'GE1001CH', hash: 'h', payment: false, response: { Success: true, InternalOrderId: 'INT-MINE' } });
    const t = kitWith(store, { sendOrderToMerchant: () => ({ InternalOrderId: 'INT-MINE' }) });
    expect(await t.deliver('sendOrderToMerchant', order())).toMatchObject({ status: 200, body: { InternalOrderId: 'INT-MINE' } });
    expect(lostLines(t.log)).toEqual([]);
  });

  test('a save failing at first, then refused while retried: retried through the lock (fenced), then reported and given up at once', async () => {
    const store = new FencingStore();
    store.saves = ['fail', 'lost'];
    const t = kitWith(store, { sendOrderToMerchant: () => ({ InternalOrderId: 'INT-R' }) }, { leaseMs: 3000, adapterTimeoutMs: 1000 });
    expect((await t.deliver('sendOrderToMerchant', order())).status).toBe(200); // answered, as a save failing at first always was
    for (let i = 0; i < 40 && lostLines(t.log).length === 0; i++) await sleep(25);
    expect(lostLines(t.log)).toHaveLength(1);
    await sleep(200);
    expect(store.tries).toBe(2); // no try after the refusal
    expect(messages(t.log, 'info')).not.toContain('a successful reply that could not be stored at first is now stored');
    expect(await store.getRecord(t.calls('sendOrderToMerchant')[0].context.idempotencyKey as string)).toBeNull();
  });

  test('the stored reply cannot be read after the refusal: logged with its error, answered as if none were stored (503, nothing sent)', async () => {
    const store = new FencingStore();
    store.saves = ['lost'];
    const getRecord = store.getRecord.bind(store);
    let refused = false;
    store.getRecord = async (key: string) => { if (store.tries > 0 && !refused) { refused = true; throw new Error('connection reset'); } return getRecord(key); };
    const t = kitWith(store, { sendOrderToMerchant: () => ({ InternalOrderId: 'INT-UNREAD' }) });
    const res = await t.deliver('sendOrderToMerchant', order());
    expect(res.status).toBe(503);
    expect(JSON.stringify(res.body)).not.toContain('INT-UNREAD');
    expect(errorOf(t.log, 'idempotency store failed to read the reply of a delivery whose lease was lost')).toBe('connection reset');
    expect(lostLines(t.log)).toHaveLength(1);
  });

  test('a save failing at first, then stored while retried: in one step through the lock (attempt ended, ids kept there, not again); logged as stored, nothing given up', async () => {
    const store = new FencingStore();
    store.saves = ['fail', 'ok'];
    const ends: Array<[string, string | null]> = [];
    const endAttempt = store.endAttempt.bind(store);
    store.endAttempt = async (key: string, outcome: any) => { ends.push([key, outcome]); return endAttempt(key, outcome); };
    let idSaves = 0;
    const saveIds = store.saveMerchantOrderIds.bind(store);
    store.saveMerchantOrderIds = async (...a: Parameters<typeof saveIds>) => { idSaves++; return saveIds(...a); };
    const t = kitWith(store, { sendOrderToMerchant: () => ({ InternalOrderId: 'INT-OK2' }) }, { leaseMs: 3000, adapterTimeoutMs: 1000 });
    expect((await t.deliver('sendOrderToMerchant', order())).status).toBe(200);
    for (let i = 0; i < 40 && !messages(t.log, 'info').includes('a successful reply that could not be stored at first is now stored'); i++) await sleep(25);
    expect(messages(t.log, 'info')).toContain('a successful reply that could not be stored at first is now stored');
    await sleep(100);
    expect(store.tries).toBe(2);
    expect(messages(t.log, 'error').filter((m) => /gave up/.test(m ?? ''))).toEqual([]);
    const key = t.calls('sendOrderToMerchant')[0].context.idempotencyKey as string;
    expect(ends).toEqual([[key, null]]); // by saveAndRelease alone
    expect(idSaves).toBe(1);
    expect(await store.findOrderId('INT-OK2')).toBe('GE1001CH');
    expect((await t.deliver('sendOrderToMerchant', order())).headers['idempotency-replayed']).toBe('true');
  });

  test('a late success whose lease was lost is neither stored nor retried; the lock is released', async () => {
    const store = new FencingStore();
    store.saves = ['lost'];
    let n = 0;
    const t = kitWith(store, { performOrderPayment: async () => { if (++n === 1) await sleep(120); return PAID; } }, { adapterTimeoutMs: 50, inFlightWaitMs: 2000 });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(500);
    for (let i = 0; i < 40 && lostLines(t.log).length === 0; i++) await sleep(25);
    expect(lostLines(t.log)).toHaveLength(1);
    expect(store.tries).toBe(1);
    expect(await t.deliver('performOrderPayment', paymentOrder())).toMatchObject({ status: 200 });
    expect(t.calls('performOrderPayment')).toHaveLength(2);
  });
});

describe('a late result when the store failed to record the time-out', () => {
  test("a late failure records 'timeout' again: the next attempt is told 'timeout', not 'crashed'", async () => {
    let ends = 0;
    const store = new MemoryStore();
    let n = 0;
    const t = kitWith(faulty(store, { endAttempt: async (...a: Parameters<MemoryStore['endAttempt']>) => { if (++ends === 1) throw new Error('connection terminated'); return store.endAttempt(...a); } }),
      { performOrderPayment: async () => { if (++n === 1) { await sleep(150); throw new Error('provider down'); } return PAID; } },
      { adapterTimeoutMs: 50, leaseMs: 20_000, inFlightWaitMs: 5_000 });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(500);
    await sleep(300);
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(200);
    expect(t.calls('performOrderPayment')[1].context.previousAttempt.outcome).toBe('timeout');
  });

  test('a late payment success is stored even when the documents counter fails (only the documents webhook counts documents)', async () => {
    const store = new MemoryStore();
    const t = kitWith(faulty(store, { recordDocuments: broken('recordDocuments') }),
      { performOrderPayment: async () => { await sleep(150); return PAID; } }, { adapterTimeoutMs: 50, leaseMs: 20_000, inFlightWaitMs: 5_000 });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(500);
    await sleep(300);
    const retry = await t.deliver('performOrderPayment', paymentOrder());
    expect(retry.headers['idempotency-replayed']).toBe('true');
    expect(t.calls('performOrderPayment')).toHaveLength(1);
  });
});

describe('issue 47 item 9: the two mutants left unasserted', () => {
  test('a claim answered with an empty stored answer: 503, the error line and the refusal naming the idempotency store', async () => {
    const store = new MemoryStore();
    const t = kitWith(faulty(store, { claimOrReplay: async () => ({ stored: { record: null, payment: null } }) } as never));
    const res = await t.deliver('updateOrderStatus', statusUpdate('processing'));
    expect(res).toMatchObject({ status: 503, body: { ErrorCode: 'STORE_UNAVAILABLE' } });
    expect(messages(t.log, 'error')).toEqual(['idempotency store answered a claim with an empty stored answer']);
    expect(t.log.lines.filter((l) => l.msg === 'callback refused').map((l) => l.obj.reason)).toEqual(['idempotency store failed']);
    expect(t.adapter.calls).toHaveLength(0);
  });

  test('a delivery that waited for its identical twin clears its wait timer once the twin settled (no timer left for a process to wait on)', async () => {
    const WAIT = 45_000;
    const timers: unknown[] = [];
    const cleared: unknown[] = [];
    const realSet = globalThis.setTimeout;
    const realClear = globalThis.clearTimeout;
    globalThis.setTimeout = ((fn: () => void, ms?: number, ...a: unknown[]) => {
      const handle = realSet(fn, ms, ...a);
      if (ms !== undefined && ms > WAIT - 5_000 && ms <= WAIT) timers.push(handle);
      return handle;
    }) as typeof setTimeout;
    globalThis.clearTimeout = ((h?: Parameters<typeof clearTimeout>[0]) => { cleared.push(h); realClear(h); }) as typeof clearTimeout;
    try {
      let release = (): void => {};
      const gate = new Promise<void>((r) => { release = r; });
      const t = kitWith(new MemoryStore(), { updateOrderStatus: async () => { await gate; return {}; } }, { inFlightWaitMs: WAIT });
      const first = t.deliver('updateOrderStatus', statusUpdate('processing'));
      await sleep(20);
      const second = t.deliver('updateOrderStatus', statusUpdate('processing'));
      await sleep(20);
      release();
      const [a, b] = await Promise.all([first, second]);
      expect([a.status, b.status, b.headers['idempotency-replayed']]).toEqual([200, 200, 'true']);
      expect(timers.length).toBeGreaterThan(0);
      for (const timer of timers) expect(cleared).toContain(timer);
    } finally {
      globalThis.setTimeout = realSet;
      globalThis.clearTimeout = realClear;
    }
  });
});
