/**
 * The dispatch hold guard, run against every store (hold-guard.test.ts on MemoryStore,
 * hold-guard.pg.test.ts on PostgresStore): an order on fulfilment hold is not dispatched, found by
 * its OrderId or by the merchant ids its SendOrderToMerchant reply returned.
 */
import type { Store } from 'crossborder-merchant-kit/store';
import { order } from '../helpers/orders.js';
import { kitWith } from '../idempotency/harness.js';
import type { FullStore, StoreFactory } from '../store/harness.js';
import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure } from './setup.js';

const ead = { DocumentTypeCode: '11', TrackingNumber: 'TRK123' };
const parcel = { ParcelCode: 'P1', Products: [{ CartItemId: 'ci-1', ProductCode: 'SKU0', DeliveryQuantity: 1 }] };

export function holdGuardBehaviour(factory: StoreFactory): void {
  let svc: FakeService;
  let store: FullStore;
  beforeEach(async () => {
    svc = await fakeService(() => ({ status: 200, body: { Success: true, Reason: 'Received' } }));
    store = (await factory()).store;
  });
  afterEach(() => svc.close());

  test('an order on hold is not dispatched (V2 and V1, by OrderId): FULFILMENT_HOLD, nothing sent', async () => {
    await store.placeFulfilmentHold('GE1001CH', [ead]);
    const { client } = clientFor(svc, { store });
    const err = await failure(client.updateOrderDispatchV2({ OrderId: 'GE1001CH', Parcels: [parcel] }));
    expect(err).toMatchObject({ name: 'ServiceError', code: 'FULFILMENT_HOLD', status: undefined, retryable: false, attempts: 0, operation: 'updateOrderDispatchV2' });
    expect(err.hold).toEqual({ orderId: 'GE1001CH', awaiting: [ead], since: expect.any(Date) });
    expect(err.description).toMatch(/GE1001CH is on fulfilment hold .*1 additional document\(s\) awaited; nothing was sent/);
    expect(await failure(client.updateOrderDispatch({ OrderId: 'GE1001CH' }))).toMatchObject({ code: 'FULFILMENT_HOLD', operation: 'updateOrderDispatch' });
    expect(svc.count()).toBe(0);
  });

  test('found by either merchant id the SendOrderToMerchant reply returned (InternalOrderId, OrderId), in either spelling', async () => {
    await store.placeFulfilmentHold('GE1001CH', [ead]);
    await store.saveMerchantOrderIds('GE1001CH', ['A-1', '1001']);
    const { client } = clientFor(svc, { store });
    for (const call of [
      () => client.updateOrderDispatchV2({ MerchantOrderID: 'A-1', Parcels: [parcel] }),
      () => client.updateOrderDispatchV2({ MerchantOrderId: '1001', Parcels: [parcel] }),
      () => client.updateOrderDispatch({ MerchantOrderId: '1001' }),
      () => client.updateOrderDispatch({ OrderId: 'GE-OTHER', MerchantOrderId: 'A-1' }),
    ]) expect(await failure(call())).toMatchObject({ code: 'FULFILMENT_HOLD', hold: { orderId: 'GE1001CH' } });
    expect(svc.count()).toBe(0);
  });

  test('end to end: the kit receives an order with AdditionalRequiredDocuments; the dispatch by the merchant id is held until the documents arrive', async () => {
    const kit = kitWith(store);
    const created = await kit.deliver('sendOrderToMerchant', order({
      AdditionalRequiredDocuments: [{ DocumentTypeCode: '11', DocumentTypeName: 'EAD', DocumentExtension: 'PDF', URL: '', TrackingNumber: 'TRK123' }],
    }));
    expect(created.body).toMatchObject({ Success: true, InternalOrderId: 'A-1', OrderId: '1001' });
    const { client } = clientFor(svc, { store });
    expect(await failure(client.updateOrderDispatchV2({ MerchantOrderID: 'A-1', Parcels: [parcel] }))).toMatchObject({ code: 'FULFILMENT_HOLD' });
    expect(svc.count()).toBe(0);
    await store.recordDocuments('GE1001CH', [ead]);
    expect(await client.updateOrderDispatchV2({ MerchantOrderID: 'A-1', Parcels: [parcel] })).toEqual({ Success: true, Reason: 'Received' });
    expect(svc.count()).toBe(1);
  });

  test('{ force: true } dispatches anyway and logs a warning', async () => {
    await store.placeFulfilmentHold('GE1001CH', [ead]);
    const { client, log } = clientFor(svc, { store });
    await client.updateOrderDispatchV2({ OrderId: 'GE1001CH', Parcels: [parcel] }, { force: true });
    expect(svc.count()).toBe(1);
    const warning = log.lines.find((l) => l.level === 'warn');
    expect(warning).toMatchObject({ msg: 'dispatching an order on fulfilment hold (force: true)', obj: { orderId: 'GE1001CH', awaiting: 1 } });
  });

  test('orders without a hold, released holds and unknown merchant ids are dispatched', async () => {
    await store.placeFulfilmentHold('GE-HELD', [ead]);
    await store.placeFulfilmentHold('GE-RELEASED', [ead]);
    await store.releaseFulfilmentHold('GE-RELEASED');
    const { client } = clientFor(svc, { store });
    await client.updateOrderDispatchV2({ OrderId: 'GE-FREE', Parcels: [parcel] });
    await client.updateOrderDispatchV2({ OrderId: 'GE-RELEASED', Parcels: [parcel] });
    await client.updateOrderDispatch({ MerchantOrderId: 'never-seen' });
    expect(svc.count()).toBe(3);
  });

  test('without a store there is no guard', async () => {
    await store.placeFulfilmentHold('GE1001CH', [ead]);
    const { client } = clientFor(svc);
    await client.updateOrderDispatchV2({ OrderId: 'GE1001CH', Parcels: [parcel] });
    expect(svc.count()).toBe(1);
  });

  test('a store that fails: STORE_UNAVAILABLE (fails closed, nothing sent); force dispatches', async () => {
    const broken: Store = Object.create(store, {
      getFulfilmentHold: { value: async () => { throw new Error('db down'); } },
      findOrderId: { value: async () => { throw new Error('db down'); } },
    });
    const { client, log } = clientFor(svc, { store: broken });
    expect(await failure(client.updateOrderDispatchV2({ OrderId: 'GE1', Parcels: [parcel] }))).toMatchObject({ code: 'STORE_UNAVAILABLE', retryable: true });
    expect(await failure(client.updateOrderDispatch({ MerchantOrderId: 'A-1' }))).toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect(svc.count()).toBe(0);
    await client.updateOrderDispatch({ MerchantOrderId: 'A-1' }, { force: true });
    expect(svc.count()).toBe(1);
    expect(log.lines.some((l) => l.level === 'warn' && /could not read the store/.test(l.msg ?? ''))).toBe(true);
  });
}
