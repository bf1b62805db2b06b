/**
 * A store with the required core only (examples/custom-store/map-store.ts) behind the kit: exactly
 * once, payments once per OrderId, holds and the client's hold guard all hold; what an absent
 * capability gives up is absent, not wrong (docs/stores.md, "Capabilities"). And the checks the kit
 * makes of a store when it is built.
 */
import { inspect } from 'node:util';
import { createCallbackKit } from 'crossborder-merchant-kit';
import { MemoryStore, type AcquireOptions, type Claim, type ClaimOptions, type NewRecord, type Store, type StoreLock } from 'crossborder-merchant-kit/store';
import { MapStore } from '../../examples/custom-store/map-store.js';
import { fakeService, type FakeService } from '../client/fake-service.js';
import { clientFor, failure } from '../client/setup.js';
import { MERCHANT_GUID, documentsDelivery, order, paymentDetails, paymentOrder, statusUpdate } from '../helpers/orders.js';
import { recordingAdapter } from '../helpers/recording.js';
import { testKit } from '../helpers/kit.js';
import { idempotencyBehaviour } from '../idempotency/behaviour.js';
import { holdsBehaviour } from '../idempotency/holds-behaviour.js';
import type { FullStore, StoreFactory } from './harness.js';

/** The core-only store in the harness the kit's shared behaviour suites take (they call only core methods when coreOnly). */
const mapFactory: StoreFactory = async () => {
  const store = new MapStore() as unknown as FullStore;
  return { store, twin: () => store, scan: async () => inspect(store, { depth: Infinity }), withTtl: (ms) => new MapStore({ ttlMs: ms }) as unknown as FullStore };
};

describe("the kit's exactly-once and holds suites over a core-only store", () => {
  idempotencyBehaviour(mapFactory, { coreOnly: true });
  holdsBehaviour(mapFactory, { coreOnly: true });
});

describe('the kit over a core-only store', () => {
  test('an order delivered twice reaches the adapter once; the retry gets the stored reply', async () => {
    const t = testKit({ store: new MapStore() });
    const first = await t.deliver('sendOrderToMerchant', order());
    const again = await t.deliver('sendOrderToMerchant', order());
    expect(first.status).toBe(200);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(t.calls('sendOrderToMerchant')).toHaveLength(1);
  });

  test('a payment succeeds once per OrderId, whatever the later payload (the kit keeps its copy under ~payment:<OrderId>)', async () => {
    const store = new MapStore();
    let charges = 0;
    const t = testKit({ store, answers: { performOrderPayment: () => ({ InternalOrderId: 'A-1', PaymentAmount: `${++charges}0.00`, PaymentCurrencyCode: 'EUR' }) } });
    const paid = await t.deliver('performOrderPayment', paymentOrder());
    const other = await t.deliver('performOrderPayment', paymentOrder({ PaymentDetails: paymentDetails({ CardNumber: '5555555555554444' }), CurrencyCode: 'CHF' }));
    expect(other.body).toEqual(paid.body);
    expect(charges).toBe(1);
    expect((await store.getRecord('~payment:GE1001CH'))?.response).toEqual(paid.body);
  });

  test('concurrent deliveries of one payment charge once', async () => {
    let charges = 0;
    const t = testKit({ store: new MapStore(), answers: { performOrderPayment: async () => { charges++; await new Promise((r) => setTimeout(r, 20)); return { InternalOrderId: 'A-1', PaymentAmount: '1.00', PaymentCurrencyCode: 'EUR' }; } } });
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => t.deliver('performOrderPayment', paymentOrder({ CustomerComments: `try ${i % 2}` }))));
    for (const r of replies) expect(r.body).toEqual(replies[0].body);
    expect(charges).toBe(1);
  });

  test('batching members on a store without every capability are ignored: payments stay once per OrderId', async () => {
    // Locks with saveAndRelease and a claimOrReplay that never looks for the order's payment: used, they would let a second charge through.
    class HalfBatching extends MapStore {
      override async acquire(orderId: string, options: AcquireOptions): Promise<StoreLock | null> {
        const lock = await super.acquire(orderId, options);
        return lock && { ...lock, recovered: lock.recovered, saveAndRelease: async (record: NewRecord) => { await this.saveRecord(record); await lock.release(); } };
      }
      async claimOrReplay(orderId: string, options: ClaimOptions): Promise<Claim | null> {
        const record = await this.getRecord(options.prefetch.key);
        if (record) return { stored: { record, payment: null } };
        const lock = await this.acquire(orderId, options);
        return lock && { lock };
      }
    }
    let charges = 0;
    const t = testKit({ store: new HalfBatching(), answers: { performOrderPayment: () => ({ InternalOrderId: 'A-1', PaymentAmount: `${++charges}0.00`, PaymentCurrencyCode: 'EUR' }) } });
    const paid = await t.deliver('performOrderPayment', paymentOrder());
    const other = await t.deliver('performOrderPayment', paymentOrder({ CurrencyCode: 'CHF' }));
    expect(other.body).toEqual(paid.body);
    expect(charges).toBe(1);
  });

  test('without attempts and latest, adapters get no context.attempt, previousAttempt or previous', async () => {
    const t = testKit({ store: new MapStore() });
    await t.deliver('sendOrderToMerchant', order());
    await t.deliver('updateOrderStatus', statusUpdate('canceled'));
    for (const call of [...t.calls('sendOrderToMerchant'), ...t.calls('updateOrderStatus')]) {
      expect(call.context.idempotencyKey).toMatch(/:GE1001CH:/);
      expect(call.context).not.toHaveProperty('attempt');
      expect(call.context).not.toHaveProperty('previousAttempt');
      expect(call.context).not.toHaveProperty('previous');
    }
    // A full store gives them, from the same deliveries.
    const full = testKit({ store: new MemoryStore() });
    await full.deliver('sendOrderToMerchant', order());
    await full.deliver('updateOrderStatus', statusUpdate('canceled'));
    expect(full.calls('updateOrderStatus')[0].context).toMatchObject({ attempt: 1, previous: { Success: true } });
  });

  test('a hold placed by the order is released by the documents webhook', async () => {
    const store = new MapStore();
    const t = testKit({ store });
    await t.deliver('sendOrderToMerchant', order({ AdditionalRequiredDocuments: [{ DocumentTypeCode: '11', DocumentTypeName: 'EAD', TrackingNumber: 'TRK123' }] }));
    expect(await store.getFulfilmentHold('GE1001CH')).toMatchObject({ awaiting: [{ DocumentTypeCode: '11', TrackingNumber: 'TRK123' }] });
    expect((await t.deliver('receiveAdditionalRequiredDocuments', documentsDelivery())).status).toBe(200);
    expect(await store.getFulfilmentHold('GE1001CH')).toBeNull();
  });
});

describe("the client's hold guard over a core-only store (no findOrderId)", () => {
  let svc: FakeService;
  beforeEach(async () => { svc = await fakeService(() => ({ status: 200, body: { Success: true, Reason: 'Received' } })); });
  afterEach(() => svc.close());
  const parcel = { ParcelCode: 'P1', Products: [{ CartItemId: 'ci-1', ProductCode: 'SKU0', DeliveryQuantity: 1 }] };

  test('finds the hold by OrderId; refuses a dispatch it can only name by merchant id (fails closed), unless forced', async () => {
    const store = new MapStore();
    await store.placeFulfilmentHold('GE1001CH', [{ DocumentTypeCode: '11', TrackingNumber: 'T' }]);
    const { client } = clientFor(svc, { store });
    expect(await failure(client.updateOrderDispatchV2({ OrderId: 'GE1001CH', Parcels: [parcel] }))).toMatchObject({ code: 'FULFILMENT_HOLD' });
    const byMerchantId = await failure(client.updateOrderDispatchV2({ MerchantOrderID: 'A-1', Parcels: [parcel] }));
    expect(byMerchantId).toMatchObject({ code: 'INVALID_ARGUMENT', operation: 'updateOrderDispatchV2' });
    expect(byMerchantId.description).toMatch(/no findOrderId.*merchantOrderIds capability.*force: true/);
    expect(svc.count()).toBe(0);
    await client.updateOrderDispatchV2({ MerchantOrderID: 'A-1', Parcels: [parcel] }, { force: true });
    expect(svc.count()).toBe(1);
  });
});

describe('the checks the kit makes of a store when it is built', () => {
  const build = (store: unknown) => () => createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), store: store as Store });
  const core = () => {
    const s = new MapStore();
    return { acquire: s.acquire.bind(s), getRecord: s.getRecord.bind(s), saveRecord: s.saveRecord.bind(s), placeFulfilmentHold: s.placeFulfilmentHold.bind(s), recordDocuments: s.recordDocuments.bind(s), getFulfilmentHold: s.getFulfilmentHold.bind(s) };
  };

  test('a core-only store is accepted, as a class or a plain object', () => {
    expect(build(new MapStore())).not.toThrow();
    expect(build(core())).not.toThrow();
  });

  test('a missing core method is named', () => {
    const { getRecord: _, ...partial } = core();
    expect(build(partial)).toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_INVALID', message: expect.stringMatching(/missing getRecord \(see docs\/stores.md\)/) }));
  });

  test('half a capability is refused', () => {
    expect(build({ ...core(), beginAttempt: async () => ({ attempt: 1 }) })).toThrow(/implements beginAttempt but not endAttempt: the attempts capability needs both/);
  });

  test('a misspelt capability method gets a did-you-mean instead of being silently ignored', () => {
    expect(build({ ...core(), getPayments: async () => null })).toThrow(/has a method getPayments; did you mean getPayment\?/);
    expect(build({ ...core(), saveMerchantOrderIds: async () => {}, findOrderID: async () => null })).toThrow(/did you mean findOrderId\?/);
    expect(build({ ...core(), beginAtempt: async () => ({ attempt: 1 }) })).toThrow(/did you mean beginAttempt\?/);
    expect(build({ ...core(), countActiveHold: async () => 0 })).toThrow(/has a method countActiveHold; did you mean countActiveHolds\?/);
    expect(build({ ...core(), countActivHolds: async () => 0 })).toThrow(/did you mean countActiveHolds\?/);
    // Helpers of your own whose names merely resemble a capability's are fine.
    expect(build({ ...core(), findOrder: async () => null, getRecords: async () => [], close: async () => {} })).not.toThrow();
  });

  test('the service client makes the same checks', async () => {
    const svc = await fakeService(() => ({ status: 200, body: {} }));
    try {
      expect(() => clientFor(svc, { store: { ...core(), findOrderId: async () => null } as Store })).toThrow(/implements findOrderId but not saveMerchantOrderIds/);
    } finally {
      await svc.close();
    }
  });
});
