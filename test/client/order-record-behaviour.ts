/**
 * The order's record (lib/store/order-actions.ts), run against every store (order-record.test.ts on
 * MemoryStore, order-record.pg.test.ts on PostgresStore, a twin store standing for another process):
 * numbered records stay distinct under concurrency, a single record is written once, and the client's
 * guards read what another process recorded.
 */
import { orderActions, recordOrderAction } from '../../lib/store/order-actions.js';
import type { StoreFactory, StoreHarness } from '../store/harness.js';
import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure } from './setup.js';

export function orderRecordBehaviour(factory: StoreFactory): void {
  let svc: FakeService;
  let h: StoreHarness;
  beforeEach(async () => {
    svc = await fakeService(() => ({ status: 200, body: { Success: true } }));
    h = await factory();
  });
  afterEach(() => svc.close());

  test('10 refunds recorded at once, from two processes: 10 distinct records, none lost', async () => {
    const twin = h.twin();
    await Promise.all(Array.from({ length: 10 }, (_, i) => recordOrderAction(i % 2 ? twin : h.store, 'refund', 'GE-R-1', { amount: `${i}.00` })));
    const amounts = (await orderActions(h.store, 'refund', 'GE-R-1')).map((a) => a.details.amount).sort();
    expect(amounts).toEqual(Array.from({ length: 10 }, (_, i) => `${i}.00`).sort());
  });

  test('a single record (a refund reference) is written once: the second write is not kept', async () => {
    expect(await recordOrderAction(h.store, 'refundRef', 'GE-R-2', { n: 1 }, 'ref-1')).toBe(true);
    expect(await recordOrderAction(h.twin(), 'refundRef', 'GE-R-2', { n: 2 }, 'ref-1')).toBe(false);
  });

  test('the over-refund guard counts the refunds another process made; its duplicate reference is refused', async () => {
    await h.store.saveRecord({
      key: 'sendOrderToMerchant:GE-R-3:h', callback: 'sendOrderToMerchant', orderId: 'GE-R-3', hash: 'h', payment: true,
      response: { Success: true, PaymentAmount: '100.00', PaymentCurrencyCode: 'EUR' },
    });
    const a = clientFor(svc, { store: h.store }).client;
    const b = clientFor(svc, { store: h.twin() }).client;
    await a.createOrderRefund({ OrderId: 'GE-R-3', TotalRefundAmount: '60.00', ExternalReference: 'x-1' });
    expect(await failure(b.createOrderRefund({ OrderId: 'GE-R-3', TotalRefundAmount: '50.00' }))).toMatchObject({ code: 'REFUND_EXCEEDS_PAID' });
    expect(await failure(b.createOrderRefund({ OrderId: 'GE-R-3', TotalRefundAmount: '1.00', ExternalReference: 'x-1' }))).toMatchObject({ code: 'DUPLICATE_REFUND' });
    await b.createOrderRefund({ OrderId: 'GE-R-3', TotalRefundAmount: '40.00' });
    expect(svc.count('/Order/CreateOrderRefund')).toBe(2);
  });

  test('a dispatch accepted in one process stops a cancellation and an address change in another', async () => {
    await clientFor(svc, { store: h.store }).client.updateOrderDispatchV2({ OrderId: 'GE-R-4', Parcels: [{ ParcelCode: 'p' }] } as never);
    const other = clientFor(svc, { store: h.twin() }).client;
    expect(await failure(other.updateOrderStatus({ OrderId: 'GE-R-4', StatusCode: 'canceled', OrderStatusReason: { OrderStatusReasonCode: '1' } }))).toMatchObject({ code: 'ORDER_DISPATCHED' });
    expect(await failure(other.updateShippingAddress({ orderId: 'GE-R-4', primaryShipping: { city: 'Bern' } }))).toMatchObject({ code: 'ORDER_DISPATCHED' });
  });
}
