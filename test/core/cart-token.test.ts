/**
 * Where the cart token travels (docs/callbacks.md#getcheckoutcartinfo): the `cartTokenParameter`
 * query parameter (default merchantCartToken), or on POST the payload field; every other query
 * parameter reaches the adapter.
 */
import request from 'supertest';
import { createCallbackRouter } from 'crossborder-merchant-kit/express';
import { BINDINGS } from '../helpers/bindings.js';
import { MERCHANT_GUID } from '../helpers/orders.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';

const CART = '/cb/GetCheckoutCartInfo';

describe.each(BINDINGS)('%s', (_name, mount) => {
  test("cartTokenParameter: 'cartToken' reads ?cartToken= and passes the other parameters", async () => {
    const adapter = recordingAdapter();
    await request(mount({ merchantGuid: MERCHANT_GUID, adapter, cartTokenParameter: 'cartToken' }))
      .get(`${CART}?cartToken=9F3A1C7B2E&IsStockValidation=1&isFixedPriceSupported=true`).expect(200);
    const input = adapter.calls[0].input;
    expect(input.merchantCartToken).toBe('9F3A1C7B2E');
    expect(input.params).toEqual({ cartToken: '9F3A1C7B2E', IsStockValidation: '1', isFixedPriceSupported: 'true' });
  });

  test('with the default name, ?cartToken= alone is refused (400), and the log names the likely fix', async () => {
    const adapter = recordingAdapter();
    const logger = captureLogger();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter, logger })).get(`${CART}?cartToken=9F3A1C7B2E`);
    expect(res.status).toBe(400);
    expect(res.body.Description).toBe('Query parameter merchantCartToken is required');
    expect(adapter.calls).toEqual([]);
    expect(logger.text()).toContain('is cartTokenParameter set?');
    expect(logger.text()).not.toContain('9F3A1C7B2E');
  });

  test('POST: the token may come in the payload (no query string)', async () => {
    const adapter = recordingAdapter();
    await request(mount({ merchantGuid: MERCHANT_GUID, adapter }))
      .post(CART).send({ MerchantGUID: MERCHANT_GUID, merchantCartToken: 'tok-1', countryCode: 'GER' }).expect(200);
    const input = adapter.calls[0].input;
    expect(input).toMatchObject({ method: 'POST', merchantCartToken: 'tok-1', payload: { merchantCartToken: 'tok-1', countryCode: 'GER' } });
    expect(input.countryCode).toBeUndefined(); // the payload's countryCode is not an ISO query parameter
  });

  test('POST: the query parameter wins over the payload field; a configured name is read from the payload too', async () => {
    const adapter = recordingAdapter();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter, cartTokenParameter: 'cartToken' });
    await request(app).post(`${CART}?cartToken=from-query`).send({ MerchantGUID: MERCHANT_GUID, cartToken: 'from-body' }).expect(200);
    await request(app).post(CART).send({ MerchantGUID: MERCHANT_GUID, cartToken: 'from-body' }).expect(200);
    expect(adapter.calls.map((c) => c.input.merchantCartToken)).toEqual(['from-query', 'from-body']);
  });

  test.each([
    ['no token at all', {}],
    ['an empty token', { merchantCartToken: '' }],
    ['a token that is not a string', { merchantCartToken: 42 }],
  ])('POST with %s → 400, adapter not called', async (_n, extra) => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post(CART).send({ MerchantGUID: MERCHANT_GUID, ...extra });
    expect(res.status).toBe(400);
    expect(adapter.calls).toEqual([]);
  });
});

test.each([[''], ['cart token'], [42]])('cartTokenParameter %p is refused when the router is built', (value) => {
  expect(() => createCallbackRouter({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), cartTokenParameter: value as never }))
    .toThrow(/cartTokenParameter must be a query parameter name/);
});
