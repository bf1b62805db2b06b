/**
 * The service's callback that follows the merchant's own call through the service client (same
 * store) reaches the adapter with `context.merchantInitiated`: the UpdateOrderStatus that confirms a
 * cancellation the merchant sent, the NotifyOrderRefunded of a refund the merchant created (matched
 * by RefundId, else by total). Callbacks the merchant did not start carry no such field.
 */
import { readFileSync } from 'node:fs';
import { createServiceClient } from 'crossborder-merchant-kit/client';
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { kitWith } from '../idempotency/harness.js';
import { MERCHANT_GUID, statusUpdate } from '../helpers/orders.js';
import { refundNotice } from '../helpers/shipping-refund.js';
import { fakeService, type FakeService } from '../client/fake-service.js';

let svc: FakeService;
beforeEach(async () => { svc = await fakeService(() => ({ status: 200, body: { Success: true, RefundId: 789 } })); });
afterEach(async () => { await svc.close(); });

function setup() {
  const store = new MemoryStore();
  const client = createServiceClient({ baseUrl: svc.url, merchantGuid: MERCHANT_GUID, store, retry: { retries: 0 } });
  return { store, client, t: kitWith(store) };
}

const CANCEL = { OrderId: 'GE-MI-1', StatusCode: 'cancelled', OrderStatusReason: { OrderStatusReasonCode: '1010', Name: 'CustomerCancel' } };

test('a cancellation the merchant sent: the service\'s UpdateOrderStatus for it is merchant-initiated', async () => {
  const { client, t } = setup();
  await client.updateOrderStatus(CANCEL);
  const res = await t.deliver('updateOrderStatus', statusUpdate('canceled', { OrderId: 'GE-MI-1' }));
  expect(res.status).toBe(200);
  const ctx = t.calls('updateOrderStatus')[0].context;
  expect(ctx.merchantInitiated).toEqual({
    operation: 'updateOrderStatus', at: expect.any(Date),
    details: { StatusCode: 'cancelled', OrderStatusReason: { OrderStatusReasonCode: '1010', Name: 'CustomerCancel' }, answer: { status: 200 } },
  });
});

test('a cancellation the service started (no call of the merchant), or another status, is not merchant-initiated', async () => {
  const { client, t } = setup();
  await t.deliver('updateOrderStatus', statusUpdate('canceled', { OrderId: 'GE-MI-2' }));
  await client.updateOrderStatus(CANCEL);
  await t.deliver('updateOrderStatus', statusUpdate('processing', { OrderId: 'GE-MI-1' }));
  expect(t.calls('updateOrderStatus').map((c) => c.context.merchantInitiated)).toEqual([undefined, undefined]);
});

test('a refund the merchant created: its NotifyOrderRefunded is matched by RefundId', async () => {
  const { client, t } = setup();
  await client.createOrderRefund({ OrderId: 'GE-MI-3', TotalRefundAmount: '170.10', ExternalReference: 'ref-1' });
  await t.deliver('notifyOrderRefunded', refundNotice({ OrderId: 'GE-MI-3', RefundId: 789, TotalRefundAmount: '170.10' }));
  await t.deliver('notifyOrderRefunded', refundNotice({ OrderId: 'GE-MI-3', RefundId: 790, TotalRefundAmount: '170.10' }));
  const [mine, theirs] = t.calls('notifyOrderRefunded').map((c) => c.context.merchantInitiated);
  expect(mine).toEqual({ operation: 'createOrderRefund', at: expect.any(Date), details: { amount: '170.10', amountKey: '170.1', RefundId: '789', ExternalReference: 'ref-1', FullRefund: false } });
  expect(theirs).toBeUndefined();
});

test('without a RefundId in either, the refund is matched by its total ("170.1" is "170.10"); another total is not', async () => {
  svc.answer(() => ({ status: 200, body: { Success: true } }));
  const { client, t } = setup();
  await client.createOrderRefund({ OrderId: 'GE-MI-4', TotalRefundAmount: 170.1 });
  await t.deliver('notifyOrderRefunded', refundNotice({ OrderId: 'GE-MI-4', TotalRefundAmount: '170.1000' }));
  await t.deliver('notifyOrderRefunded', refundNotice({ OrderId: 'GE-MI-4', TotalRefundAmount: '17.01' }));
  const [matched, other] = t.calls('notifyOrderRefunded').map((c) => c.context.merchantInitiated);
  expect(matched).toMatchObject({ operation: 'createOrderRefund', details: { amount: '170.10' } });
  expect(other).toBeUndefined();
});

test('a refund the service refused is not recorded: nothing to match', async () => {
  svc.answer(() => ({ status: 400, body: { Code: 'B001', Message: 'Order ID not found' } }));
  const { client, t } = setup();
  await expect(client.createOrderRefund({ OrderId: 'GE-MI-5', TotalRefundAmount: '5.00' })).rejects.toMatchObject({ code: 'B001' });
  await t.deliver('notifyOrderRefunded', refundNotice({ OrderId: 'GE-MI-5', TotalRefundAmount: '5.00' }));
  expect(t.calls('notifyOrderRefunded')[0].context.merchantInitiated).toBeUndefined();
});

test('a store that fails while looking is a 503 (retryable), the adapter not called', async () => {
  const { store, t } = setup();
  const getRecord = store.getRecord.bind(store);
  store.getRecord = async (key: string) => { if (key.startsWith('~order:')) throw new Error('db down'); return getRecord(key); };
  const res = await t.deliver('updateOrderStatus', statusUpdate('canceled', { OrderId: 'GE-MI-6' }));
  expect(res.status).toBe(503);
  expect(t.calls('updateOrderStatus')).toHaveLength(0);
});

test('the service\'s documented NotifyOrderRefund example (RefundId 789 as a number) is matched to the refund the merchant created', async () => {
  const documented = JSON.parse(readFileSync(new URL('../fixtures/real-world-3/gedocs-notifyorderrefund-request.json', import.meta.url), 'utf8'));
  const store = new MemoryStore();
  const client = createServiceClient({ baseUrl: svc.url, merchantGuid: MERCHANT_GUID, store, retry: { retries: 0 } });
  const t = kitWith(store, {}, { merchantGuid: documented.MerchantGUID });
  await client.createOrderRefund({ OrderId: documented.OrderId, TotalRefundAmount: documented.TotalRefundAmount, Products: [{ CartItemId: 12365, RefundQuantity: '3', RefundAmount: '170.1000' }] });
  const res = await t.deliver('notifyOrderRefunded', documented);
  expect(res.status).toBe(200);
  expect(t.calls('notifyOrderRefunded')[0].context.merchantInitiated).toMatchObject({ operation: 'createOrderRefund', details: { RefundId: '789', amount: '170.10' } });
});
