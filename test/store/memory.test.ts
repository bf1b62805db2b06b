import { MemoryStore } from 'crossborder-merchant-kit';
import { storeContract, record } from './contract.js';
import { memoryFactory } from './harness.js';

describe('MemoryStore: the Store contract', () => {
  storeContract(memoryFactory);
});

describe('MemoryStore bounds', () => {
  test('keeps at most maxEntries replies, dropping the oldest first', async () => {
    const store = new MemoryStore({ maxEntries: 3 });
    for (let i = 1; i <= 5; i++) await store.saveRecord(record({ key: `k${i}`, orderId: `O-${i}`, payment: true }));
    expect(await store.getRecord('k1')).toBeNull();
    expect(await store.getRecord('k2')).toBeNull();
    expect(await store.getPayment('O-1')).toBeNull();
    for (const k of ['k3', 'k4', 'k5']) expect(await store.getRecord(k)).not.toBeNull();
    expect(await store.getPayment('O-5')).not.toBeNull();
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
