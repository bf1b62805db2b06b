/**
 * namespacedStore: a view of one store per shop. Same OrderId, key and merchant order id in two
 * namespaces are two different things; what comes back carries the caller's own ids.
 */
import { KitError } from 'crossborder-merchant-kit';
// store and client names from lib/ directly: they move to the /store and /client entry points (issue 27), the file stays valid either way
import { MemoryStore } from '../../lib/store/memory.js';
import { namespacedStore as viewOf } from '../../lib/store/namespace.js';
import type { FullStore } from './harness.js';

/** MemoryStore has every capability but batching, and so has its view. */
const namespacedStore = (store: MemoryStore, ns: string) => viewOf(store, ns) as FullStore;
import type { NewRecord } from '../../lib/store/types.js';

const record = (orderId: string, over: Partial<NewRecord> = {}): NewRecord => ({
  key: `sendOrderToMerchant:${orderId}:abc123`, callback: 'sendOrderToMerchant', orderId, hash: 'abc123',
  response: { Success: true, InternalOrderId: 'EU-1' } as NewRecord['response'], payment: false, ...over,
});
const LOCK = { waitMs: 50, leaseMs: 1000 };

describe('namespacedStore', () => {
  test('the same key and OrderId in two namespaces are separate records; each comes back with the caller\'s ids', async () => {
    const shared = new MemoryStore();
    const eu = namespacedStore(shared, 'eu');
    const us = namespacedStore(shared, 'us');
    await eu.saveRecord(record('GE1', { payment: true }));
    expect(await us.getRecord('sendOrderToMerchant:GE1:abc123')).toBeNull();
    expect(await us.getPayment('GE1')).toBeNull();
    expect(await us.getLatestRecord('GE1', 'sendOrderToMerchant')).toBeNull();
    expect(await eu.getRecord('sendOrderToMerchant:GE1:abc123')).toMatchObject({ key: 'sendOrderToMerchant:GE1:abc123', orderId: 'GE1', response: { InternalOrderId: 'EU-1' } });
    expect(await eu.getPayment('GE1')).toMatchObject({ orderId: 'GE1' });
    expect(await eu.getLatestRecord('GE1', 'sendOrderToMerchant')).toMatchObject({ orderId: 'GE1' });
    // the shared store holds it under the namespace, not under the bare id
    expect(await shared.getRecord('sendOrderToMerchant:GE1:abc123')).toBeNull();
    expect(await shared.getRecord('eu:sendOrderToMerchant:GE1:abc123')).toMatchObject({ orderId: 'eu:GE1' });
  });

  test('locks: one shop holding an OrderId does not block the other shop\'s same OrderId', async () => {
    const shared = new MemoryStore();
    const eu = namespacedStore(shared, 'eu');
    const us = namespacedStore(shared, 'us');
    const held = await eu.acquire('GE1', LOCK);
    expect(held).not.toBeNull();
    const other = await us.acquire('GE1', LOCK);
    expect(other).not.toBeNull();
    expect(await eu.acquire('GE1', LOCK)).toBeNull();
    await held!.release();
    await other!.release();
  });

  test('holds, attempts and merchant order ids are per namespace', async () => {
    const shared = new MemoryStore();
    const eu = namespacedStore(shared, 'eu');
    const us = namespacedStore(shared, 'us');
    expect(await eu.placeFulfilmentHold('GE1', [{ DocumentTypeCode: '11' }])).toMatchObject({ orderId: 'GE1', awaiting: [{ DocumentTypeCode: '11' }] });
    expect(await us.getFulfilmentHold('GE1')).toBeNull();
    expect(await eu.getFulfilmentHold('GE1')).toMatchObject({ orderId: 'GE1' });
    expect(await us.recordDocuments('GE1', [{ DocumentTypeCode: '11' }])).toBeNull();
    expect(await eu.getFulfilmentHold('GE1')).not.toBeNull();
    await eu.releaseFulfilmentHold('GE1');
    expect(await eu.getFulfilmentHold('GE1')).toBeNull();

    expect((await eu.beginAttempt('k', 'GE1')).attempt).toBe(1);
    expect((await us.beginAttempt('k', 'GE1')).attempt).toBe(1);
    expect((await eu.beginAttempt('k', 'GE1')).attempt).toBe(2);

    await eu.saveMerchantOrderIds('GE1', ['M-7']);
    await us.saveMerchantOrderIds('GE2', ['M-8']);
    expect(await eu.findOrderId('M-7')).toBe('GE1');
    expect(await us.findOrderId('M-7')).toBeNull();
    expect(await us.findOrderId('M-8')).toBe('GE2');
    expect(await eu.findOrderId('M-8')).toBeNull();
  });

  test('a batching lock (saveAndRelease, prefetched) and claimOrReplay are mapped too', async () => {
    let seen: unknown;
    const inner = new MemoryStore();
    // a store whose lock offers saveAndRelease and prefetched answers, over the MemoryStore's data
    const batching = {
      ...Object.fromEntries(['getRecord', 'getPayment', 'getLatestRecord', 'saveRecord', 'beginAttempt', 'endAttempt', 'placeFulfilmentHold', 'recordDocuments',
        'getFulfilmentHold', 'releaseFulfilmentHold', 'saveMerchantOrderIds', 'findOrderId'].map((m) => [m, (inner as any)[m].bind(inner)])),
      acquire: async (orderId: string, options: { prefetch?: { key: string } }) => {
        seen = { orderId, key: options.prefetch?.key };
        const lock = await inner.acquire(orderId, LOCK);
        return {
          recovered: false, release: () => lock!.release(),
          prefetched: { record: await inner.getRecord(options.prefetch!.key), payment: null, latest: null, hold: null },
          saveAndRelease: async (r: NewRecord, ids: readonly string[]) => { await inner.saveRecord(r); await inner.saveMerchantOrderIds(r.orderId, ids); await lock!.release(); },
        };
      },
      claimOrReplay: async (orderId: string, options: { prefetch: { key: string } }) => {
        const stored = await inner.getRecord(options.prefetch.key);
        return stored ? { stored: { record: stored, payment: null } } : { lock: (await inner.acquire(orderId, LOCK))! };
      },
    };
    const eu = namespacedStore(batching as never, 'eu');
    const prefetch = { key: 'sendOrderToMerchant:GE1:abc123', payment: false, latestOf: 'sendOrderToMerchant', beginAttempt: false };
    const lock = await eu.acquire('GE1', { ...LOCK, prefetch });
    expect(seen).toEqual({ orderId: 'eu:GE1', key: 'eu:sendOrderToMerchant:GE1:abc123' });
    await lock!.saveAndRelease!(record('GE1'), ['M-1']);
    expect(await inner.getRecord('eu:sendOrderToMerchant:GE1:abc123')).toMatchObject({ orderId: 'eu:GE1' });
    expect(await eu.findOrderId('M-1')).toBe('GE1');
    const again = await eu.acquire('GE1', { ...LOCK, prefetch });
    expect(again!.prefetched!.record).toMatchObject({ key: 'sendOrderToMerchant:GE1:abc123', orderId: 'GE1' });
    await again!.release();
    expect(await eu.claimOrReplay!('GE1', { ...LOCK, prefetch })).toEqual({ stored: { record: expect.objectContaining({ orderId: 'GE1', key: prefetch.key }), payment: null } });
    const us = namespacedStore(batching as never, 'us');
    const claim = await us.claimOrReplay!('GE1', { ...LOCK, prefetch });
    expect(claim?.lock).toBeDefined();
    await claim!.lock!.release();
  });

  test('only what the store implements is there; other members pass through', async () => {
    const minimal = { ...Object.fromEntries(['acquire', 'getRecord', 'saveRecord'].map((m) => [m, async () => null])), ping: async () => 'pong' };
    const view = namespacedStore(minimal as never, 'eu') as unknown as Record<string, unknown>;
    expect(typeof view.getRecord).toBe('function');
    expect(view.getPayment).toBeUndefined();
    expect(view.claimOrReplay).toBeUndefined();
    expect(await (view.ping as () => Promise<string>)()).toBe('pong');
    expect(view.namespace).toBe('eu');
  });

  test.each([[''], ['e u'], ['eu:1'], ['x'.repeat(65)], [7]])('namespace %p is refused at construction', (ns) => {
    expect(() => namespacedStore(new MemoryStore(), ns as string)).toThrow(KitError);
    expect(() => namespacedStore(new MemoryStore(), ns as string)).toThrow(/namespace must be 1 to 64 letters/);
  });

  test('something that is not a store is refused', () => {
    expect(() => namespacedStore({} as never, 'eu')).toThrow(/store must be a store/);
  });
});
