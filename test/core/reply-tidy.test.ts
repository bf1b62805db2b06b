/**
 * Adapter replies with nulls (PHP/.NET serialisers) are sent without them instead of failing
 * checkout; a misspelt reply key gets a did-you-mean warning, once.
 */
import request from 'supertest';
import { BINDINGS } from '../helpers/bindings.js';
import { MERCHANT_GUID, order } from '../helpers/orders.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';

const CART = '/cb/GetCheckoutCartInfo?merchantCartToken=c-1';

describe.each(BINDINGS)('%s', (_name, mount) => {
  test('nulls in a CheckoutCartInfo are dropped (debug log), not a 500', async () => {
    const logger = captureLogger();
    const reply = { productsList: [{ ProductCode: 'A', Description: null, OrderedQuantity: 1 }], billingDetails: { FirstName: 'Dan', Phone1: null }, merchantCartHash: null };
    const adapter = recordingAdapter({ getCheckoutCartInfo: () => reply });
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter, logger })).get(CART);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ productsList: [{ ProductCode: 'A', OrderedQuantity: 1 }], billingDetails: { FirstName: 'Dan' } });
    expect(reply.merchantCartHash).toBeNull(); // the adapter's own object is not changed
    const debug = logger.lines.find((l) => l.level === 'debug' && /null values/.test(l.msg ?? ''));
    expect(debug?.obj).toMatchObject({ dropped: ['/productsList/0/Description', '/billingDetails/Phone1', '/merchantCartHash'], droppedCount: 3 });
  });

  test('nulls in a ResponseInfo are dropped', async () => {
    const adapter = recordingAdapter({ sendOrderToMerchant: () => ({ InternalOrderId: 'A-1', Description: null, ErrorCode: null }) });
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post('/cb/SendOrderToMerchant').send(order());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ Success: true, InternalOrderId: 'A-1' });
  });

  test('discountsList → a did-you-mean warning naming discountList, once per process; the key is still sent', async () => {
    const logger = captureLogger();
    const reply = { productsList: [], discountsList: [{ Name: 'x' }] };
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter({ getCheckoutCartInfo: () => reply }), logger });
    const res = await request(app).get(CART);
    await request(app).get(CART);
    expect(res.status).toBe(200);
    expect(res.body.discountsList).toEqual([{ Name: 'x' }]);
    const warnings = logger.lines.filter((l) => l.level === 'warn' && /did you mean/.test(l.msg ?? ''));
    expect(warnings).toHaveLength(1);
    expect(warnings[0].msg).toContain('unknown key discountsList; did you mean discountList?');
    expect(warnings[0].obj).toMatchObject({ key: '/discountsList', suggestion: '/discountList' });
  });

  test('a misspelt ResponseInfo key is flagged too; a key with no close name is not a warning', async () => {
    const logger = captureLogger();
    const adapter = recordingAdapter({ updateOrderStatus: () => ({ InternalOrderID: 'A-1', MyOwnKey: 1 }) });
    await request(mount({ merchantGuid: MERCHANT_GUID, adapter, logger })).post('/cb/UpdateOrderStatus')
      .send({ MerchantGUID: MERCHANT_GUID, OrderId: 'GE1', StatusCode: 'canceled' }).expect(200);
    const warnings = logger.lines.filter((l) => l.level === 'warn' && /unknown key/.test(l.msg ?? ''));
    expect(warnings.map((w) => w.obj.key)).toEqual(['/InternalOrderID']);
  });
});
