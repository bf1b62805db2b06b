/**
 * MerchantGUID is required in every POST payload (top level or inside `order`; both must agree):
 * missing, wrong, null, a number or disagreeing → 401 Success:false, and the adapter is not called.
 */
import request from 'supertest';
import { BINDINGS } from '../helpers/bindings.js';
import { documentsDelivery, envelope, MERCHANT_GUID, order, OTHER_GUID, paymentOrder, statusUpdate, withoutUndefined } from '../helpers/orders.js';
import { recordingAdapter } from '../helpers/recording.js';

const POST_ROUTES: Array<[string, (guid: unknown) => Record<string, unknown>]> = [
  ['/cb/SendOrderToMerchant', (g) => order({ MerchantGUID: g })],
  ['/cb/UpdateOrderStatus', (g) => statusUpdate('canceled', { MerchantGUID: g })],
  ['/cb/PerformOrderPayment', (g) => paymentOrder({ MerchantGUID: g })],
  ['/cb/SendAdditionalRequiredDocumentsToMerchant', (g) => documentsDelivery({ MerchantGUID: g })],
  ['/cb/GetCheckoutCartInfo?merchantCartToken=cart-7f3a', (g) => ({ MerchantGUID: g, OrderID: 'GE1001CH' })],
];

const expectUnauthorized = (res: request.Response) => {
  expect(res.status).toBe(401);
  expect(res.body).toEqual({ Success: false, Message: 'Unauthorized', ErrorCode: 'UNAUTHORIZED' });
};

describe.each(BINDINGS)('%s', (_name, mount) => {
  describe.each(POST_ROUTES)('POST %s', (path, build) => {
    test('the right MerchantGUID is accepted', async () => {
      const adapter = recordingAdapter();
      const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post(path).send(build(MERCHANT_GUID));
      expect(res.status).toBe(200);
      expect(adapter.calls).toHaveLength(1);
    });

    test.each([
      ['missing', undefined],
      ['wrong', OTHER_GUID],
      ['null', null],
      ['a number', 12345],
      ['empty', ''],
      ['an object', { value: MERCHANT_GUID }],
    ])('%s → 401, adapter not called', async (_what, guid) => {
      const adapter = recordingAdapter();
      const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post(path).send(withoutUndefined(build(guid)));
      expectUnauthorized(res);
      expect(adapter.calls).toHaveLength(0);
    });
  });

  test('inside the envelope only: accepted', async () => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post('/cb/SendOrderToMerchant').send(envelope(order()));
    expect(res.status).toBe(200);
  });

  test('at the top level beside the envelope only: accepted', async () => {
    const adapter = recordingAdapter();
    const body = { MerchantGUID: MERCHANT_GUID, order: withoutUndefined(order({ MerchantGUID: undefined })) };
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post('/cb/SendOrderToMerchant').send(body);
    expect(res.status).toBe(200);
  });

  test('top level and order disagreeing → 401 even when one of them is right', async () => {
    const adapter = recordingAdapter();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter });
    expectUnauthorized(await request(app).post('/cb/SendOrderToMerchant').send({ MerchantGUID: OTHER_GUID, order: order() }));
    expectUnauthorized(await request(app).post('/cb/SendOrderToMerchant').send({ MerchantGUID: MERCHANT_GUID, order: order({ MerchantGUID: OTHER_GUID }) }));
    expect(adapter.calls).toHaveLength(0);
  });

  test('with two configured GUIDs (rotation), top level and order must still be the same one', async () => {
    const adapter = recordingAdapter();
    const app = mount({ merchantGuid: [MERCHANT_GUID, OTHER_GUID], adapter });
    expect((await request(app).post('/cb/SendOrderToMerchant').send(order({ MerchantGUID: OTHER_GUID }))).status).toBe(200);
    expectUnauthorized(await request(app).post('/cb/SendOrderToMerchant').send({ MerchantGUID: MERCHANT_GUID, order: order({ MerchantGUID: OTHER_GUID }) }));
    expect(adapter.calls).toHaveLength(1);
  });

  test('GUID hex case does not matter', async () => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post('/cb/UpdateOrderStatus')
      .send(statusUpdate('canceled', { MerchantGUID: MERCHANT_GUID.toUpperCase() }));
    expect(res.status).toBe(200);
  });

  test('a MerchantGUID only in a Sub does not count', async () => {
    const adapter = recordingAdapter();
    const body = withoutUndefined(order({ MerchantGUID: undefined, Subs: [order()] }));
    expectUnauthorized(await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post('/cb/SendOrderToMerchant').send(body));
    expect(adapter.calls).toHaveLength(0);
  });

  test('GET cart info needs no MerchantGUID (the spec puts it only in the POST payload)', async () => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).get('/cb/GetCheckoutCartInfo?merchantCartToken=cart-7f3a');
    expect(res.status).toBe(200);
  });
});
