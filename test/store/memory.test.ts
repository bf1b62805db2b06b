import { inspect } from 'node:util';
import { jest } from '@jest/globals';
import { MemoryStore, StoreFullError, type Store } from 'crossborder-merchant-kit/store';
import { paymentOrder } from '../helpers/orders.js';
import { testKit } from '../helpers/kit.js';
import { record } from './harness.js';

// The Store contract: test/store/conformance.test.ts (the exported conformance suite).

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
    const t = testKit({ store });
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

/** The sizes of every Map/Set the store holds (whatever they are called): what its memory grows with. */
function collectionSizes(store: Store): number[] {
  return Object.values(store as unknown as Record<string, unknown>)
    .filter((v): v is Map<unknown, unknown> | Set<unknown> => v instanceof Map || v instanceof Set)
    .map((c) => c.size);
}

describe('MemoryStore footprint (one compact entry per reply)', () => {
  test('what is kept is a copy: changing the saved or the returned reply changes nothing stored', async () => {
    const store = new MemoryStore();
    const saved = record({ response: { Success: true, InternalOrderId: 'INT-1', Items: [{ Sku: 'A' }] } as never });
    await store.saveRecord(saved);
    (saved.response as unknown as { Items: Array<{ Sku: string }> }).Items[0].Sku = 'changed';
    saved.response.InternalOrderId = 'changed';
    const first = await store.getRecord(saved.key);
    expect(first!.response).toEqual({ Success: true, InternalOrderId: 'INT-1', Items: [{ Sku: 'A' }] });
    (first!.response as unknown as { Items: unknown[] }).Items.push('x');
    first!.createdAt.setTime(0);
    const again = await store.getRecord(saved.key);
    expect(again!.response).toEqual({ Success: true, InternalOrderId: 'INT-1', Items: [{ Sku: 'A' }] });
    expect(again!.createdAt.getTime()).toBeGreaterThan(0);
  });

  test('the hash comes back exactly, whether or not the key ends with it', async () => {
    const store = new MemoryStore();
    const hash = 'ab'.repeat(32);
    const cases = [
      { key: `sendOrderToMerchant:GE:1:${hash}`, orderId: 'GE:1', hash },
      { key: 'custom-key', orderId: 'O-2', hash },
      { key: `x:O-3:${hash}`, orderId: 'O-3', hash: `3:${hash}` },
      { key: `x:O-4:${hash}`, orderId: 'O-4', hash: hash.slice(1) },
      { key: 'x:O-5:', orderId: 'O-5', hash: '' },
      // Not the key's tail, though a ':' stands where the hash would start: kept as given.
      { key: 'a:bc', orderId: 'O-6', hash: 'xy' },
      { key: 'cb:a:b', orderId: 'O-7', hash: 'a:b' },
      { key: 'ab:cd:ef', orderId: 'O-8', hash: 'ab' },
    ];
    for (const c of cases) await store.saveRecord(record(c));
    for (const c of cases) expect(await store.getRecord(c.key)).toMatchObject(c);
  });

  test('the hash is kept once when the key ends with it (docs/stores.md: the key holds its hash)', async () => {
    const store = new MemoryStore();
    const hash = 'cd'.repeat(32);
    await store.saveRecord(record({ key: `sendOrderToMerchant:GE-1:${hash}`, orderId: 'GE-1', hash }));
    // Printed, a string kept on its own is quoted by itself: `'<hash>'`; the key prints as `'sendOrderToMerchant:GE-1:<hash>'`.
    expect(inspect(store, { depth: Infinity })).not.toContain(`'${hash}'`);
    await store.saveRecord(record({ key: 'custom-key', orderId: 'GE-2', hash: 'ef'.repeat(32) }));
    expect(inspect(store, { depth: Infinity })).toContain(`'${'ef'.repeat(32)}'`); // not in the key: kept apart
  });

  test('a key is found again exactly, whatever characters it holds (lone surrogates, non-Latin, emoji)', async () => {
    const store = new MemoryStore();
    const odd = ['O-\ud800x', 'O-\udfff', 'Zürich-東京-😀', 'O-\u0000-end'];
    for (const [i, id] of odd.entries()) await store.saveRecord(record({ key: `sendOrderToMerchant:${id}:h${i}`, orderId: id, hash: `h${i}`, response: { Success: true, OrderId: id } }));
    for (const [i, id] of odd.entries()) {
      const key = ['sendOrderToMerchant', id, `h${i}`].join(':'); // built apart from the saved string
      const got = await store.getRecord(key);
      expect(got).toMatchObject({ key, orderId: id, hash: `h${i}`, response: { OrderId: id } });
      expect((await store.getLatestRecord(id, 'sendOrderToMerchant'))!.key).toBe(key);
    }
    expect(await store.getRecord('sendOrderToMerchant:O-\ud801x:h0')).toBeNull();
  });

  test('createdAt and expiresAt are the save time and the save time plus the ttl, to the millisecond', async () => {
    jest.useFakeTimers({ now: Date.UTC(2026, 5, 1, 12, 0, 0, 123), doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const store = new MemoryStore({ ttl: '2d' });
      jest.setSystemTime(Date.UTC(2026, 5, 3, 8, 30, 0, 7));
      await store.saveRecord(record());
      const got = await store.getRecord(record().key);
      expect(got!.createdAt.toISOString()).toBe('2026-06-03T08:30:00.007Z');
      expect(got!.expiresAt.toISOString()).toBe('2026-06-05T08:30:00.007Z');
      jest.setSystemTime(Date.UTC(2026, 5, 5, 8, 30, 0, 6));
      expect(await store.getRecord(record().key)).not.toBeNull();
      jest.setSystemTime(Date.UTC(2026, 5, 5, 8, 30, 0, 7));
      expect(await store.getRecord(record().key)).toBeNull();
    } finally {
      jest.useRealTimers();
    }
  });

  test('getPayment: the first live payment of the order, also after earlier ones expired', async () => {
    jest.useFakeTimers({ now: Date.UTC(2026, 0, 1), doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const store = new MemoryStore({ ttl: 1_000 });
      const pay = (n: number) => record({ key: `performOrderPayment:O-1:p${n}`, callback: 'performOrderPayment', hash: `p${n}`, payment: true, response: { Success: true, PaymentAmount: `${n}.00` } });
      await store.saveRecord(pay(1));
      jest.advanceTimersByTime(500);
      await store.saveRecord(record({ key: 'updateOrderStatus:O-1:u', callback: 'updateOrderStatus', hash: 'u' }));
      await store.saveRecord(pay(2));
      expect((await store.getPayment('O-1'))!.response.PaymentAmount).toBe('1.00');
      jest.advanceTimersByTime(600);
      expect((await store.getPayment('O-1'))!.response.PaymentAmount).toBe('2.00');
      jest.advanceTimersByTime(1_000);
      expect(await store.getPayment('O-1')).toBeNull();
      expect(await store.getLatestRecord('O-1', 'updateOrderStatus')).toBeNull();
    } finally {
      jest.useRealTimers();
    }
  });

  test('a reply evicted from the middle of an order keeps the others found (latest of each callback, payment)', async () => {
    const store = new MemoryStore({ maxEntries: 3 });
    await store.saveRecord(record({ key: 'create-paid', payment: true, response: { Success: true, InternalOrderId: 'paid' } }));
    await store.saveRecord(record({ key: 'create-update', response: { Success: true, InternalOrderId: 'update' } }));
    await store.saveRecord(record({ key: 'status', callback: 'updateOrderStatus', response: { Success: true, StatusCode: 's' } }));
    await store.saveRecord(record({ key: 'other', orderId: 'O-2' })); // evicts 'create-update', the oldest non-payment
    expect(await store.getRecord('create-update')).toBeNull();
    expect((await store.getLatestRecord('O-1', 'sendOrderToMerchant'))!.response.InternalOrderId).toBe('paid');
    expect((await store.getLatestRecord('O-1', 'updateOrderStatus'))!.response.StatusCode).toBe('s');
    expect((await store.getPayment('O-1'))!.key).toBe('create-paid');
    await store.saveRecord(record({ key: 'other-2', orderId: 'O-3' })); // evicts 'status'
    expect(await store.getLatestRecord('O-1', 'updateOrderStatus')).toBeNull();
    expect((await store.getLatestRecord('O-1', 'sendOrderToMerchant'))!.key).toBe('create-paid');
  });

  test('an attempt whose reply is stored leaves no attempt record; a declined one is still counted', async () => {
    const store = new MemoryStore({ maxEntries: 1 });
    expect(await store.beginAttempt('k-ok', 'O-1')).toEqual({ attempt: 1 });
    await store.saveRecord(record({ key: 'k-ok' }));
    await store.endAttempt('k-ok', null);
    expect(await store.beginAttempt('k-declined', 'O-2')).toEqual({ attempt: 1 }); // evicts k-ok's reply (maxEntries 1)
    await store.endAttempt('k-declined', null);
    expect(await store.beginAttempt('k-declined', 'O-2')).toEqual({ attempt: 2 });
    // k-ok's reply was evicted: a redelivery runs again, counted from 1 (its reply stood for its attempts).
    expect(await store.beginAttempt('k-ok', 'O-1')).toEqual({ attempt: 1 });
  });

  test('holds keep copies: changing the documents passed in, or the hold returned, changes nothing stored', async () => {
    const store = new MemoryStore();
    const early = [{ DocumentTypeCode: '4', ParcelCode: 'P1' }];
    await store.recordDocuments('O-1', early);
    early[0].ParcelCode = 'changed';
    const required = [{ DocumentTypeCode: '11', TrackingNumber: 'TRK1' }, { DocumentTypeCode: '4', ParcelCode: 'P1' }];
    const placed = await store.placeFulfilmentHold('O-1', required);
    expect(placed!.awaiting).toEqual([{ DocumentTypeCode: '11', TrackingNumber: 'TRK1' }]); // P1 counted as received before
    required[0].TrackingNumber = 'changed';
    placed!.awaiting[0].TrackingNumber = 'changed too';
    placed!.since.setTime(0);
    const again = await store.getFulfilmentHold('O-1');
    expect(again).toEqual({ orderId: 'O-1', awaiting: [{ DocumentTypeCode: '11', TrackingNumber: 'TRK1' }], since: expect.any(Date) });
    expect(again!.since.getTime()).toBeGreaterThan(0);
    expect(await store.recordDocuments('O-1', [{ DocumentTypeCode: '11', TrackingNumber: 'TRK1' }])).toBeNull();
    expect(await store.placeFulfilmentHold('O-1', [{ DocumentTypeCode: '4', ParcelCode: 'P1' }])).toBeNull(); // still received
  });

  test('a hold placed with nothing received yet takes documents later, and keeps its placing time to the millisecond', async () => {
    jest.useFakeTimers({ now: Date.UTC(2026, 2, 1, 0, 0, 0, 1), doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const store = new MemoryStore();
      jest.setSystemTime(Date.UTC(2026, 2, 1, 9, 0, 0, 42));
      await store.placeFulfilmentHold('O-9', [{ DocumentTypeCode: '11' }, { DocumentTypeCode: '4' }]);
      jest.setSystemTime(Date.UTC(2026, 2, 2));
      const partly = await store.recordDocuments('O-9', [{ DocumentTypeCode: '4' }]);
      expect(partly!.since.toISOString()).toBe('2026-03-01T09:00:00.042Z');
      await store.releaseFulfilmentHold('O-9');
      expect(await store.getFulfilmentHold('O-9')).toBeNull();
      expect((await store.placeFulfilmentHold('O-9', [{ DocumentTypeCode: '4' }, { DocumentTypeCode: '1' }]))!.awaiting).toEqual([{ DocumentTypeCode: '1' }]);
    } finally {
      jest.useRealTimers();
    }
  });

  test('nothing it keeps grows past maxEntries, however many orders pass through', async () => {
    const store = new MemoryStore({ maxEntries: 50 });
    for (let i = 0; i < 1_000; i++) {
      const key = `sendOrderToMerchant:GE-${i}:${i.toString(16).padStart(64, '0')}`;
      const lock = await store.acquire(`GE-${i}`, { waitMs: 100, leaseMs: 1_000 });
      await store.beginAttempt(key, `GE-${i}`);
      await store.saveRecord(record({ key, orderId: `GE-${i}`, payment: i % 10 === 0 && i >= 950, response: { Success: true, InternalOrderId: `INT-${i}`, OrderId: `GE-${i}` } }));
      await store.endAttempt(key, null);
      await store.saveMerchantOrderIds(`GE-${i}`, [`INT-${i}`, `GE-${i}`]);
      if (i % 3 === 0) await store.beginAttempt(`declined-${i}`, `GE-${i}`);
      await lock!.release();
    }
    const sizes = collectionSizes(store);
    expect(sizes.length).toBeGreaterThan(3);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(50);
    expect(await store.findOrderId('INT-999')).toBe('GE-999');
    expect(await store.findOrderId('GE-999')).toBe('GE-999');
    expect((await store.getLatestRecord('GE-999', 'sendOrderToMerchant'))!.response.OrderId).toBe('GE-999');
  });
});

describe('MemoryStore eviction order, full for a long time', () => {
  test('keeps exactly the newest replies, attempts and merchant ids after thousands of evictions', async () => {
    const max = 40;
    const store = new MemoryStore({ maxEntries: max });
    const total = 3_000;
    for (let i = 0; i < total; i++) {
      const key = `sendOrderToMerchant:GE-${i}:h${i}`;
      await store.beginAttempt(key, `GE-${i}`);
      if (i % 5 === 0) await store.beginAttempt(key, `GE-${i}`); // begun again: counts as the newest
      await store.saveRecord(record({ key, orderId: `GE-${i}`, response: { Success: true, InternalOrderId: `INT-${i}`, OrderId: `GE-${i}` } }));
      await store.saveMerchantOrderIds(`GE-${i}`, [`INT-${i}`]);
      await store.beginAttempt(`declined-${i}`, `GE-${i}`); // an attempt without a reply
    }
    for (let i = 0; i < total; i++) {
      // The last beginAttempt made room for its own reply: max - 1 replies remain.
      expect(await store.getRecord(`sendOrderToMerchant:GE-${i}:h${i}`) !== null).toBe(i >= total - (max - 1));
      expect(await store.findOrderId(`INT-${i}`)).toBe(i >= total - max ? `GE-${i}` : null);
    }
    // The newest `max` attempt records are kept: two per order (its key's, still running, and the
    // declined one), so those of the last 20 orders; an older declined key starts again at 1.
    expect(await store.beginAttempt(`declined-${total - 1}`, 'x')).toMatchObject({ attempt: 2 });
    expect(await store.beginAttempt(`declined-${total - 20}`, 'x')).toMatchObject({ attempt: 2 });
    expect(await store.beginAttempt(`declined-${total - 21}`, 'x')).toEqual({ attempt: 1 });
  });
});
