/**
 * The dispatch hold guard, run against every store (hold-guard.test.ts on MemoryStore,
 * hold-guard.pg.test.ts on PostgresStore): an order on fulfilment hold is not dispatched, found by
 * its OrderId or by the merchant ids its SendOrderToMerchant reply returned.
 */
import type { Store } from 'crossborder-merchant-kit/store';
import { order } from '../helpers/orders.js';
import { fixture } from '../fixtures/index.js';
import { testKit } from '../helpers/kit.js';
import type { FullStore, StoreFactory } from '../store/harness.js';
import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure } from './setup.js';

const ead = { DocumentTypeCode: '11', TrackingNumber: 'TRK123' };
const parcel = { ParcelCode: 'P1', Products: [{ CartItemId: 'ci-1', ProductCode: 'SKU0', DeliveryQuantity: 1 }] };
/** The service's use cases (GD use-cases-220772): OrderId is the merchant's order number. */
const USE_CASES = ['single-parcel', 'multi-parcel'].map((n) => fixture(`real-world-3/gedocs-updateorderdispatch-usecase-${n}.json`));
/** A store view without the merchantOrderIds capability (findOrderId and saveMerchantOrderIds hidden). */
const withoutMerchantIds = (store: Store): Store => {
  const view: Record<string, unknown> = {};
  for (const name of ['acquire', 'getRecord', 'saveRecord', 'placeFulfilmentHold', 'recordDocuments', 'getFulfilmentHold']) {
    view[name] = (...args: unknown[]) => (store as unknown as Record<string, (...a: unknown[]) => unknown>)[name](...args);
  }
  return view as unknown as Store;
};

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
    const kit = testKit({ store });
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

  describe('issue 34 item 3: the merchant\'s order number in OrderId (the documented use cases)', () => {
    test.each([0, 1])('use case %i: V2 and V1 with OrderId "100018322" of an order held as GE123874638GB: FULFILMENT_HOLD, nothing sent', async (i) => {
      await store.placeFulfilmentHold('GE123874638GB', [ead]);
      await store.saveMerchantOrderIds('GE123874638GB', ['100018322']);
      const { client } = clientFor(svc, { store });
      const body = USE_CASES[i];
      expect(await failure(client.updateOrderDispatchV2(body))).toMatchObject({ code: 'FULFILMENT_HOLD', hold: { orderId: 'GE123874638GB' } });
      expect(await failure(client.updateOrderDispatch(body))).toMatchObject({ code: 'FULFILMENT_HOLD', operation: 'updateOrderDispatch' });
      // The merchant's number as MerchantOrderID and the service's as OrderId: each reading still finds it.
      expect(await failure(client.updateOrderDispatchV2({ ...body, OrderId: 'GE-UNRELATED', MerchantOrderID: '100018322' }))).toMatchObject({ code: 'FULFILMENT_HOLD' });
      expect(await failure(client.updateOrderDispatchV2({ ...body, OrderId: undefined, MerchantOrderID: 'GE123874638GB' }))).toMatchObject({ code: 'FULFILMENT_HOLD' });
      expect(svc.count()).toBe(0);
      await store.recordDocuments('GE123874638GB', [ead]);
      await client.updateOrderDispatchV2(body);
      expect(svc.received[0].json).toEqual(body);
    });

    test('end to end: the adapter answers the order with its number 100018322; the use-case dispatch is held until the EAD arrives', async () => {
      const kit = testKit({ store, answers: { sendOrderToMerchant: () => ({ InternalOrderId: '100018322', OrderId: '100018322' }) } });
      const created = await kit.deliver('sendOrderToMerchant', order({
        OrderId: 'GE123874638GB',
        AdditionalRequiredDocuments: [{ DocumentTypeCode: '11', DocumentTypeName: 'EAD', DocumentExtension: 'pdf', URL: '', TrackingNumber: 'TRK123' }],
      }));
      expect(created.status).toBe(200);
      const { client } = clientFor(svc, { store });
      for (const body of USE_CASES) expect(await failure(client.updateOrderDispatchV2(body))).toMatchObject({ code: 'FULFILMENT_HOLD' });
      expect(svc.count()).toBe(0);
      await store.recordDocuments('GE123874638GB', [ead]);
      for (const body of USE_CASES) await client.updateOrderDispatchV2(body);
      expect(svc.count()).toBe(2);
    });

    test('a store without findOrderId: a held service OrderId is FULFILMENT_HOLD; any other id is refused (INVALID_ARGUMENT, nothing sent) unless force', async () => {
      await store.placeFulfilmentHold('GE123874638GB', [ead]);
      const { client, log } = clientFor(svc, { store: withoutMerchantIds(store) });
      expect(await failure(client.updateOrderDispatchV2({ OrderId: 'GE123874638GB', Parcels: [parcel] }))).toMatchObject({ code: 'FULFILMENT_HOLD' });
      const refused = await failure(client.updateOrderDispatchV2(USE_CASES[0]));
      expect(refused).toMatchObject({ code: 'INVALID_ARGUMENT' });
      expect(refused.description).toMatch(/findOrderId.*nothing was sent/);
      expect(svc.count()).toBe(0);
      await client.updateOrderDispatchV2(USE_CASES[0], { force: true });
      expect(svc.count()).toBe(1);
      expect(log.lines.some((l) => l.level === 'warn' && /no findOrderId/.test(l.msg ?? ''))).toBe(true);
    });
  });
}
