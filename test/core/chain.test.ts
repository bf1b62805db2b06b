/**
 * One chain per registry entry (lib/core/chain.ts): each callback runs only the steps its entry
 * calls for, and the payload limits of parse hold the same for every callback, through both bindings.
 */
import request from 'supertest';
import { chainOf } from '../../lib/core/chain.js';
import { REGISTRY } from '../../lib/core/registry.js';
import { BINDINGS } from '../helpers/bindings.js';
import { MERCHANT_GUID, order } from '../helpers/orders.js';
import { recordingAdapter } from '../helpers/recording.js';

test('cart info has no fingerprint, idempotency, hold or documents step at all', () => {
  expect(chainOf(REGISTRY.getCheckoutCartInfo, true)).toEqual(['respond', 'authenticate', 'parse', 'merchantGuid', 'validate', 'cartInfo']);
});

test('an order callback is exactly-once with holds; decode only when the decode option leaves fields', () => {
  expect(chainOf(REGISTRY.sendOrderToMerchant, true)).toEqual([
    'respond', 'authenticate', 'parse', 'merchantGuid', 'validate', 'fingerprint', 'decode', 'idempotency', 'holds', 'responseInfo',
  ]);
  expect(chainOf(REGISTRY.updateOrderStatus, false)).not.toContain('decode');
});

test('a status update and a refund notification look for the merchant\'s own call (merchantAction), after the holds, under the lock', () => {
  for (const name of ['updateOrderStatus', 'notifyOrderRefunded'] as const) {
    expect(chainOf(REGISTRY[name], true)).toEqual([
      'respond', 'authenticate', 'parse', 'merchantGuid', 'validate', 'fingerprint', 'decode', 'idempotency', 'holds', 'merchantAction', 'responseInfo',
    ]);
  }
  expect(chainOf(REGISTRY.sendOrderToMerchant, true)).not.toContain('merchantAction');
});

test('the documents webhook checks and counts its documents, never decodes order fields', () => {
  expect(chainOf(REGISTRY.receiveAdditionalRequiredDocuments, true)).toEqual([
    'respond', 'authenticate', 'parse', 'merchantGuid', 'validate', 'fingerprint', 'documents', 'idempotency', 'documentsHolds', 'responseInfo',
  ]);
});

const nest = (depth: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { n: v };
  return v;
};

describe.each(BINDINGS)('%s: the same payload limits for every callback', (_name, mount) => {
  const cases: Array<[string, string, Record<string, unknown>]> = [
    ['cart info (POST)', '/cb/GetCheckoutCartInfo?merchantCartToken=c-1', { MerchantGUID: MERCHANT_GUID, OrderID: 'GE1', Extra: nest(3_000) }],
    ['an order', '/cb/SendOrderToMerchant', order({ Extra: nest(3_000) })],
    ['cart info, nested just past the limit', '/cb/GetCheckoutCartInfo?merchantCartToken=c-1', { MerchantGUID: MERCHANT_GUID, Extra: nest(200) }],
    ['an order, nested just past the limit', '/cb/SendOrderToMerchant', order({ Extra: nest(200) })],
  ];
  test.each(cases)('%s nested too deeply is a 400, the adapter not called', async (_what, path, body) => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post(path)
      .set('content-type', 'application/json').send(JSON.stringify(body));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ Success: false, ErrorCode: 'INVALID_REQUEST' });
    expect(adapter.calls).toHaveLength(0);
  });

  test.each([
    ['cart info', '/cb/GetCheckoutCartInfo?merchantCartToken=c-1', { MerchantGUID: MERCHANT_GUID, Extra: nest(150) }],
    ['an order', '/cb/SendOrderToMerchant', order({ Extra: nest(150) })],
  ])('%s nested within the limit is accepted', async (_what, path, body) => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post(path)
      .set('content-type', 'application/json').send(JSON.stringify(body));
    expect(res.status).toBe(200);
    expect(adapter.calls).toHaveLength(1);
  });

  test.each([
    ['cart info', '/cb/GetCheckoutCartInfo?merchantCartToken=c-1', `{"MerchantGUID":"${MERCHANT_GUID}","Extra":{"__proto__":{"polluted":1}}}`],
    ['an order', '/cb/SendOrderToMerchant', JSON.stringify(order()).replace(/}$/, ',"Extra":{"__proto__":{"polluted":1}}}')],
  ])('%s with a __proto__ key is a 400', async (_what, path, text) => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post(path).set('content-type', 'application/json').send(text);
    expect(res.status).toBe(400);
    expect(adapter.calls).toHaveLength(0);
  });
});
