/**
 * Every exactly-once delivery settles and gives its OrderId lock back (issue 47 item 9: the mutants
 * that made a delivery or its background work hang). Seen from the Store interface only, so these
 * hold whatever the exactly-once module looks like inside: each lock the store handed out has been
 * released once — `release()` called, or `saveAndRelease` completed — once the reply came and `kit.idle()`
 * resolved, in every way an attempt can end: a success stored at once or after failed saves, a
 * decline, a failure, an invalid result, a store failing before the adapter, a reply stored meanwhile
 * by another process, an adapter that times out and then declines, fails, succeeds or never settles,
 * a save retried until the lock's bound, a save refused because the lease was lost.
 *
 * A lock left held is no visible failure at first (the store's lease frees it later, and the next
 * delivery of the OrderId only waits longer): a test that only sent a later delivery could not tell
 * it from a slow pass, so each test counts the releases. A delivery or a background task that never
 * ends makes its test exceed jest's time-out: a failure, not a slow pass.
 */
import { jest } from '@jest/globals';
import { LeaseLostError, MemoryStore, type AcquireOptions, type NewRecord, type StoreLock } from 'crossborder-merchant-kit/store';
import { BatchingMemoryStore } from '../../idempotency/batching-store.js';
import { order, paymentOrder, statusUpdate } from '../../helpers/orders.js';
import { kitWith, sleep } from '../../idempotency/harness.js';

interface Held { orderId: string; released: number }
type SaveFault = 'fail' | 'lost';

/** The store's locks, each counted when given back; saves and beginAttempt failing on demand. */
interface Watched {
  readonly locks: Held[];
  /** What the next saves do (shifted one per save; `always` once empty: every save fails). */
  saves: SaveFault[];
  always?: SaveFault;
  failBeginAttempt: boolean;
}

function watchLock(lock: StoreLock, held: Held): StoreLock {
  const watched: StoreLock = {
    get recovered() { return lock.recovered; },
    get prefetched() { return lock.prefetched; },
    release: async () => { held.released++; await lock.release(); },
  };
  const save = lock.saveAndRelease?.bind(lock);
  // saveAndRelease gives the lock back only when it resolves (a rejected one did nothing).
  if (save) (watched as { saveAndRelease: StoreLock['saveAndRelease'] }).saveAndRelease = async (record, ids) => { await save(record, ids); held.released++; };
  return watched;
}

function watched<T extends new (...args: any[]) => MemoryStore>(Base: T) {
  return class extends Base implements Watched {
    readonly locks: Held[] = [];
    saves: SaveFault[] = [];
    always?: SaveFault;
    failBeginAttempt = false;

    override async acquire(orderId: string, options: AcquireOptions): Promise<StoreLock | null> {
      const lock = await super.acquire(orderId, options);
      if (!lock) return null;
      const held = { orderId, released: 0 };
      this.locks.push(held);
      return watchLock(lock, held);
    }

    override async saveRecord(record: NewRecord): Promise<void> {
      const fault = record.key.startsWith('~') ? undefined : this.saves.shift() ?? this.always;
      if (fault === 'fail') throw new Error('connection terminated');
      if (fault === 'lost') throw new LeaseLostError();
      return super.saveRecord(record);
    }

    override async beginAttempt(key: string, orderId: string) {
      if (this.failBeginAttempt) throw new Error('connection terminated');
      return super.beginAttempt(key, orderId);
    }
  };
}

const WatchedMemoryStore = watched(MemoryStore);
const WatchedBatchingStore = watched(BatchingMemoryStore);
const STORES = [['MemoryStore', () => new WatchedMemoryStore()], ['a batching store (saveAndRelease)', () => new WatchedBatchingStore()]] as const;

const PAID = { InternalOrderId: 'A-1', PaymentAmount: '10.00', PaymentCurrencyCode: 'EUR' };
const never = () => new Promise<never>(() => {});

// A delivery that never answers fails its test in 10 s (not the suite's 30 s): a hang is a prompt failure.
jest.setTimeout(10_000);

/** Whether `promise` settles within `ms` (far beyond every lock's bound in this file: at most 360 ms). */
async function settles(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((r) => { timer = setTimeout(() => r(false), ms); });
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * After the reply: the background work ends (kit.idle() settles) and every lock taken was given back
 * exactly once (issue 48: a `release()` after a `saveAndRelease` that released it already could free
 * the lock of the delivery that took the OrderId next, on a store whose release is not fenced).
 */
async function allReleased(kit: { idle(): Promise<void> }, store: Watched, taken = 1): Promise<void> {
  expect(await settles(kit.idle(), 3_000)).toBe(true);
  expect(store.locks.map((l) => l.released)).toEqual(Array(taken).fill(1));
}

describe.each(STORES)('on %s, every ending of an attempt gives the OrderId lock back', (_name, make) => {
  test('a success stored at once', async () => {
    const store = make();
    const t = kitWith(store, { performOrderPayment: () => PAID });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(200);
    await allReleased(t.kit, store);
  });

  test.each<[string, () => unknown, number]>([
    ['a decline', () => ({ Success: false, Message: 'Declined' }), 400],
    ['a failure (the adapter throws)', () => { throw new Error('provider down'); }, 500],
    ['an invalid result', () => ({ PaymentAmount: { value: 10 } }), 500],
  ])('%s', async (_what, adapter, status) => {
    const store = make();
    const t = kitWith(store, { performOrderPayment: adapter as never });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(status);
    await allReleased(t.kit, store);
  });

  test('a reply another process stored while this delivery waited for the lock: replayed', async () => {
    const store = make();
    const adapter = { performOrderPayment: async () => { await sleep(50); return PAID; } };
    const [a, b] = [kitWith(store, adapter, { inFlightWaitMs: 5_000 }), kitWith(store, adapter, { inFlightWaitMs: 5_000 })];
    const replies = await Promise.all([a.deliver('performOrderPayment', paymentOrder()), b.deliver('performOrderPayment', paymentOrder())]);
    expect(replies.map((r) => r.status)).toEqual([200, 200]);
    await a.kit.idle();
    // The replay may come from the claim itself (a batching store reads the stored reply with it, and takes no lock then).
    await allReleased(b.kit, store, store.locks.length);
    expect(store.locks.length).toBeGreaterThanOrEqual(1);
  });

  test.each<[string, () => Promise<unknown>]>([
    ['declines', async () => { await sleep(100); return { Success: false, Message: 'Declined' }; }],
    ['fails', async () => { await sleep(100); throw new Error('provider down'); }],
    ['succeeds (stored late)', async () => { await sleep(100); return PAID; }],
  ])('an adapter that times out and then %s', async (_what, adapter) => {
    const store = make();
    const t = kitWith(store, { performOrderPayment: adapter as never }, { adapterTimeoutMs: 30, leaseMs: 20_000 });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(500);
    await allReleased(t.kit, store);
  });

  test('an adapter that never settles: given back at the lock\'s bound, before the lease ends', async () => {
    const store = make();
    const t = kitWith(store, { performOrderPayment: never }, { adapterTimeoutMs: 30, leaseMs: 400 });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(500);
    await allReleased(t.kit, store);
  });

  test('a success whose first saves fail: stored by a retry', async () => {
    const store = make();
    store.saves = ['fail', 'fail'];
    const t = kitWith(store, { performOrderPayment: () => PAID });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(200);
    await allReleased(t.kit, store);
    expect((await kitWith(store).deliver('performOrderPayment', paymentOrder())).headers['idempotency-replayed']).toBe('true');
  });

  test('a success that cannot be stored at all: given up and given back at the lock\'s bound', async () => {
    const store = make();
    store.always = 'fail';
    const t = kitWith(store, { performOrderPayment: () => PAID }, { adapterTimeoutMs: 100, leaseMs: 400 });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(200);
    await allReleased(t.kit, store);
  });

  test('a late success that cannot be stored at all: given back at the lock\'s bound', async () => {
    const store = make();
    store.always = 'fail';
    const t = kitWith(store, { performOrderPayment: async () => { await sleep(60); return PAID; } }, { adapterTimeoutMs: 30, leaseMs: 400 });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(500);
    await allReleased(t.kit, store);
  });

  test('a save refused because the lease was lost: 503, given back', async () => {
    const store = make();
    store.saves = ['lost'];
    const t = kitWith(store, { sendOrderToMerchant: () => ({ InternalOrderId: 'INT-1' }) });
    expect((await t.deliver('sendOrderToMerchant', order())).status).toBe(503);
    await allReleased(t.kit, store);
  });

  test('a late success whose save is refused because the lease was lost: given back', async () => {
    const store = make();
    store.saves = ['lost'];
    const t = kitWith(store, { performOrderPayment: async () => { await sleep(60); return PAID; } }, { adapterTimeoutMs: 30, leaseMs: 20_000 });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(500);
    await allReleased(t.kit, store);
  });

  test('a retried save refused because the lease was lost: given back', async () => {
    const store = make();
    store.saves = ['fail', 'lost'];
    const t = kitWith(store, { performOrderPayment: () => PAID });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(200);
    await allReleased(t.kit, store);
  });

  test('identical deliveries at once: each answered (the twins wait for the first in the process), the adapter run once, every lock given back', async () => {
    const store = make();
    const t = kitWith(store, { performOrderPayment: async () => { await sleep(50); return PAID; } }, { inFlightWaitMs: 5_000 });
    const replies = await Promise.all(Array.from({ length: 3 }, () => t.deliver('performOrderPayment', paymentOrder())));
    expect(replies.map((r) => [r.status, r.body])).toEqual(Array(3).fill([200, { Success: true, ...PAID }]));
    expect(t.calls('performOrderPayment')).toHaveLength(1);
    await allReleased(t.kit, store, store.locks.length);
  });

  test('deliveries of one order one after the other: each takes the lock at once and gives it back', async () => {
    const store = make();
    const t = kitWith(store, { performOrderPayment: () => PAID, updateOrderStatus: () => ({ InternalOrderId: 'A-1' }) }, { inFlightWaitMs: 1 });
    expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(200);
    expect((await t.deliver('updateOrderStatus', statusUpdate('processing'))).status).toBe(200);
    await allReleased(t.kit, store, 2);
  });
});

// A batching store begins the attempt inside its own claim: a failure there is the store's to release (the kit never got the lock).
test('a store failing before the adapter runs (beginAttempt, after the lock): 503, the adapter not called, the lock given back', async () => {
  const store = new WatchedMemoryStore();
  store.failBeginAttempt = true;
  const t = kitWith(store, { performOrderPayment: () => PAID });
  expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(503);
  expect(t.calls('performOrderPayment')).toHaveLength(0);
  await allReleased(t.kit, store);
});
