/**
 * The checks of the required core (see store-conformance.ts): replay of saved replies, the
 * per-OrderId lock under a lease (exclusive, waiting, giving up, taken over after a crash, released
 * after a failed attempt), exactly-once under concurrency across two instances, and holds.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Store, StoreLock } from '../store/types.js';
import { expiresOnTime, readBeforeTtl, reply, same, TTL_MS, type CheckDefinition } from './store-check-types.js';

/** The lease of a lock the checks let expire: long enough for a slow database round trip. */
const SHORT_LEASE_MS = 400;
const LONG = { waitMs: 10_000, leaseMs: 20_000 };

async function acquired(store: Store, orderId: string, options = LONG): Promise<StoreLock> {
  const lock = await store.acquire(orderId, options);
  assert.ok(lock, `acquire(${orderId}) resolved null although the OrderId was free`);
  return lock;
}

/** Resolves to what `promise` resolved to, or to 'pending' when it is still pending after `ms`. */
const settledWithin = <T>(promise: Promise<T>, ms: number): Promise<T | 'pending'> =>
  Promise.race([promise, sleep(ms).then(() => 'pending' as const)]);

const ead = { DocumentTypeCode: '11', TrackingNumber: 'TRK1' };
const label = { DocumentTypeCode: '4', ParcelCode: 'P1' };

/** Replay of saved replies: found as saved, the first kept, expired after the ttl. */
const replayChecks = (): CheckDefinition[] => [
  { capability: 'core', name: 'replay: a saved reply is found by its key, as saved and as a copy; another key finds nothing', body: async ({ store, id }) => {
    const o = id('O');
    const key = `sendOrderToMerchant:${o}:aaa`;
    const saved = reply(o, key);
    await store.saveRecord(saved);
    (saved.response as Record<string, unknown>).InternalOrderId = 'changed by the caller after the save';
    const got = await store.getRecord(key);
    assert.ok(got, 'getRecord found nothing for a saved key');
    same({ key: got.key, callback: got.callback, orderId: got.orderId, hash: got.hash, payment: got.payment, response: got.response },
      { key, callback: 'sendOrderToMerchant', orderId: o, hash: 'aaa', payment: false, response: { Success: true, InternalOrderId: 'INT-1' } });
    assert.ok(got.createdAt instanceof Date && got.expiresAt instanceof Date, 'createdAt and expiresAt must be Dates');
    assert.ok(got.expiresAt.getTime() > got.createdAt.getTime(), 'expiresAt must be after createdAt');
    (got.response as Record<string, unknown>).InternalOrderId = 'changed by a reader';
    assert.equal((await store.getRecord(key))!.response.InternalOrderId, 'INT-1', 'a reader changed the stored reply');
    assert.equal(await store.getRecord(`sendOrderToMerchant:${o}:bbb`), null);
  } },

  { capability: 'core', name: 'replay: the first reply saved under a key is kept (also when saved from another instance)', body: async ({ store, twin, id }) => {
    const o = id('O');
    const key = `sendOrderToMerchant:${o}:aaa`;
    await store.saveRecord(reply(o, key));
    await (await twin()).saveRecord(reply(o, key, { response: { Success: true, InternalOrderId: 'INT-2' } }));
    await store.saveRecord(reply(o, key, { response: { Success: true, InternalOrderId: 'INT-3' } }));
    assert.equal((await store.getRecord(key))!.response.InternalOrderId, 'INT-1', 'a later save replaced the first reply');
  } },

  { capability: 'core', name: 'replay: a reply expires after the ttl, and its key may then be saved again', body: async ({ withTtl, id }) => {
    const short = await withTtl(TTL_MS);
    const o = id('O');
    const key = `sendOrderToMerchant:${o}:ttl`;
    const savedAt = Date.now();
    await short.saveRecord(reply(o, key));
    const seen = await readBeforeTtl(() => short.getRecord(key), savedAt);
    if (seen.inTime) assert.ok(seen.value, 'a reply was gone before its ttl');
    await expiresOnTime(() => short.getRecord(key), savedAt, 'an expired reply was still returned');
    await short.saveRecord(reply(o, key, { response: { Success: true, InternalOrderId: 'again' } }));
    assert.equal((await short.getRecord(key))!.response.InternalOrderId, 'again');
  } },
];

/** The per-OrderId lock under a lease: exclusive, waiting, giving up, taken over after a crash, released after a failed attempt. */
const leaseChecks = (): CheckDefinition[] => [
  { capability: 'core', name: 'lease: a second acquire waits for the release, then gets the lock (not recovered)', body: async ({ store, twin, id }) => {
    const o = id('O');
    const first = await acquired(store, o);
    assert.equal(first.recovered, false, 'a free OrderId was reported recovered');
    const second = (await twin()).acquire(o, LONG);
    assert.equal(await settledWithin(second, 150), 'pending', 'a second acquire got the lock while the first holder had it');
    await first.release();
    const lock = await second;
    assert.ok(lock, 'the waiting acquire resolved null after the release');
    assert.equal(lock.recovered, false, 'a released lock was reported recovered');
    await lock.release();
  } },

  { capability: 'core', name: 'lease: another OrderId is not blocked', body: async ({ store, twin, id }) => {
    const a = await acquired(store, id('O'));
    const b = await acquired(await twin(), id('O'), { waitMs: 300, leaseMs: 5_000 });
    await a.release();
    await b.release();
  } },

  { capability: 'core', name: 'lease: acquire gives up after waitMs (null) and the holder keeps its lock for its whole lease', body: async ({ store, twin, id }) => {
    const o = id('O');
    const first = await acquired(store, o, { waitMs: 1_000, leaseMs: 5_000 });
    // Both wait at once: the same instance for 150 ms, another one past a tenth of the holder's
    // lease, well before its end (a store that ends leases early is caught there).
    const other = await twin();
    const [sameInstance, late] = await Promise.all([store.acquire(o, { waitMs: 150, leaseMs: 5_000 }), other.acquire(o, { waitMs: 1_000, leaseMs: 5_000 })]);
    assert.equal(sameInstance, null, 'acquire took a held lock');
    assert.equal(late, null, 'a lock was taken over before its lease ended');
    await first.release();
    const again = await acquired(store, o, { waitMs: 1_000, leaseMs: 5_000 });
    await again.release();
  } },

  { capability: 'core', name: 'lease: a holder that never releases (a crash) is taken over after its lease, and its late release frees nothing', body: async ({ store, twin, id }) => {
    const o = id('O');
    const other = await twin();
    const crashed = await acquired(other, o, { waitMs: 1_000, leaseMs: SHORT_LEASE_MS });
    const next = await acquired(store, o, { waitMs: 5_000, leaseMs: 20_000 });
    assert.equal(next.recovered, true, 'a lock taken over after its lease expired must be reported recovered');
    await crashed.release();
    assert.equal(await other.acquire(o, { waitMs: 200, leaseMs: 5_000 }), null, "the crashed holder's late release freed its successor's lock");
    await next.release();
    const after = await acquired(other, o, { waitMs: 1_000, leaseMs: 5_000 });
    assert.equal(after.recovered, false);
    await after.release();
  } },

  { capability: 'core', name: 'release on failure: a lock released without a saved reply is free at once; a second release frees nothing', body: async ({ store, twin, id }) => {
    const o = id('O');
    const key = `sendOrderToMerchant:${o}:failed`;
    const failed = await acquired(store, o, { waitMs: 1_000, leaseMs: 20_000 });
    await failed.release(); // the adapter failed: nothing saved
    const retry = await acquired(await twin(), o, { waitMs: 1_000, leaseMs: 20_000 });
    assert.equal(retry.recovered, false, 'a released lock was reported recovered');
    assert.equal(await store.getRecord(key), null, 'a failed attempt left a reply');
    await failed.release();
    assert.equal(await store.acquire(o, { waitMs: 200, leaseMs: 5_000 }), null, "a second release of an old lock freed the next holder's lock");
    await retry.release();
  } },
];

/** Exactly-once under concurrency across two instances. */
const exactlyOnceChecks = (): CheckDefinition[] => [
  { capability: 'core', name: 'exactly once: concurrent deliveries of one OrderId on two instances run the work once and all get its reply', body: async ({ store, twin, id }) => {
    const o = id('O');
    const key = `sendOrderToMerchant:${o}:race`;
    const stores = [store, await twin()];
    let runs = 0;
    let inside = 0;
    let maxInside = 0;
    const deliver = async (s: Store) => {
      const early = await s.getRecord(key);
      if (early) return early.response;
      const lock = await acquired(s, o);
      inside++;
      maxInside = Math.max(maxInside, inside);
      try {
        const stored = await s.getRecord(key);
        if (stored) return stored.response;
        runs++;
        await sleep(5);
        const response = { Success: true, InternalOrderId: `INT-run-${runs}` };
        await s.saveRecord(reply(o, key, { response }));
        return response;
      } finally {
        inside--;
        await lock.release();
      }
    };
    const replies = await Promise.all(Array.from({ length: 16 }, (_, i) => deliver(stores[i % 2])));
    assert.equal(maxInside, 1, `${maxInside} holders had the lock of one OrderId at once`);
    assert.equal(runs, 1, `the work ran ${runs} times`);
    for (const r of replies) same(r, { Success: true, InternalOrderId: 'INT-run-1' });
  } },
];

/** Fulfilment holds: placed, released by documents (also early ones), replaced by an order update, concurrent deliveries. */
const holdChecks = (): CheckDefinition[] => [
  { capability: 'core', name: 'holds: none for an unknown order; placed, then partly and fully released by documents (seen from another instance)', body: async ({ store, twin, id }) => {
    const o = id('O');
    assert.equal(await store.getFulfilmentHold(o), null);
    const placed = await store.placeFulfilmentHold(o, [ead, label]);
    assert.ok(placed && placed.since instanceof Date, 'placeFulfilmentHold must return the hold, with since a Date');
    same(placed, { orderId: o, awaiting: [ead, label], since: placed.since });
    same(await (await twin()).getFulfilmentHold(o), placed);
    const partial = await store.recordDocuments(o, [{ DocumentTypeCode: '4', ParcelCode: 'P2' }, { DocumentTypeCode: '11', TrackingNumber: 'TRK1' }]);
    same(partial, { orderId: o, awaiting: [label], since: placed.since });
    assert.equal(await store.recordDocuments(o, [{ DocumentTypeCode: '4', ParcelCode: 'p1', TrackingNumber: 'X' }]), null, 'a matching document (ParcelCode, any case) did not release the hold');
    assert.equal(await store.getFulfilmentHold(o), null);
  } },

  { capability: 'core', name: 'holds: documents received before the order count when it arrives', body: async ({ store, id }) => {
    const o = id('O');
    assert.equal(await store.recordDocuments(o, [ead]), null);
    assert.equal(await store.getFulfilmentHold(o), null);
    same((await store.placeFulfilmentHold(o, [ead, label]))?.awaiting, [label]);
    const all = id('O');
    await store.recordDocuments(all, [ead, label]);
    assert.equal(await store.placeFulfilmentHold(all, [ead, label]), null, 'an order whose documents all came first was placed on hold');
  } },

  { capability: 'core', name: 'holds: an order update replaces the awaited list and keeps the time it was placed', body: async ({ store, id }) => {
    const o = id('O');
    const first = await store.placeFulfilmentHold(o, [ead]);
    const second = await store.placeFulfilmentHold(o, [label]);
    same(second, { orderId: o, awaiting: [label], since: first!.since });
  } },

  { capability: 'core', name: 'holds: concurrent document deliveries from two instances all count', body: async ({ store, twin, id }) => {
    const o = id('O');
    const other = await twin();
    const docs = Array.from({ length: 10 }, (_, i) => ({ DocumentTypeCode: '4', ParcelCode: `P${i}` }));
    await store.placeFulfilmentHold(o, docs);
    await Promise.all(docs.map((d, i) => (i % 2 ? other : store).recordDocuments(o, [d])));
    assert.equal(await store.getFulfilmentHold(o), null, 'a document delivered concurrently was lost');
  } },
];

/** The checks every store passes, in this order. */
export const coreChecks = (): CheckDefinition[] => [...replayChecks(), ...leaseChecks(), ...exactlyOnceChecks(), ...holdChecks()];
