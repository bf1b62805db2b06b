import { jest } from '@jest/globals';
import request from 'supertest';
import { TEST_MERCHANT_GUID, buildCartInfoPayload, buildCartInfoQuery, buildOrder } from 'crossborder-merchant-kit/testing';
import { BINDINGS } from '../helpers/bindings.js';
import { expectRefused, refusalReason, setup } from './fixtures.js';

describe.each(BINDINGS)('%s: MerchantGUID (always on)', (_name, mount) => {
  test.each([
    ['missing', { order: buildOrder({ MerchantGUID: undefined }) }],
    ['null', { order: buildOrder({ MerchantGUID: null }) }],
    ['a number', { order: buildOrder({ MerchantGUID: 12345 }) }],
    ['an object', { order: buildOrder({ MerchantGUID: { $ne: '' } }) }],
    ['wrong', { order: buildOrder({ MerchantGUID: '5b0e6c2a-9f14-4d3e-8a7b-1c2d3e4f5a6c' }) }],
    ['empty', buildOrder({ MerchantGUID: '' })],
    ['disagreeing between top level and order', { MerchantGUID: TEST_MERCHANT_GUID, order: buildOrder({ MerchantGUID: '00000000-0000-0000-0000-000000000000' }) }],
    ['right at the top level, wrong in order', { MerchantGUID: TEST_MERCHANT_GUID, order: buildOrder({ MerchantGUID: 'x' }) }],
  ])('%s is refused', async (_case, body) => {
    const s = setup(undefined);
    expectRefused(await request(mount(s.options)).post('/cb/SendOrderToMerchant').send(body), s, 401);
    expect(refusalReason(s)).toMatch(/^MerchantGUID /);
    expect(s.logger.text()).not.toContain(TEST_MERCHANT_GUID);
  });

  test('accepted in either place and in any hex case; both places agreeing', async () => {
    const s = setup(undefined);
    const app = mount(s.options);
    expect((await request(app).post('/cb/SendOrderToMerchant').send(buildOrder({ MerchantGUID: TEST_MERCHANT_GUID.toUpperCase() }))).status).toBe(200);
    expect((await request(app).post('/cb/SendOrderToMerchant').send({ MerchantGUID: TEST_MERCHANT_GUID, order: buildOrder({ MerchantGUID: undefined }) })).status).toBe(200);
    expect((await request(app).post('/cb/UpdateOrderStatus').send({ MerchantGUID: TEST_MERCHANT_GUID, order: buildOrder({ StatusCode: 'canceled' }) })).status).toBe(200);
    expect(s.adapter.calls).toHaveLength(3);
  });

  test('GetCheckoutCartInfo POST needs it too; GET relies on the cart token', async () => {
    const s = setup(undefined);
    const app = mount(s.options);
    const url = `/cb/GetCheckoutCartInfo?${new URLSearchParams(buildCartInfoQuery())}`;
    expect((await request(app).post(url).send(buildCartInfoPayload({ MerchantGUID: undefined }))).status).toBe(401);
    expect((await request(app).post(url).send(buildCartInfoPayload())).status).toBe(200);
    expect((await request(app).get(url)).status).toBe(200);
    expect((await request(app).get('/cb/GetCheckoutCartInfo?countryCode=CH')).status).toBe(400);
    expect(s.adapter.calls).toHaveLength(2);
  });
});

describe('MerchantGUID is compared in constant time', () => {
  afterEach(() => jest.restoreAllMocks());

  test('every configured GUID goes through crypto.timingSafeEqual, once each, and its "false" refuses the right GUID', async () => {
    const { default: crypto } = await import('node:crypto');
    const { createMerchantGuidMatcher } = await import('../../lib/auth/merchant-guid.js');
    const other = '5b0e6c2a-9f14-4d3e-8a7b-1c2d3e4f5a6c';
    const matches = createMerchantGuidMatcher([other, TEST_MERCHANT_GUID.toUpperCase()]);
    const spy = jest.spyOn(crypto, 'timingSafeEqual');
    expect(matches(TEST_MERCHANT_GUID)).toBe(true);
    expect(matches(` ${TEST_MERCHANT_GUID} `)).toBe(false); // compared as sent, padding is not trimmed
    spy.mockClear();
    expect(matches(TEST_MERCHANT_GUID)).toBe(true);
    expect(spy).toHaveBeenCalledTimes(2); // the second GUID matched, the first was still compared
    expect(matches('not-the-guid')).toBe(false);
    expect(matches(other.replace('5b', '5c'))).toBe(false);
    spy.mockReturnValue(false);
    expect(matches(TEST_MERCHANT_GUID)).toBe(false);
  });
});
