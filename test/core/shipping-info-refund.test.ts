/**
 * UpdateOrderShippingInfo and the order-refund notification (not in the interface specification;
 * shapes from existing integrations): optional adapter methods, mounted at /UpdateOrderShippingInfo
 * and /NotifyOrderRefunded, validated, decoded and exactly-once like the other order callbacks.
 */
import request from 'supertest';
import { DEFAULT_PATHS } from 'crossborder-merchant-kit';
import { BINDINGS } from '../helpers/bindings.js';
import { MERCHANT_GUID } from '../helpers/orders.js';
import { recordingAdapter } from '../helpers/recording.js';
import { fixture } from '../fixtures/index.js';

const GUID = 'abcdabcd-abcd-abcd-abcd-abcdabcdabcd';
const shippingInfo = () => fixture('real-world/workarea-updateordershippinginfo.json');
const refund = () => fixture('real-world/workarea-notifyorderrefunded.json');

test('default paths', () => {
  expect(DEFAULT_PATHS).toMatchObject({ updateOrderShippingInfo: '/UpdateOrderShippingInfo', notifyOrderRefunded: '/NotifyOrderRefunded' });
});

describe.each(BINDINGS)('%s', (_name, mount) => {
  test('UpdateOrderShippingInfo: the adapter gets the tracking details (a URL-encoded one decoded), once per delivery', async () => {
    const adapter = recordingAdapter();
    const app = mount({ merchantGuid: GUID, adapter });
    const body = { ...shippingInfo(), InternationalDetails: { OrderTrackingNumber: '1265443', OrderTrackingUrl: 'http%3a%2f%2fwww.somecarrier.com%2f%3f1265443' } };
    const first = await request(app).post('/cb/UpdateOrderShippingInfo').send(body);
    const again = await request(app).post('/cb/UpdateOrderShippingInfo').send(body);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(first.body).toEqual({ Success: true, InternalOrderId: 'A-1' });
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(adapter.calls).toHaveLength(1);
    const { input, context } = adapter.calls[0];
    expect(input).toEqual({ MerchantGUID: GUID, OrderId: 'GE0421337US', InternationalDetails: { OrderTrackingNumber: '1265443', OrderTrackingUrl: 'http://www.somecarrier.com/?1265443' } });
    expect(context.callback).toBe('updateOrderShippingInfo');
    expect(context.idempotencyKey).toEqual(expect.stringContaining('updateOrderShippingInfo:GE0421337US:'));
  });

  test('NotifyOrderRefunded: the refund reaches the adapter as sent (amounts as strings), WebStoreCode null absent; a second, different refund runs too', async () => {
    const adapter = recordingAdapter();
    const app = mount({ merchantGuid: GUID, adapter });
    await request(app).post('/cb/NotifyOrderRefunded').send(refund()).expect(200);
    await request(app).post('/cb/NotifyOrderRefunded').send(refund()).expect(200);
    await request(app).post('/cb/NotifyOrderRefunded').send({ ...refund(), TotalRefundAmount: '10.00', Products: [] }).expect(200);
    expect(adapter.calls.map((c) => c.method)).toEqual(['notifyOrderRefunded', 'notifyOrderRefunded']);
    const input = adapter.calls[0].input;
    expect(input).toMatchObject({
      OrderId: 'GE0421337US', MerchantOrderId: '1A2B3C4D5E', TotalRefundAmount: '170.10', OriginalTotalRefundAmount: '114.53', ServiceGestureAmount: '0.00',
      RefundReason: { OrderRefundReasonCode: 'DAMAGED-ITEM-CODE', Name: 'Damaged Item' },
      Products: [{ CartItemId: '5f1e2d3c4b5a697887766554', RefundQuantity: 1, RefundAmount: '170.1000', OriginalRefundAmount: '114.5300', RefundComments: 'Fully refunded order' }],
    });
    expect(input).not.toHaveProperty('WebStoreCode');
  });

  test.each([
    ['/cb/UpdateOrderShippingInfo', { MerchantGUID: GUID, InternationalDetails: { OrderTrackingNumber: '1' } }, '/OrderId: is required'],
    ['/cb/NotifyOrderRefunded', { MerchantGUID: GUID, OrderId: null, TotalRefundAmount: '1.00' }, '/OrderId: is required'],
    ['/cb/NotifyOrderRefunded', { MerchantGUID: GUID, OrderId: 'GE1', Products: [{ RefundQuantity: 'one' }] }, '/Products/0/RefundQuantity: must be number'],
  ])('%s refuses what the kit relies on (%#)', async (path, body, description) => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: GUID, adapter })).post(path).send(body);
    expect({ status: res.status, description: res.body.Description }).toEqual({ status: 400, description });
    expect(adapter.calls).toEqual([]);
  });

  test('a wrong MerchantGUID is refused (401) before the adapter', async () => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post('/cb/NotifyOrderRefunded').send(refund());
    expect(res.status).toBe(401);
    expect(adapter.calls).toEqual([]);
  });

  test('optional: an adapter without the methods does not mount them (404); paths are configurable', async () => {
    const { updateOrderShippingInfo: _s, notifyOrderRefunded: _r, ...rest } = recordingAdapter();
    const without = mount({ merchantGuid: GUID, adapter: rest as never });
    expect((await request(without).post('/cb/UpdateOrderShippingInfo').send(shippingInfo())).status).toBe(404);
    expect((await request(without).post('/cb/NotifyOrderRefunded').send(refund())).status).toBe(404);
    const adapter = recordingAdapter();
    const custom = mount({ merchantGuid: GUID, adapter, paths: { notifyOrderRefunded: '/refunds' } });
    await request(custom).post('/cb/refunds').send(refund()).expect(200);
    expect(adapter.calls.map((c) => c.method)).toEqual(['notifyOrderRefunded']);
  });
});
