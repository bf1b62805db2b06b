/**
 * The checks of the optional capabilities (see store-conformance.ts); each runs only against a
 * store that implements its capability.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Store } from '../store/types.js';
import { expiresOnTime, readBeforeTtl, reply, same, TTL_MS, EXPIRY_MARGIN_MS, type CheckDefinition } from './store-check-types.js';

/** The store with every method of the capability a check is for (the runner checked it has them). */
const full = (s: Store) => s as Required<Store>;

const paid = (o: string, hash: string, amount: string) =>
  reply(o, `performOrderPayment:${o}:${hash}`, { callback: 'performOrderPayment', payment: true, response: { Success: true, PaymentAmount: amount } });

export const capabilityChecks = (): CheckDefinition[] => [
  { capability: 'payments', name: 'getPayment gives the first successful payment of the OrderId only', body: async ({ store, twin, id }) => {
    const o = id('O');
    const s = full(store);
    await s.saveRecord(reply(o, `sendOrderToMerchant:${o}:aaa`));
    assert.equal(await s.getPayment(o), null, 'a reply that is not a payment was returned as the payment');
    await s.saveRecord(paid(o, 'p1', '10.00'));
    await full(await twin()).saveRecord(paid(o, 'p2', '99.00'));
    assert.equal((await s.getPayment(o))?.response.PaymentAmount, '10.00', 'getPayment must give the first payment');
    assert.equal(await s.getPayment(id('O')), null);
  } },

  { capability: 'payments', name: 'a payment expires with its reply', body: async ({ withTtl, id }) => {
    const short = full(await withTtl(TTL_MS));
    const o = id('O');
    const savedAt = Date.now();
    await short.saveRecord(paid(o, 'p1', '10.00'));
    const seen = await readBeforeTtl(() => short.getPayment(o), savedAt);
    if (seen.inTime) assert.ok(seen.value, 'a payment was gone before its ttl');
    await expiresOnTime(() => short.getPayment(o), savedAt, 'an expired payment was still returned');
  } },

  { capability: 'latest', name: 'getLatestRecord gives the latest reply of a callback for an OrderId', body: async ({ store, id }) => {
    const o = id('O');
    const s = full(store);
    await s.saveRecord(reply(o, `sendOrderToMerchant:${o}:aaa`));
    await sleep(5);
    await s.saveRecord(reply(o, `sendOrderToMerchant:${o}:bbb`, { response: { Success: true, InternalOrderId: 'INT-2' } }));
    await s.saveRecord(reply(o, `updateOrderStatus:${o}:ccc`, { callback: 'updateOrderStatus', response: { Success: true, StatusCode: 'x' } }));
    assert.equal((await s.getLatestRecord(o, 'sendOrderToMerchant'))?.response.InternalOrderId, 'INT-2');
    assert.equal((await s.getLatestRecord(o, 'updateOrderStatus'))?.response.StatusCode, 'x');
    assert.equal(await s.getLatestRecord(id('O'), 'sendOrderToMerchant'), null);
  } },

  { capability: 'attempts', name: 'attempts are counted per key, with how the previous one ended', body: async ({ store, id }) => {
    const o = id('O');
    const s = full(store);
    const key = `sendOrderToMerchant:${o}:a`;
    same(await s.beginAttempt(key, o), { attempt: 1 });
    await s.endAttempt(key, null);
    same(await s.beginAttempt(key, o), { attempt: 2 }, 'an attempt that ended cleanly must not be reported');
    await s.endAttempt(key, 'unsaved');
    const third = await s.beginAttempt(key, o);
    assert.equal(third.attempt, 3);
    assert.equal(third.previousAttempt?.outcome, 'unsaved');
    assert.ok(third.previousAttempt.startedAt instanceof Date);
    for (const outcome of ['timeout', 'invalid-result'] as const) {
      await s.endAttempt(key, outcome);
      assert.equal((await s.beginAttempt(key, o)).previousAttempt?.outcome, outcome);
    }
    same(await s.beginAttempt(`sendOrderToMerchant:${o}:b`, o), { attempt: 1 });
  } },

  { capability: 'attempts', name: "an attempt that never ended is 'crashed', with its start time, also seen from another instance", body: async ({ store, twin, id }) => {
    const o = id('O');
    const key = `sendOrderToMerchant:${o}:c`;
    const before = Date.now();
    await full(store).beginAttempt(key, o);
    const next = await full(await twin()).beginAttempt(key, o);
    assert.equal(next.attempt, 2);
    assert.equal(next.previousAttempt?.outcome, 'crashed');
    assert.ok(Math.abs(next.previousAttempt.startedAt.getTime() - before) < 60_000, 'startedAt is not when the attempt began');
  } },

  { capability: 'attempts', name: 'attempt records expire after the ttl', body: async ({ withTtl, id }) => {
    const short = full(await withTtl(TTL_MS));
    const o = id('O');
    await short.beginAttempt(`k:${o}:t`, o);
    // A fixed wait: beginAttempt is the only read of an attempt, and it writes (polling would keep it alive).
    await sleep(TTL_MS + EXPIRY_MARGIN_MS);
    same(await short.beginAttempt(`k:${o}:t`, o), { attempt: 1 });
  } },

  { capability: 'merchantOrderIds', name: 'an order is found by each of its merchant ids (case-sensitive), the latest save wins', body: async ({ store, twin, id }) => {
    const [o1, o2, internal, shop] = [id('O'), id('O'), id('INT'), id('1001')];
    const s = full(store);
    assert.equal(await s.findOrderId(internal), null);
    await s.saveMerchantOrderIds(o1, [internal, shop]);
    assert.equal(await s.findOrderId(internal), o1);
    assert.equal(await full(await twin()).findOrderId(shop), o1);
    assert.equal(await s.findOrderId(internal.toLowerCase()), null);
    await s.saveMerchantOrderIds(o2, [shop, shop]);
    assert.equal(await s.findOrderId(shop), o2, 'a later save for the same merchant id must win');
    assert.equal(await s.findOrderId(internal), o1);
    await s.saveMerchantOrderIds(o2, []);
  } },

  { capability: 'merchantOrderIds', name: 'merchant ids expire after the ttl', body: async ({ withTtl, id }) => {
    const short = full(await withTtl(TTL_MS));
    const [o, internal] = [id('O'), id('INT')];
    const savedAt = Date.now();
    await short.saveMerchantOrderIds(o, [internal]);
    const seen = await readBeforeTtl(() => short.findOrderId(internal), savedAt);
    if (seen.inTime) assert.equal(seen.value, o, 'a merchant id did not find its order before its ttl');
    await expiresOnTime(() => short.findOrderId(internal), savedAt, 'an expired merchant id still found its order');
  } },

  { capability: 'manualRelease', name: 'a hold is released by hand; releasing an unknown order is a no-op', body: async ({ store, id }) => {
    const o = id('O');
    const s = full(store);
    await s.placeFulfilmentHold(o, [{ DocumentTypeCode: '11', TrackingNumber: 'T' }]);
    await s.releaseFulfilmentHold(o);
    assert.equal(await s.getFulfilmentHold(o), null);
    await s.releaseFulfilmentHold(id('O'));
  } },

  { capability: 'batching', name: 'claimOrReplay takes the lock when nothing is stored, and answers a stored reply or payment without waiting for a held lock', body: async ({ store, twin, id }) => {
    const o = id('O');
    const s = full(store);
    const key = `sendOrderToMerchant:${o}:k`;
    const prefetch = { key, payment: true, latestOf: 'sendOrderToMerchant', beginAttempt: false };
    const claim = await s.claimOrReplay(o, { waitMs: 1_000, leaseMs: 20_000, prefetch });
    assert.ok(claim?.lock, 'claimOrReplay took no lock although nothing was stored');
    assert.equal(await full(await twin()).acquire(o, { waitMs: 150, leaseMs: 5_000 }), null, 'the lock claimOrReplay took is not exclusive');
    await s.saveRecord(reply(o, key));
    // Another delivery while the lock is still held: answered from the stored reply, not made to wait.
    const replayed = await s.claimOrReplay(o, { waitMs: 3_000, leaseMs: 20_000, prefetch });
    assert.equal(replayed?.stored?.record?.response.InternalOrderId, 'INT-1', 'a stored reply was not answered while the lock was held');
    assert.equal(replayed.lock, undefined);
    await s.saveRecord(paid(o, 'p1', '10.00'));
    const other = { ...prefetch, key: `performOrderPayment:${o}:p2` };
    const payment = await s.claimOrReplay(o, { waitMs: 3_000, leaseMs: 20_000, prefetch: other });
    assert.equal(payment?.stored?.payment?.response.PaymentAmount, '10.00', "the order's stored payment was not answered");
    await claim.lock.release();
  } },

  { capability: 'batching', name: "a lock's prefetched reads and saveAndRelease, when present, do what the separate calls do", body: async ({ store, twin, id }) => {
    const o = id('O');
    const s = full(store);
    const key = `sendOrderToMerchant:${o}:k`;
    await s.saveRecord(reply(o, `sendOrderToMerchant:${o}:earlier`, { response: { Success: true, InternalOrderId: 'INT-0' } }));
    await s.placeFulfilmentHold(o, [{ DocumentTypeCode: '11', TrackingNumber: 'T' }]);
    const prefetch = { key, payment: true, latestOf: 'sendOrderToMerchant', beginAttempt: true };
    const lock = await s.acquire(o, { waitMs: 1_000, leaseMs: 20_000, prefetch });
    assert.ok(lock);
    if (lock.prefetched) {
      const p = lock.prefetched;
      assert.equal(p.record, null);
      assert.equal(p.payment, null);
      assert.equal(p.latest?.response.InternalOrderId, 'INT-0', 'prefetched.latest is not the latest reply');
      same(p.hold, await s.getFulfilmentHold(o), 'prefetched.hold is not the hold');
      if (p.attempt) assert.equal(p.attempt.attempt, 1);
    }
    if (!lock.saveAndRelease) return lock.release();
    const ids = [id('INT')];
    await lock.saveAndRelease(reply(o, key, { response: { Success: true, InternalOrderId: ids[0] } }), ids);
    assert.equal((await s.getRecord(key))?.response.InternalOrderId, ids[0], 'saveAndRelease did not save the reply');
    assert.equal(await s.findOrderId(ids[0]), o, 'saveAndRelease did not keep the merchant order ids');
    const next = await full(await twin()).acquire(o, { waitMs: 1_000, leaseMs: 5_000 });
    assert.ok(next, 'saveAndRelease did not release the lock');
    await next.release();
    assert.equal((await s.beginAttempt(key, o)).previousAttempt, undefined, 'saveAndRelease did not end the attempt cleanly');
  } },

  { capability: 'activeHolds', name: 'countActiveHolds counts the holds still awaiting documents, in the whole store and under a prefix', body: async ({ store, twin, id }) => {
    const s = full(store);
    const p = id('H');
    const [a, b, c] = [`${p}-a`, `${p}-b`, `${p}-c`];
    const doc = (TrackingNumber: string) => ({ DocumentTypeCode: '11', TrackingNumber });
    const before = await s.countActiveHolds();
    assert.equal(await s.countActiveHolds({ prefix: p }), 0);
    await s.placeFulfilmentHold(a, [doc('T1')]);
    await s.placeFulfilmentHold(b, [doc('T2'), doc('T3')]);
    await s.recordDocuments(c, [doc('T4')]);
    assert.equal(await s.placeFulfilmentHold(c, [doc('T4')]), null); // received before the order: no hold
    assert.equal(await s.countActiveHolds({ prefix: p }), 2, 'countActiveHolds does not count the active holds under the prefix');
    assert.equal(await s.countActiveHolds(), before + 2, 'countActiveHolds() without a prefix does not count every active hold');
    assert.equal(await full(await twin()).countActiveHolds({ prefix: p }), 2, 'another instance over the same data counts other holds');
    assert.equal(await s.countActiveHolds({ prefix: `${p}_` }), 0, "'_' in a prefix must be a character, not a wildcard");
    await s.recordDocuments(b, [doc('T2')]);
    assert.equal(await s.countActiveHolds({ prefix: p }), 2, 'a hold still awaiting a document must count');
    await s.recordDocuments(b, [doc('T3')]);
    assert.equal(await s.countActiveHolds({ prefix: p }), 1, 'a hold released by its last document still counts');
    assert.equal(await s.countActiveHolds({ prefix: b }), 0);
    assert.equal(await s.countActiveHolds({ prefix: a }), 1);
    if (typeof store.releaseFulfilmentHold !== 'function') return;
    await s.releaseFulfilmentHold(a);
    assert.equal(await s.countActiveHolds({ prefix: p }), 0, 'a hold released by hand still counts');
  } },
];
