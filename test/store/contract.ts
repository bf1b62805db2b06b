/**
 * The Store contract, run against every store (memory.test.ts, postgres.pg.test.ts): replies,
 * payments, expiry, the per-OrderId lock (waiting, timing out, leases, two instances) and holds.
 */
import type { NewRecord, Store } from 'crossborder-merchant-kit';
import type { FullStore, StoreFactory, StoreHarness } from './harness.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function record(overrides: Partial<NewRecord> = {}): NewRecord {
  return {
    key: 'sendOrderToMerchant:O-1:aaa', callback: 'sendOrderToMerchant', orderId: 'O-1', hash: 'aaa',
    response: { Success: true, InternalOrderId: 'INT-1' }, payment: false, ...overrides,
  };
}

const LOCK = { waitMs: 2000, leaseMs: 5000 };

export function storeContract(factory: StoreFactory): void {
  let h: StoreHarness;
  let store: FullStore;
  beforeEach(async () => {
    h = await factory();
    store = h.store;
  });

  describe('replies', () => {
    test('a saved reply is found by its key; another key finds nothing', async () => {
      await store.saveRecord(record());
      const got = await store.getRecord('sendOrderToMerchant:O-1:aaa');
      expect(got).toMatchObject({ key: 'sendOrderToMerchant:O-1:aaa', orderId: 'O-1', hash: 'aaa', payment: false, response: { Success: true, InternalOrderId: 'INT-1' } });
      expect(got!.createdAt).toBeInstanceOf(Date);
      expect(got!.expiresAt.getTime()).toBeGreaterThan(got!.createdAt.getTime());
      expect(await store.getRecord('sendOrderToMerchant:O-1:bbb')).toBeNull();
    });

    test('the first reply saved under a key is kept', async () => {
      await store.saveRecord(record());
      await store.saveRecord(record({ response: { Success: true, InternalOrderId: 'INT-2' } }));
      expect((await store.getRecord('sendOrderToMerchant:O-1:aaa'))!.response.InternalOrderId).toBe('INT-1');
    });

    test('getLatestRecord gives the latest reply of a callback for an OrderId', async () => {
      await store.saveRecord(record());
      await store.saveRecord(record({ key: 'sendOrderToMerchant:O-1:bbb', hash: 'bbb', response: { Success: true, InternalOrderId: 'INT-2' } }));
      await store.saveRecord(record({ key: 'updateOrderStatus:O-1:ccc', callback: 'updateOrderStatus', hash: 'ccc', response: { Success: true, StatusCode: 'x' } }));
      expect((await store.getLatestRecord('O-1', 'sendOrderToMerchant'))!.response.InternalOrderId).toBe('INT-2');
      expect((await store.getLatestRecord('O-1', 'updateOrderStatus'))!.response.StatusCode).toBe('x');
      expect(await store.getLatestRecord('O-2', 'sendOrderToMerchant')).toBeNull();
    });

    test('getPayment gives the first successful payment of the OrderId only', async () => {
      await store.saveRecord(record());
      expect(await store.getPayment('O-1')).toBeNull();
      await store.saveRecord(record({ key: 'performOrderPayment:O-1:p1', callback: 'performOrderPayment', hash: 'p1', payment: true, response: { Success: true, PaymentAmount: '10.00' } }));
      await store.saveRecord(record({ key: 'performOrderPayment:O-1:p2', callback: 'performOrderPayment', hash: 'p2', payment: true, response: { Success: true, PaymentAmount: '99.00' } }));
      expect((await store.getPayment('O-1'))!.response.PaymentAmount).toBe('10.00');
      expect(await store.getPayment('O-2')).toBeNull();
    });

    test('replies expire after the ttl', async () => {
      const short = h.withTtl(150);
      await short.saveRecord(record({ key: 'k-ttl', payment: true }));
      expect(await short.getRecord('k-ttl')).not.toBeNull();
      await sleep(300);
      expect(await short.getRecord('k-ttl')).toBeNull();
      expect(await short.getPayment('O-1')).toBeNull();
      await short.saveRecord(record({ key: 'k-ttl', response: { Success: true, InternalOrderId: 'again' } }));
      expect((await short.getRecord('k-ttl'))!.response.InternalOrderId).toBe('again');
    });
  });

  describe('per-OrderId lock', () => {
    test('a second acquire waits for the release', async () => {
      const first = await store.acquire('O-1', LOCK);
      expect(first).not.toBeNull();
      let second: Awaited<ReturnType<Store['acquire']>> | undefined;
      const pending = store.acquire('O-1', LOCK).then((l) => { second = l; return l; });
      await sleep(100);
      expect(second).toBeUndefined();
      await first!.release();
      expect(await pending).not.toBeNull();
      expect(second!.recovered).toBe(false);
      await second!.release();
    });

    test('another OrderId is not blocked', async () => {
      const a = await store.acquire('O-1', LOCK);
      const b = await store.acquire('O-2', { waitMs: 200, leaseMs: 5000 });
      expect(b).not.toBeNull();
      await a!.release();
      await b!.release();
    });

    test('acquire gives up after waitMs (null) and the holder keeps the lock', async () => {
      const first = await store.acquire('O-1', LOCK);
      expect(await store.acquire('O-1', { waitMs: 150, leaseMs: 5000 })).toBeNull();
      expect(await h.twin().acquire('O-1', { waitMs: 150, leaseMs: 5000 })).toBeNull();
      await first!.release();
      const again = await store.acquire('O-1', { waitMs: 500, leaseMs: 5000 });
      expect(again).not.toBeNull();
      await again!.release();
    });

    test('a holder that never releases (a crash) blocks no longer than its lease', async () => {
      const crashed = await h.twin().acquire('O-1', { waitMs: 1000, leaseMs: 300 });
      expect(crashed).not.toBeNull();
      const next = await store.acquire('O-1', { waitMs: 3000, leaseMs: 5000 });
      expect(next).not.toBeNull();
      expect(next!.recovered).toBe(true);
      await next!.release();
      await crashed!.release();
      const after = await store.acquire('O-1', { waitMs: 200, leaseMs: 5000 });
      expect(after).not.toBeNull();
      await after!.release();
    });

    test('holders never overlap, also across two instances', async () => {
      const stores = [store, h.twin()];
      let inside = 0;
      let maxInside = 0;
      let done = 0;
      await Promise.all(Array.from({ length: 24 }, async (_, i) => {
        const lock = await stores[i % 2].acquire('O-race', { waitMs: 20_000, leaseMs: 20_000 });
        expect(lock).not.toBeNull();
        inside++;
        maxInside = Math.max(maxInside, inside);
        await sleep(2);
        inside--;
        done++;
        await lock!.release();
      }));
      expect(done).toBe(24);
      expect(maxInside).toBe(1);
    });
  });

  describe('attempts', () => {
    test('counts attempts per key and reports how the previous one ended', async () => {
      expect(await store.beginAttempt('k-a', 'O-1')).toEqual({ attempt: 1 });
      await store.endAttempt('k-a', null);
      expect(await store.beginAttempt('k-a', 'O-1')).toEqual({ attempt: 2 });
      await store.endAttempt('k-a', 'unsaved');
      const third = await store.beginAttempt('k-a', 'O-1');
      expect(third).toEqual({ attempt: 3, previousAttempt: { outcome: 'unsaved', startedAt: expect.any(Date) } });
      for (const outcome of ['timeout', 'invalid-result'] as const) {
        await store.endAttempt('k-a', outcome);
        expect((await store.beginAttempt('k-a', 'O-1')).previousAttempt!.outcome).toBe(outcome);
      }
      expect(await store.beginAttempt('k-b', 'O-1')).toEqual({ attempt: 1 });
    });

    test("an attempt that never ended is 'crashed', with its start time, also seen from another instance", async () => {
      const before = Date.now();
      await store.beginAttempt('k-c', 'O-1');
      const next = await h.twin().beginAttempt('k-c', 'O-1');
      expect(next.attempt).toBe(2);
      expect(next.previousAttempt!.outcome).toBe('crashed');
      expect(Math.abs(next.previousAttempt!.startedAt.getTime() - before)).toBeLessThan(5_000);
    });

    test('attempt records expire after the ttl', async () => {
      const short = h.withTtl(150);
      await short.beginAttempt('k-t', 'O-1');
      await sleep(300);
      expect(await short.beginAttempt('k-t', 'O-1')).toEqual({ attempt: 1 });
    });
  });

  describe('fulfilment holds', () => {
    const ead = { DocumentTypeCode: '11', TrackingNumber: 'TRK1' };
    const label = { DocumentTypeCode: '4', ParcelCode: 'P1' };

    test('no hold for an unknown order', async () => {
      expect(await store.getFulfilmentHold('nope')).toBeNull();
    });

    test('placed, partly and then fully released by documents', async () => {
      const placed = await store.placeFulfilmentHold('O-1', [ead, label]);
      expect(placed).toEqual({ orderId: 'O-1', awaiting: [ead, label], since: expect.any(Date) });
      expect(await h.twin().getFulfilmentHold('O-1')).toEqual(placed);
      const partial = await store.recordDocuments('O-1', [{ DocumentTypeCode: '4', ParcelCode: 'P2' }, { DocumentTypeCode: '11', TrackingNumber: 'TRK1' }]);
      expect(partial).toEqual({ orderId: 'O-1', awaiting: [label], since: placed!.since });
      expect(await store.recordDocuments('O-1', [{ DocumentTypeCode: '4', ParcelCode: 'p1', TrackingNumber: 'X' }])).toBeNull();
      expect(await store.getFulfilmentHold('O-1')).toBeNull();
    });

    test('documents received before the order count when it arrives', async () => {
      expect(await store.recordDocuments('O-1', [ead])).toBeNull();
      expect(await store.getFulfilmentHold('O-1')).toBeNull();
      const hold = await store.placeFulfilmentHold('O-1', [ead, label]);
      expect(hold!.awaiting).toEqual([label]);
      expect(await store.placeFulfilmentHold('O-2', [ead])).not.toBeNull();
      await store.recordDocuments('O-3', [ead, label]);
      expect(await store.placeFulfilmentHold('O-3', [ead, label])).toBeNull();
    });

    test('an order update replaces the awaited list and keeps the time it was placed', async () => {
      const first = await store.placeFulfilmentHold('O-1', [ead]);
      const second = await store.placeFulfilmentHold('O-1', [label]);
      expect(second).toEqual({ orderId: 'O-1', awaiting: [label], since: first!.since });
    });

    test('released by hand', async () => {
      await store.placeFulfilmentHold('O-1', [ead]);
      await store.releaseFulfilmentHold('O-1');
      expect(await store.getFulfilmentHold('O-1')).toBeNull();
      await store.releaseFulfilmentHold('O-unknown');
    });

    test('concurrent document deliveries from two instances all count', async () => {
      const docs = Array.from({ length: 10 }, (_, i) => ({ DocumentTypeCode: '4', ParcelCode: `P${i}` }));
      await store.placeFulfilmentHold('O-1', docs);
      await Promise.all(docs.map((d, i) => (i % 2 ? h.twin() : store).recordDocuments('O-1', [d])));
      expect(await store.getFulfilmentHold('O-1')).toBeNull();
    });
  });

  describe('merchant order ids', () => {
    test('an order is found by each of its merchant ids, also from another instance', async () => {
      expect(await store.findOrderId('INT-1')).toBeNull();
      await store.saveMerchantOrderIds('O-1', ['INT-1', '1001']);
      expect(await store.findOrderId('INT-1')).toBe('O-1');
      expect(await h.twin().findOrderId('1001')).toBe('O-1');
      expect(await store.findOrderId('int-1')).toBeNull();
      await store.saveMerchantOrderIds('O-2', []);
    });

    test('the latest order saved for an id wins; ids repeated in one call are fine', async () => {
      await store.saveMerchantOrderIds('O-1', ['1001', 'INT-1']);
      await store.saveMerchantOrderIds('O-2', ['1001', '1001']);
      expect(await store.findOrderId('1001')).toBe('O-2');
      expect(await store.findOrderId('INT-1')).toBe('O-1');
    });

    test('ids expire after the ttl', async () => {
      const short = h.withTtl(150);
      await short.saveMerchantOrderIds('O-1', ['INT-ttl']);
      expect(await short.findOrderId('INT-ttl')).toBe('O-1');
      await sleep(300);
      expect(await short.findOrderId('INT-ttl')).toBeNull();
    });
  });
}
