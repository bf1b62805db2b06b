/**
 * The MerchantGUID check through the whole kit: every comparison goes through
 * crypto.timingSafeEqual (a `===` or `includes` would fail here), and near misses — prefix, suffix,
 * a part, the GUID inside a longer text, without dashes, padded — are refused.
 */
import crypto from 'node:crypto';
import { jest } from '@jest/globals';
import { MERCHANT_GUID, OTHER_GUID, order } from '../helpers/orders.js';
import { testKit } from '../helpers/kit.js';

afterEach(() => jest.restoreAllMocks());

const NEAR_MISSES: Array<[string, string]> = [
  ['a prefix (one character short)', MERCHANT_GUID.slice(0, -1)],
  ['a suffix (first character missing)', MERCHANT_GUID.slice(1)],
  ['the first half', MERCHANT_GUID.slice(0, 18)],
  ['the last group', MERCHANT_GUID.slice(24)],
  ['one character more', `${MERCHANT_GUID}0`],
  ['inside a longer text', `guid=${MERCHANT_GUID};`],
  ['twice', `${MERCHANT_GUID}${MERCHANT_GUID}`],
  ['without dashes', MERCHANT_GUID.replace(/-/g, '')],
  ['one hex digit changed', `${MERCHANT_GUID.slice(0, -1)}${MERCHANT_GUID.endsWith('0') ? '1' : '0'}`],
  ['padded with a space', `${MERCHANT_GUID} `],
];

test.each(NEAR_MISSES)('a MerchantGUID that is %s is refused (401), the adapter not called', async (_name, guid) => {
  const t = testKit();
  const res = await t.deliver('sendOrderToMerchant', order({ MerchantGUID: guid }));
  expect(res.status).toBe(401);
  expect(t.adapter.calls).toHaveLength(0);
});

test('the right GUID (any hex case) passes through crypto.timingSafeEqual, and its answer decides', async () => {
  const t = testKit({ merchantGuid: [OTHER_GUID, MERCHANT_GUID] });
  const spy = jest.spyOn(crypto, 'timingSafeEqual');
  const ok = await t.deliver('sendOrderToMerchant', order({ MerchantGUID: MERCHANT_GUID.toUpperCase() }));
  expect(ok.status).toBe(200);
  // Both configured GUIDs were compared, in constant time, though the second matched.
  expect(spy.mock.calls.length).toBeGreaterThanOrEqual(2);
  for (const [a, b] of spy.mock.calls) expect((a as Buffer).length).toBe((b as Buffer).length);
  spy.mockReturnValue(false);
  const refused = await t.deliver('sendOrderToMerchant', order({ OrderId: 'GE-2', MerchantGUID: MERCHANT_GUID }));
  expect(refused.status).toBe(401);
  spy.mockReturnValue(true);
  const forced = await t.deliver('sendOrderToMerchant', order({ OrderId: 'GE-3', MerchantGUID: 'not-a-guid' }));
  expect(forced.status).toBe(200);
});
