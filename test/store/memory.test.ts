import { MemoryStore, StoreFullError } from 'crossborder-merchant-kit';
import { paymentOrder } from '../helpers/orders.js';
import { kitWith } from '../idempotency/harness.js';
import { storeContract, record } from './contract.js';
import { memoryFactory } from './harness.js';

describe('MemoryStore: the Store contract', () => {
  storeContract(memoryFactory);
});

describe('MemoryStore bounds', () => {
  test('past maxEntries the oldest non-payment replies go first; a successful payment is never evicted before its ttl', async () => {
    const store = new MemoryStore({ maxEntries: 3 });
    await store.saveRecord(record({ key: 'p1', orderId: 'P-1', payment: true }));
    for (let i = 1; i <= 4; i++) await store.saveRecord(record({ key: `k${i}`, orderId: `O-${i}` }));
    await store.saveRecord(record({ key: 'p2', orderId: 'P-2', payment: true }));
    expect(await store.getPayment('P-1')).not.toBeNull();
    expect(await store.getPayment('P-2')).not.toBeNull();
    for (const k of ['k1', 'k2', 'k3']) expect(await store.getRecord(k)).toBeNull();
    expect(await store.getRecord('k4')).not.toBeNull();
  });

  test('full of live payments: beginAttempt refuses new work (the kit answers 503) rather than forget one', async () => {
    const store = new MemoryStore({ maxEntries: 2 });
    for (let i = 1; i <= 2; i++) await store.saveRecord(record({ key: `p${i}`, orderId: `P-${i}`, payment: true }));
    await expect(store.beginAttempt('k-new', 'O-new')).rejects.toThrow(StoreFullError);
    const t = kitWith(store);
    const res = await t.deliver('performOrderPayment', paymentOrder());
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ ErrorCode: 'STORE_UNAVAILABLE' });
    expect(t.calls('performOrderPayment')).toHaveLength(0);
    // The stored payments are still replayed.
    expect((await t.deliver('performOrderPayment', paymentOrder({ OrderId: 'P-1' }))).headers['idempotency-replayed']).toBe('true');
  });

  test('expired payments make room again', async () => {
    const store = new MemoryStore({ maxEntries: 2, ttl: 100 });
    for (let i = 1; i <= 2; i++) await store.saveRecord(record({ key: `p${i}`, orderId: `P-${i}`, payment: true }));
    await new Promise((r) => setTimeout(r, 200));
    expect(await store.beginAttempt('k-new', 'O-new')).toEqual({ attempt: 1 });
  });

  test('never evicts an active hold, even past maxEntries', async () => {
    const store = new MemoryStore({ maxEntries: 2 });
    await store.placeFulfilmentHold('held', [{ DocumentTypeCode: '11' }]);
    for (let i = 0; i < 5; i++) await store.recordDocuments(`early-${i}`, [{ DocumentTypeCode: '4' }]);
    expect(await store.getFulfilmentHold('held')).not.toBeNull();
  });

  test('accepts ttl as a duration string', () => {
    expect(new MemoryStore({ ttl: '12h' }).ttlMs).toBe(12 * 3_600_000);
    expect(new MemoryStore().ttlMs).toBe(30 * 86_400_000);
  });
});
