/**
 * GetCheckoutCartInfo, GET and POST: merchantCartToken required, every query parameter passed on,
 * OrderID read from the POST payload, the adapter's CheckoutCartInfo returned as JSON, and a result
 * without a productsList array answered 500 with a log line naming the problem.
 */
import request from 'supertest';
import { BINDINGS } from '../helpers/bindings.js';
import { cartInfo, MERCHANT_GUID } from '../helpers/orders.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';

const CART = '/cb/GetCheckoutCartInfo';

describe.each(BINDINGS)('%s', (_name, mount) => {
  test('GET passes merchantCartToken, countryCode, currencyCode and every other parameter', async () => {
    const adapter = recordingAdapter({ getCheckoutCartInfo: () => cartInfo() });
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter }))
      .get(`${CART}?merchantCartToken=cart-7f3a&countryCode=CH&currencyCode=CHF&sessionId=s-99&tag=a&tag=b`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(cartInfo());
    const input = adapter.calls[0].input;
    expect(input).toMatchObject({ method: 'GET', merchantCartToken: 'cart-7f3a', countryCode: 'CH', currencyCode: 'CHF' });
    expect(input.params).toEqual({
      merchantCartToken: 'cart-7f3a', countryCode: 'CH', currencyCode: 'CHF', sessionId: 's-99', tag: ['a', 'b'],
    });
    expect(input.OrderID).toBeUndefined();
    expect(input.payload).toBeUndefined();
  });

  test('HEAD and other methods do not reach the adapter', async () => {
    const adapter = recordingAdapter();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter });
    expect((await request(app).head(`${CART}?merchantCartToken=cart-7f3a`)).status).toBe(404);
    expect((await request(app).put(`${CART}?merchantCartToken=cart-7f3a`).send({})).status).toBe(404);
    expect((await request(app).get('/cb/SendOrderToMerchant')).status).toBe(404);
    expect(adapter.calls).toHaveLength(0);
  });

  test('query parameters are URL-decoded once by the query parser', async () => {
    const adapter = recordingAdapter();
    await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).get(`${CART}?merchantCartToken=a%2Bb%20c`).expect(200);
    expect(adapter.calls[0].input.merchantCartToken).toBe('a+b c');
  });

  test('POST reads OrderID (that spelling) and the payload; MerchantGUID is not handed on', async () => {
    const adapter = recordingAdapter({ getCheckoutCartInfo: () => cartInfo() });
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter }))
      .post(`${CART}?merchantCartToken=cart-7f3a&countryCode=CH`)
      .send({ MerchantGUID: MERCHANT_GUID, OrderID: 'GE1001CH' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(cartInfo());
    const input = adapter.calls[0].input;
    expect(input).toMatchObject({ method: 'POST', merchantCartToken: 'cart-7f3a', countryCode: 'CH', OrderID: 'GE1001CH' });
    expect(input.payload).toEqual({ OrderID: 'GE1001CH' });
  });

  test.each([
    ['GET without merchantCartToken', (app: any) => request(app).get(`${CART}?countryCode=CH`)],
    ['GET with an empty merchantCartToken', (app: any) => request(app).get(`${CART}?merchantCartToken=`)],
    ['GET with merchantCartToken twice', (app: any) => request(app).get(`${CART}?merchantCartToken=a&merchantCartToken=b`)],
    ['POST without merchantCartToken', (app: any) => request(app).post(CART).send({ MerchantGUID: MERCHANT_GUID, OrderID: 'GE1' })],
  ])('%s → 400, adapter not called', async (_what, send) => {
    const adapter = recordingAdapter();
    const res = await send(mount({ merchantGuid: MERCHANT_GUID, adapter }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ Success: false, ErrorCode: 'INVALID_REQUEST' });
    expect(res.body.Description).toContain('merchantCartToken');
    expect(adapter.calls).toHaveLength(0);
  });

  test.each([
    ['no productsList', { currencyCode: 'EUR' }],
    ['productsList not an array', { productsList: { ProductCode: 'X' } }],
    ['nothing at all', undefined],
  ])('a result with %s → 500 and a log line naming the problem', async (_what, result) => {
    const logger = captureLogger();
    const adapter = recordingAdapter({ getCheckoutCartInfo: () => result });
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter, logger })).get(`${CART}?merchantCartToken=cart-7f3a`);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ Success: false, Message: 'Internal error', ErrorCode: 'INTERNAL_ERROR' });
    expect(logger.text()).toContain('getCheckoutCartInfo returned no productsList array');
  });

  test('an empty productsList is a valid (empty) cart', async () => {
    const adapter = recordingAdapter({ getCheckoutCartInfo: () => ({ productsList: [] }) });
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).get(`${CART}?merchantCartToken=cart-7f3a`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ productsList: [] });
  });

  test('a CallbackError from the cart adapter declines with its texts', async () => {
    const { CallbackError } = await import('crossborder-merchant-kit');
    const adapter = recordingAdapter({
      getCheckoutCartInfo: () => { throw new CallbackError('Unknown cart', { status: 404, errorCode: 'CART_NOT_FOUND' }); },
    });
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).get(`${CART}?merchantCartToken=nope`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ Success: false, Message: 'Unknown cart', ErrorCode: 'CART_NOT_FOUND' });
  });

  test('cart-info output is returned as the adapter built it (the kit neither encodes nor decodes it)', async () => {
    const info = cartInfo({ billingDetails: { FirstName: 'Ren%C3%A9e', Address1: 'Hertzel+12', Email: 'a@b.com' } });
    const adapter = recordingAdapter({ getCheckoutCartInfo: () => info });
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).get(`${CART}?merchantCartToken=cart-7f3a`);
    expect(res.body.billingDetails).toEqual({ FirstName: 'Ren%C3%A9e', Address1: 'Hertzel+12', Email: 'a@b.com' });
  });
});
