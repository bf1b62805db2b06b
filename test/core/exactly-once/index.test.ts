/**
 * The exactly-once delivery (lib/core/exactly-once/index.ts; was the idempotency step) on a store
 * with the batching capability (claimOrReplay, lock.prefetched, lock.saveAndRelease; PostgresStore
 * has it, MemoryStore does not):
 * the shared exactly-once and attempt suites over test/idempotency/batching-store.ts, so the batching
 * path runs without a database; then what only that path does.
 */
import { inspect } from 'node:util';
import { MemoryStore, type Claim, type NewRecord, type Store } from 'crossborder-merchant-kit/store';
import { STORE_CORE_METHODS } from '../../../lib/store/types.js';
import { key } from '../../../lib/core/stages/key.js';
import { DEFAULT_REGISTRY } from '../../../lib/core/registry.js';
import { order, paymentOrder, statusUpdate } from '../../helpers/orders.js';
import { captureLogger } from '../../helpers/recording.js';
import type { StoreFactory } from '../../store/harness.js';
import { attemptBehaviour } from '../../idempotency/attempts-behaviour.js';
import { idempotencyBehaviour } from '../../idempotency/behaviour.js';
import { BatchingMemoryStore } from '../../idempotency/batching-store.js';
import { kitWith, sleep } from '../../idempotency/harness.js';

const batchingFactory: StoreFactory = async () => {
  const store = new BatchingMemoryStore();
  return {
    store,
    twin: () => store,
    scan: async () => inspect(store, { depth: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity }),
    withTtl: (ms) => new BatchingMemoryStore({ ttl: ms }),
  };
};

describe('exactly-once callbacks on a batching store', () => {
  idempotencyBehaviour(batchingFactory);
});

describe('attempts on a batching store', () => {
  attemptBehaviour(batchingFactory);
});

/** `store` with some methods replaced (the others bound to it), as a store failing in one place would be. */
function faulty<S extends Store>(store: S, overrides: Record<string, (...args: any[]) => unknown>): S {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && prop in overrides) return overrides[prop];
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

const PAID = { InternalOrderId: 'A-1', PaymentAmount: '10.00', PaymentCurrencyCode: 'EUR' };

describe('the idempotency step', () => {
  test('a batching store is used through its batching members', async () => {
    const store = new BatchingMemoryStore();
    const t = kitWith(store);
    await t.deliver('sendOrderToMerchant', order());
    expect(store.used).toEqual({ claimOrReplay: 1, prefetched: 1, saveAndRelease: 1 });
  });

  test('a batching store is read in its claim only (one round trip): a payment, its replay and a payment replayed to another callback never call its own reads', async () => {
    // The point of claimOrReplay (PostgresStore: one statement): the stored reply and the order's payment are
    // read together with the lock, not by getRecord / getPayment before it (issue 48: `#claims` made false
    // read both first, two more round trips on every delivery, same answers).
    const store = new BatchingMemoryStore();
    const asked: string[] = [];
    const reads = ['getRecord', 'getPayment', 'acquire', 'getLatestRecord', 'beginAttempt', 'getFulfilmentHold'];
    const counted = faulty(store, Object.fromEntries(reads.map((m) => [m, (...args: any[]) => { asked.push(m); return (store as any)[m](...args); }])));
    const t = kitWith(counted, { performOrderPayment: () => PAID });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(200);
    expect((await t.deliver('performOrderPayment', paymentOrder())).headers['idempotency-replayed']).toBe('true');
    expect((await t.deliver('sendOrderToMerchant', paymentOrder())).headers['idempotency-replayed']).toBe('true');
    expect(t.calls('performOrderPayment')).toHaveLength(1);
    expect(store.used.claimOrReplay).toBe(3);
    expect(asked).toEqual([]);
  });

  describe.each([
    ['MemoryStore', () => new MemoryStore(), ['getRecord', 'acquire', 'getLatestRecord', 'beginAttempt', 'getPayment']],
    ['a batching store', () => new BatchingMemoryStore(), ['claimOrReplay']],
  ] as const)('a failing store (%s) refuses the delivery, retryable, without calling the adapter', (_name, make, methods) => {
    // A store method may fail by rejecting (an async method) or by throwing before it returns a promise (a plain one).
    test.each(methods.flatMap((m) => [[m, 'rejects'], [m, 'throws']] as const))('%s fails (%s): 503 STORE_UNAVAILABLE with Retry-After, logged; the OrderId is free again at once', async (method, how) => {
      let down = true;
      const store = make();
      const real = (store as any)[method].bind(store);
      const failing = how === 'rejects'
        ? async (...a: unknown[]) => { if (down) throw new Error('connection terminated'); return real(...a); }
        : (...a: unknown[]) => { if (down) throw new Error('connection terminated'); return real(...a); };
      const t = kitWith(faulty(store, { [method]: failing }),
        { performOrderPayment: () => PAID }, { inFlightWaitMs: 100 });
      const res = await t.deliver('performOrderPayment', paymentOrder());
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toEqual({ Success: false, Message: 'Service unavailable, retry later', ErrorCode: 'STORE_UNAVAILABLE', Description: 'The order store is unavailable; retry later' });
      expect(t.log.lines.filter((l) => l.level === 'error').map((l) => [l.msg, l.obj.err?.message])).toEqual([['idempotency store failed', 'connection terminated']]);
      expect(t.log.lines.find((l) => l.msg === 'callback refused')?.obj.reason).toBe('idempotency store failed');
      expect(t.calls('performOrderPayment')).toHaveLength(0);
      down = false;
      const retry = await t.deliver('performOrderPayment', paymentOrder());
      expect(retry.body).toEqual({ Success: true, ...PAID });
    });
  });

  test('a batching store answering a claim with an empty stored answer: 503 STORE_UNAVAILABLE, logged, the adapter not called', async () => {
    class EmptyAnswer extends BatchingMemoryStore {
      override async claimOrReplay(): Promise<Claim | null> { return { stored: { record: null, payment: null } }; }
    }
    const t = kitWith(new EmptyAnswer());
    const res = await t.deliver('sendOrderToMerchant', order());
    expect(res).toMatchObject({ status: 503, body: { ErrorCode: 'STORE_UNAVAILABLE' } });
    expect(t.log.lines.filter((l) => l.level === 'error').map((l) => l.msg)).toEqual(['idempotency store answered a claim with an empty stored answer']);
    expect(t.calls('sendOrderToMerchant')).toHaveLength(0);
  });

  test('a payment with the same payload from another callback gets the stored payment; the warning says which callback paid, and when', async () => {
    const t = kitWith(new MemoryStore());
    const before = Date.now();
    const paid = await t.deliver('sendOrderToMerchant', paymentOrder());
    const again = await t.deliver('performOrderPayment', paymentOrder());
    expect(again.body).toEqual(paid.body);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(t.calls('performOrderPayment')).toHaveLength(0);
    const warned = t.log.lines.filter((l) => l.level === 'warn' && /payment already succeeded/.test(l.msg ?? ''));
    expect(warned).toHaveLength(1);
    expect(warned[0].obj.paidBy).toBe('sendOrderToMerchant');
    expect(new Date(warned[0].obj.paidAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(warned[0].msg).toBe('payment already succeeded for this OrderId; a payment request with a different payload got the stored success and did not reach the adapter');
  });

  test('a delivery refused IN_FLIGHT: the log says how long it waited', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const t = kitWith(new MemoryStore(), { updateOrderStatus: async () => { await gate; } }, { inFlightWaitMs: 120 });
    const slow = t.deliver('updateOrderStatus', statusUpdate('processing'));
    await sleep(20);
    const busy = await t.deliver('updateOrderStatus', statusUpdate('canceled'));
    expect(busy).toMatchObject({ status: 503, body: { ErrorCode: 'IN_FLIGHT', Description: 'Another delivery for this order is still being processed; retry later' } });
    expect(t.log.lines.find((l) => l.msg === 'callback refused')?.obj.reason).toBe('another delivery for this OrderId was still in progress after 120 ms');
    expect(t.log.summaries().map((l) => l.obj.outcome)).toEqual(['in_flight']);
    release();
    await slow;
  });

  test('an attempt that ended unknown is logged with its number and outcome when the next one starts; a clean one is not', async () => {
    const t = kitWith(new MemoryStore(), { performOrderPayment: async () => { throw new Error('down'); } });
    await t.deliver('performOrderPayment', paymentOrder());
    await t.deliver('performOrderPayment', paymentOrder());
    expect(t.log.lines.filter((l) => /previous attempt/.test(l.msg ?? ''))).toEqual([]);
    const key = t.calls('performOrderPayment')[0].context.idempotencyKey as string;
    const store = new MemoryStore();
    await store.beginAttempt(key, 'GE1001CH');
    await store.beginAttempt(key, 'GE1001CH');
    const t2 = kitWith(store);
    await t2.deliver('performOrderPayment', paymentOrder());
    const warned = t2.log.lines.filter((l) => l.level === 'warn' && /previous attempt/.test(l.msg ?? ''));
    expect(warned.map((l) => [l.obj, l.msg])).toEqual([[expect.objectContaining({ attempt: 3, previousOutcome: 'crashed' }),
      'the previous attempt for this delivery ended without a known result; the adapter is told (context.previousAttempt)']]);
  });

  test('concurrent identical deliveries while the store cannot keep the reply: every one gets the kept reply, the adapter runs once', async () => {
    let down = true;
    const store = new MemoryStore();
    const t = kitWith(faulty(store, { saveRecord: async (r: any) => { if (down) throw new Error('connection terminated'); return store.saveRecord(r); } }),
      { performOrderPayment: async () => { await sleep(50); return PAID; } }, { inFlightWaitMs: 1_000 });
    const replies = await Promise.all(Array.from({ length: 3 }, () => t.deliver('performOrderPayment', paymentOrder())));
    down = false;
    for (const r of replies) expect(r).toMatchObject({ status: 200, body: { Success: true, ...PAID } });
    expect(t.calls('performOrderPayment')).toHaveLength(1);
  });

  test('on a batching store, a payment kept in memory while its save is retried answers a payment request with another payload', async () => {
    class FlakySaves extends BatchingMemoryStore {
      down = true;
      override async saveRecord(record: NewRecord): Promise<void> {
        if (this.down) throw new Error('connection terminated');
        return super.saveRecord(record);
      }
    }
    const store = new FlakySaves();
    const t = kitWith(store, {}, { inFlightWaitMs: 100 });
    const paid = await t.deliver('performOrderPayment', paymentOrder());
    expect(paid.status).toBe(200);
    const other = await t.deliver('performOrderPayment', paymentOrder({ CurrencyCode: 'CHF' }));
    expect(other).toMatchObject({ status: 200, body: paid.body });
    expect(other.headers['idempotency-replayed']).toBe('true');
    expect(t.calls('performOrderPayment')).toHaveLength(1);
    expect(store.used.claimOrReplay).toBe(1); // the second was answered from memory, before any claim
    store.down = false;
  });

  test("the lock is released at its bound, before its lease ends: the next delivery does not find an expired lease", async () => {
    let down = true;
    const store = new MemoryStore();
    const t = kitWith(faulty(store, { saveRecord: async (r: any) => { if (down) throw new Error('connection terminated'); return store.saveRecord(r); } }),
      {}, { leaseMs: 2_000, adapterTimeoutMs: 200, inFlightWaitMs: 5_000 });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(200);
    const t2 = kitWith(store, { updateOrderStatus: () => ({ InternalOrderId: 'A-1' }) }, { inFlightWaitMs: 5_000 });
    expect((await t2.deliver('updateOrderStatus', statusUpdate('processing'))).status).toBe(200);
    down = false;
    const hung = kitWith(new MemoryStore(), { performOrderPayment: () => new Promise(() => {}) }, { leaseMs: 2_000, adapterTimeoutMs: 50, inFlightWaitMs: 5_000 });
    expect((await hung.deliver('performOrderPayment', paymentOrder())).status).toBe(500);
    expect((await hung.deliver('updateOrderStatus', statusUpdate('processing'))).status).toBe(200);
    for (const log of [t2.log, hung.log]) expect(log.lines.filter((l) => /lease of an in-progress delivery/.test(l.msg ?? ''))).toEqual([]);
  });

  test('two processes on one store, identical deliveries at once: the one that waited for the lock replays the reply stored meanwhile', async () => {
    const store = new MemoryStore();
    let charges = 0;
    const adapter = { performOrderPayment: async () => { charges++; await sleep(50); return PAID; } };
    const [a, b] = [kitWith(store, adapter, { inFlightWaitMs: 5_000 }), kitWith(store, adapter, { inFlightWaitMs: 5_000 })];
    const replies = await Promise.all([a.deliver('performOrderPayment', paymentOrder()), b.deliver('performOrderPayment', paymentOrder())]);
    expect(charges).toBe(1);
    for (const r of replies) expect(r.body).toEqual({ Success: true, ...PAID });
    expect(replies.filter((r) => r.headers['idempotency-replayed'] === 'true')).toHaveLength(1);
  });

  test('identical deliveries in one process wait for each other in the process: a store without claimOrReplay is asked for the OrderId lock once', async () => {
    const store = new MemoryStore();
    let locks = 0;
    const counted = faulty(store, { acquire: (...args: any[]) => { locks++; return (store.acquire as any)(...args); } });
    const t = kitWith(counted, { performOrderPayment: async () => { await sleep(50); return PAID; } }, { inFlightWaitMs: 5_000 });
    const replies = await Promise.all(Array.from({ length: 4 }, () => t.deliver('performOrderPayment', paymentOrder())));
    for (const r of replies) expect(r).toMatchObject({ status: 200, body: { Success: true, ...PAID } });
    expect(replies.filter((r) => r.headers['idempotency-replayed'] === 'true')).toHaveLength(3);
    expect(t.calls('performOrderPayment')).toHaveLength(1);
    // Only the first delivery takes the lock; its twins read its stored reply once it has settled
    // (without the in-process wait each would queue on the store's lock). A batching store (PostgresStore)
    // looks for the stored reply in its claim statement, so there every twin makes that one statement.
    expect(locks).toBe(1);
  });

  test('a settled delivery leaves nothing behind in the process: its retry reads the store as the first delivery did', async () => {
    // A delivery that is still marked running in the process makes every later identical delivery
    // wait for it and read the store once more (and the mark would stay in memory for good).
    const store = new MemoryStore();
    let reads = 0;
    const counted = faulty(store, { getRecord: (...args: any[]) => { reads++; return (store.getRecord as any)(...args); } });
    let failures = 2;
    const t = kitWith(counted, { performOrderPayment: async () => { if (failures-- > 0) throw new Error('gateway down'); return PAID; } });
    const readsOf = async () => {
      const before = reads;
      const reply = await t.deliver('performOrderPayment', paymentOrder());
      return { status: reply.status, reads: reads - before };
    };
    const first = await readsOf();
    const retry = await readsOf();
    expect(first.status).toBe(500);
    expect(retry).toEqual(first);
    expect(first.reads).toBeGreaterThan(0);
    expect((await readsOf()).status).toBe(200);
    expect(t.calls('performOrderPayment')).toHaveLength(3);
  });

  test('an identical delivery that waits in the process longer than inFlightWaitMs is refused 503 IN_FLIGHT, and the first still completes', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const t = kitWith(new MemoryStore(), { performOrderPayment: async () => { await gate; return PAID; } }, { inFlightWaitMs: 50 });
    const first = t.deliver('performOrderPayment', paymentOrder());
    await sleep(5);
    const second = await t.deliver('performOrderPayment', paymentOrder());
    expect(second.status).toBe(503);
    expect(second.body).toMatchObject({ Success: false });
    release();
    expect(await first).toMatchObject({ status: 200, body: { Success: true, ...PAID } });
    expect(t.calls('performOrderPayment')).toHaveLength(1);
  });

  const failingSaves = <T extends new (...args: any[]) => MemoryStore>(Base: T) => new (class extends Base {
    override async saveRecord(): Promise<void> { throw new Error('connection terminated'); }
  })();
  test.each([['MemoryStore', () => failingSaves(MemoryStore)], ['a batching store', () => failingSaves(BatchingMemoryStore)]] as const)(
    'an order reply kept in memory while its save is retried (%s) is replayed to a redelivery in this process', async (_name, make) => {
      const t = kitWith(make(), {}, { inFlightWaitMs: 100 });
      const first = await t.deliver('sendOrderToMerchant', order());
      const again = await t.deliver('sendOrderToMerchant', order());
      expect(again).toMatchObject({ status: 200, body: first.body });
      expect(again.headers['idempotency-replayed']).toBe('true');
      expect(t.log.summaries().map((l) => l.obj.outcome)).toEqual(['success', 'replayed']);
      expect(t.calls('sendOrderToMerchant')).toHaveLength(1);
    });

  test('a store that counts no attempts (core only): the delivery runs, without context.attempt', async () => {
    const memory = new MemoryStore();
    const coreOnly = Object.fromEntries(STORE_CORE_METHODS.map((m) => [m, (memory as any)[m].bind(memory)]));
    const t = kitWith(coreOnly as never);
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(200);
    expect(t.calls('performOrderPayment')[0].context).not.toHaveProperty('attempt');
  });

  test('fails closed on a delivery without an OrderId (the parse stage refuses those first); a keyed delivery always has its fingerprint', () => {
    const validated = (over: object) => ({
      callback: 'sendOrderToMerchant', entry: DEFAULT_REGISTRY.byName.sendOrderToMerchant, context: {}, log: captureLogger(),
      orderId: 'GE1', payload: order(), input: order(), cardDigest: undefined, ...over,
    }) as never;
    expect(() => key(validated({ orderId: undefined }))).toThrow('exactly-once sendOrderToMerchant reached its key without an OrderId');
    const keyed = key(validated({}));
    expect(keyed.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(keyed.key).toBe(`sendOrderToMerchant:GE1:${keyed.fingerprint}`);
  });
});
