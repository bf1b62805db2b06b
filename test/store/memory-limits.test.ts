/**
 * MemoryStore at its limits: the ttl to the millisecond for every kind of entry (payments that make
 * room, attempts, merchant ids, the documents an order received), and which entry goes first when
 * `maxEntries` is reached (the one untouched the longest). Fake clock: each test sets the time.
 */
import { jest } from '@jest/globals';
import { MemoryStore, StoreFullError } from 'crossborder-merchant-kit/store';
import { record } from './harness.js';

const T0 = Date.UTC(2026, 3, 1, 10, 0, 0, 0);
const label = (ParcelCode: string) => ({ DocumentTypeCode: '4', ParcelCode });
const ead = { DocumentTypeCode: '11', TrackingNumber: 'TRK1' };

beforeEach(() => jest.useFakeTimers({ now: T0, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
afterEach(() => jest.useRealTimers());

describe('MemoryStore ttl, to the millisecond', () => {
  test('a payment blocks new work until its ttl has passed to the millisecond, then makes room', async () => {
    const store = new MemoryStore({ maxEntries: 1, ttl: 1_000 });
    jest.advanceTimersByTime(3);
    await store.saveRecord(record({ key: 'pay', orderId: 'P-1', payment: true }));
    jest.advanceTimersByTime(999);
    // Still live: a reply saved beside it is the one that goes, and no new work is taken.
    await store.saveRecord(record({ key: 'other', orderId: 'O-2' }));
    expect(await store.getRecord('other')).toBeNull();
    expect((await store.getPayment('P-1'))!.key).toBe('pay');
    const full = await store.beginAttempt('k-new', 'O-3').catch((e: unknown) => e as Error);
    expect(full).toBeInstanceOf(StoreFullError);
    expect([(full as Error).name, (full as Error).message])
      .toEqual(['StoreFullError', 'MemoryStore holds 1 successful payments (maxEntries) that may not be evicted before their ttl']);
    jest.advanceTimersByTime(1);
    expect(await store.beginAttempt('k-new', 'O-3')).toEqual({ attempt: 1 });
    expect(await store.getPayment('P-1')).toBeNull();
  });

  test('an attempt record lasts the ttl from its start, to the millisecond, with its start time exact', async () => {
    const store = new MemoryStore({ ttl: 1_000 });
    jest.advanceTimersByTime(250);
    await store.beginAttempt('k', 'O-1');
    await store.endAttempt('k', 'timeout');
    jest.advanceTimersByTime(999);
    expect(await store.beginAttempt('k', 'O-1')).toEqual({ attempt: 2, previousAttempt: { startedAt: new Date(T0 + 250), outcome: 'timeout' } });
    jest.advanceTimersByTime(999);
    expect(await store.beginAttempt('k', 'O-1')).toEqual({ attempt: 3, previousAttempt: { startedAt: new Date(T0 + 1_249), outcome: 'crashed' } });
    jest.advanceTimersByTime(1_000);
    expect(await store.beginAttempt('k', 'O-1')).toEqual({ attempt: 1 });
  });

  test('a merchant id is found until its ttl has passed to the millisecond', async () => {
    const store = new MemoryStore({ ttl: 1_000 });
    jest.advanceTimersByTime(40);
    await store.saveMerchantOrderIds('GE-1', ['INT-1']);
    jest.advanceTimersByTime(999);
    expect(await store.findOrderId('INT-1')).toBe('GE-1');
    jest.advanceTimersByTime(1);
    expect(await store.findOrderId('INT-1')).toBeNull();
    expect(await store.findOrderId('INT-1')).toBeNull();
  });

  test('documents received before their order are forgotten a ttl after the last of them; an active hold never', async () => {
    const store = new MemoryStore({ ttl: 1_000 });
    jest.advanceTimersByTime(7);
    await store.recordDocuments('E-1', [label('P1')]);
    await store.recordDocuments('E-2', [label('P2')]);
    await store.placeFulfilmentHold('H-1', [ead, label('P3')]);
    jest.advanceTimersByTime(999);
    expect(await store.placeFulfilmentHold('E-1', [label('P1')])).toBeNull(); // received 999 ms ago: counts
    jest.advanceTimersByTime(1);
    expect((await store.placeFulfilmentHold('E-2', [label('P2')]))!.awaiting).toEqual([label('P2')]); // forgotten
    jest.advanceTimersByTime(5_000);
    // The hold placed 6 s ago (six ttls) still awaits its documents and keeps its placing time.
    expect(await store.recordDocuments('H-1', [label('P3')])).toEqual({ orderId: 'H-1', awaiting: [ead], since: new Date(T0 + 7) });
  });
});

describe('MemoryStore eviction: the entry untouched the longest goes first', () => {
  test('documents received early: a store at maxEntries keeps them all; past it, the order touched the longest ago is forgotten', async () => {
    const store = new MemoryStore({ maxEntries: 2 });
    await store.recordDocuments('X-1', [label('A')]);
    await store.recordDocuments('X-2', [label('B')]);
    await store.recordDocuments('X-1', [label('A2')]); // X-1 touched again: X-2 is now the oldest
    await store.recordDocuments('X-3', [label('C')]);
    expect(await store.placeFulfilmentHold('X-1', [label('A'), label('A2')])).toBeNull();
    expect(await store.placeFulfilmentHold('X-3', [label('C')])).toBeNull();
    expect((await store.placeFulfilmentHold('X-2', [label('B')]))!.awaiting).toEqual([label('B')]);
  });

  test('past maxEntries only as many inactive entries go as needed, the oldest first', async () => {
    const store = new MemoryStore({ maxEntries: 2 });
    await store.placeFulfilmentHold('H', [ead]); // active: never evicted
    await store.recordDocuments('X-1', [label('A')]);
    await store.recordDocuments('X-2', [label('B')]); // X-1 goes
    expect(await store.placeFulfilmentHold('X-2', [label('B')])).toBeNull();
    expect((await store.getFulfilmentHold('H'))!.awaiting).toEqual([ead]);
    expect((await store.placeFulfilmentHold('X-1', [label('A')]))!.awaiting).toEqual([label('A')]);
  });

  test('a merchant id saved again counts as new: the one saved the longest ago goes first', async () => {
    const store = new MemoryStore({ maxEntries: 2 });
    await store.saveMerchantOrderIds('GE-1', ['INT-1']);
    await store.saveMerchantOrderIds('GE-2', ['INT-2']);
    await store.saveMerchantOrderIds('GE-1', ['INT-1']);
    await store.saveMerchantOrderIds('GE-3', ['INT-3']);
    expect(await store.findOrderId('INT-1')).toBe('GE-1');
    expect(await store.findOrderId('INT-3')).toBe('GE-3');
    expect(await store.findOrderId('INT-2')).toBeNull();
  });
});

describe('MemoryStore attempts and replies, edge cases', () => {
  test('ending an attempt that was never begun (or already evicted) changes nothing', async () => {
    const store = new MemoryStore();
    await expect(store.endAttempt('never', null)).resolves.toBeUndefined();
    await expect(store.endAttempt('never', 'timeout')).resolves.toBeUndefined();
    expect(await store.beginAttempt('never', 'O-1')).toEqual({ attempt: 1 });
  });

  test('an attempt that ends with an outcome is remembered even when a reply is stored for its key', async () => {
    const store = new MemoryStore({ maxEntries: 2 });
    await store.beginAttempt('k', 'O-1');
    await store.saveRecord(record({ key: 'k' }));
    await store.endAttempt('k', 'invalid-result');
    for (const key of ['x', 'y']) await store.saveRecord(record({ key, orderId: `O-${key}` })); // evict k's reply
    expect(await store.getRecord('k')).toBeNull();
    expect(await store.beginAttempt('k', 'O-1')).toEqual({ attempt: 2, previousAttempt: { startedAt: new Date(T0), outcome: 'invalid-result' } });
  });

  test('a clean end with the reply stored leaves no attempt: once that reply is evicted, a redelivery counts from 1', async () => {
    const store = new MemoryStore({ maxEntries: 2 });
    await store.beginAttempt('k', 'O-1');
    await store.saveRecord(record({ key: 'k' }));
    await store.endAttempt('k', null);
    for (const key of ['x', 'y']) await store.saveRecord(record({ key, orderId: `O-${key}` })); // evict k's reply
    expect(await store.beginAttempt('k', 'O-1')).toEqual({ attempt: 1 });
  });

  test("evicting an order's oldest reply from deep in its chain keeps the replies saved after it", async () => {
    const store = new MemoryStore({ maxEntries: 3 });
    await store.saveRecord(record({ key: 'a' }));
    await store.saveRecord(record({ key: 'b', callback: 'performOrderPayment', payment: true, response: { Success: true, PaymentAmount: '5.00' } }));
    await store.saveRecord(record({ key: 'c', callback: 'updateOrderStatus', response: { Success: true, StatusCode: 'x' } }));
    await store.saveRecord(record({ key: 'd', orderId: 'O-2' })); // evicts 'a', the oldest non-payment
    expect(await store.getRecord('a')).toBeNull();
    expect((await store.getPayment('O-1'))!.key).toBe('b');
    expect((await store.getLatestRecord('O-1', 'performOrderPayment'))!.key).toBe('b');
    expect((await store.getLatestRecord('O-1', 'updateOrderStatus'))!.key).toBe('c');
    expect(await store.getLatestRecord('O-1', 'sendOrderToMerchant')).toBeNull();
  });

  test("the reply's OrderId is returned as saved: another one kept, none added", async () => {
    const store = new MemoryStore();
    await store.saveRecord(record({ key: 'a', orderId: 'GE-1', response: { Success: true, OrderId: 'GE-other' } }));
    await store.saveRecord(record({ key: 'b', orderId: 'GE-1', response: { Success: true, InternalOrderId: 'INT-1' } }));
    await store.saveRecord(record({ key: 'c', orderId: 'GE-1', response: { Success: true, OrderId: 'GE-1' } }));
    expect((await store.getRecord('a'))!.response).toEqual({ Success: true, OrderId: 'GE-other' });
    expect((await store.getRecord('b'))!.response).toEqual({ Success: true, InternalOrderId: 'INT-1' });
    expect((await store.getRecord('c'))!.response).toEqual({ Success: true, OrderId: 'GE-1' });
  });
});
