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

describe.each(BINDINGS)('%s: MerchantGUID refusals say why (in the log only)', (_name, mount) => {
  const OTHER = '5b0e6c2a-9f14-4d3e-8a7b-1c2d3e4f5a6c';

  test.each([
    ['missing everywhere', buildOrder({ MerchantGUID: undefined }), 'MerchantGUID missing'],
    ['null', buildOrder({ MerchantGUID: null }), 'MerchantGUID not a string'],
    ['a number in order, the right one at the top level', { MerchantGUID: TEST_MERCHANT_GUID, order: buildOrder({ MerchantGUID: 42 }) }, 'MerchantGUID not a string'],
    ['the right one in order, an object at the top level', { MerchantGUID: { $ne: '' }, order: buildOrder() }, 'MerchantGUID not a string'],
    ['a wrong string', buildOrder({ MerchantGUID: OTHER }), 'MerchantGUID does not match'],
    ['a wrong string beside the right one', { MerchantGUID: TEST_MERCHANT_GUID, order: buildOrder({ MerchantGUID: OTHER }) }, 'MerchantGUID does not match'],
  ])('%s → 401, reason "%s"', async (_case, body, reason) => {
    const s = setup(undefined);
    expectRefused(await request(mount(s.options)).post('/cb/SendOrderToMerchant').send(body), s, 401);
    expect(refusalReason(s)).toBe(reason);
  });

  test('two configured GUIDs (rotation): each is accepted, but a payload carrying one at the top level and the other in order is refused', async () => {
    const s = setup(undefined, { merchantGuid: [TEST_MERCHANT_GUID, OTHER] });
    const app = mount(s.options);
    expect((await request(app).post('/cb/SendOrderToMerchant').send(buildOrder({ MerchantGUID: OTHER }))).status).toBe(200);
    expect((await request(app).post('/cb/SendOrderToMerchant').send({ MerchantGUID: OTHER.toUpperCase(), order: buildOrder({ MerchantGUID: OTHER }) })).status).toBe(200);
    const refused = setup(undefined, { merchantGuid: [TEST_MERCHANT_GUID, OTHER] });
    expectRefused(await request(mount(refused.options)).post('/cb/SendOrderToMerchant')
      .send({ MerchantGUID: TEST_MERCHANT_GUID, order: buildOrder({ MerchantGUID: OTHER }) }), refused, 401);
    expect(refusalReason(refused)).toBe('MerchantGUID differs between the top level and order');
  });

  test.each([['a string', 'GE1001CH'], ['a number', 42], ['true', true], ['a list', [buildOrder()]]])(
    '`order` that is %s is not searched for a MerchantGUID: the top-level one decides, nothing crashes',
    async (_what, order) => {
      const s = setup(undefined);
      const res = await request(mount(s.options)).post('/cb/SendOrderToMerchant').send({ OrderId: 'GE1001CH', MerchantGUID: TEST_MERCHANT_GUID, order });
      // Past the MerchantGUID check (an exactly-once delivery needs its OrderId first, so the body carries one).
      expect(res.status).not.toBe(401);
      expect(String(refusalReason(s) ?? '')).not.toMatch(/MerchantGUID/);
      const w = setup(undefined);
      const wrong = await request(mount(w.options)).post('/cb/SendOrderToMerchant').send({ OrderId: 'GE1001CH', MerchantGUID: OTHER, order });
      expect(wrong.status).toBe(401);
      expect(refusalReason(w)).toBe('MerchantGUID does not match');
    },
  );
});

describe('createMerchantGuidMatcher on its own', () => {
  test('configured GUIDs are normalised once: surrounding whitespace dropped, hex case ignored', async () => {
    const { createMerchantGuidMatcher } = await import('../../lib/auth/merchant-guid.js');
    const matches = createMerchantGuidMatcher([` ${TEST_MERCHANT_GUID.toUpperCase()}\n`]);
    expect(matches(TEST_MERCHANT_GUID)).toBe(true);
  });

  test('an empty candidate never matches, even a configured GUID that is blank', async () => {
    const { createMerchantGuidMatcher } = await import('../../lib/auth/merchant-guid.js');
    expect(createMerchantGuidMatcher(['   '])('')).toBe(false);
  });
});
