/**
 * One delivery, walked by deliver() (lib/core/deliver.ts): each callback runs only the stages its
 * registry entry calls for — seen from what it asks of the store and what its adapter receives —
 * and the payload limits of parse hold the same for every callback, through every binding.
 */
import request from 'supertest';
import { createCallbackKit, type CallbackName } from 'crossborder-merchant-kit';
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { BINDINGS } from '../helpers/bindings.js';
import { customerDetails, documentsDelivery, MERCHANT_GUID, order, statusUpdate } from '../helpers/orders.js';
import { recordingAdapter } from '../helpers/recording.js';

/** A kit whose store and adapter write one trace: store calls by method (an order-action read as `orderAction`), then `adapter`. */
function tracedKit(options: Record<string, unknown> = {}) {
  const trace: string[] = [];
  const memory = new MemoryStore();
  const store = new Proxy(memory, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function' || typeof prop !== 'string') return v;
      return (...args: unknown[]) => {
        trace.push(prop === 'getRecord' && String(args[0]).startsWith('~order:') ? 'orderAction' : prop);
        return v.apply(target, args);
      };
    },
  });
  const adapter = recordingAdapter();
  const recorded = adapter.calls.push.bind(adapter.calls);
  adapter.calls.push = (...calls) => { trace.push('adapter'); return recorded(...calls); };
  const kit = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter, logger: false, store, ...options } as never);
  const deliver = async (callback: CallbackName, payload: unknown) => {
    trace.length = 0;
    return kit.handle(callback, {
      method: 'POST', path: '/', query: { merchantCartToken: 'c-1' }, headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload),
    });
  };
  return { kit, adapter, trace, deliver };
}

test('cart info has no key, lookup, lock, hold or documents stage at all: it never asks the store', async () => {
  const t = tracedKit();
  const res = await t.deliver('getCheckoutCartInfo', { MerchantGUID: MERCHANT_GUID, OrderID: 'GE1' });
  expect(res.status).toBe(200);
  expect(t.adapter.calls).toHaveLength(1);
  expect(t.trace).toEqual(['adapter']);
});

test('an order callback is exactly-once with holds (lookup, lock, hold, then the adapter); decode only when the decode option leaves fields', async () => {
  const encoded = order({ PrimaryShipping: customerDetails({ Address1: 'Main+Street+1' }) });
  const t = tracedKit();
  expect((await t.deliver('sendOrderToMerchant', encoded)).status).toBe(200);
  expect(t.trace.slice(0, 2)).toEqual(['getRecord', 'acquire']); // lookup, then claim
  expect(t.trace.indexOf('getFulfilmentHold')).toBeGreaterThan(1);
  expect(t.trace.indexOf('adapter')).toBeGreaterThan(t.trace.indexOf('getFulfilmentHold'));
  expect(t.trace).toContain('saveRecord');
  expect(t.trace).not.toContain('orderAction');
  expect((t.adapter.calls[0].input as any).PrimaryShipping.Address1).toBe('Main Street 1');
  // decode: false leaves nothing to decode: the order's fields reach the adapter as sent.
  const plain = tracedKit({ decode: false });
  expect((await plain.deliver('sendOrderToMerchant', encoded)).status).toBe(200);
  expect((plain.adapter.calls[0].input as any).PrimaryShipping.Address1).toBe('Main+Street+1');
});

test('a status update and a refund notification look for the merchant\'s own call (merchantAction), after the holds, under the lock', async () => {
  for (const [name, payload] of [
    ['updateOrderStatus', statusUpdate('canceled')],
    ['notifyOrderRefunded', { MerchantGUID: MERCHANT_GUID, OrderId: 'GE1001CH', TotalRefundAmount: '10.00', RefundId: 'R-1' }],
  ] as const) {
    const t = tracedKit();
    expect((await t.deliver(name, payload)).status).toBe(200);
    const lock = t.trace.indexOf('acquire');
    const hold = t.trace.indexOf('getFulfilmentHold');
    const action = t.trace.indexOf('orderAction');
    expect(lock).toBeGreaterThanOrEqual(0);
    expect(hold).toBeGreaterThan(lock);
    expect(action).toBeGreaterThan(hold);
    expect(t.trace.indexOf('adapter')).toBeGreaterThan(action);
  }
  const t = tracedKit();
  await t.deliver('sendOrderToMerchant', order());
  expect(t.trace).not.toContain('orderAction');
});

test('the documents webhook checks and counts its documents, never decodes order fields', async () => {
  const t = tracedKit();
  const bad = await t.deliver('receiveAdditionalRequiredDocuments', documentsDelivery({ Documents: [{ DocumentTypeCode: '11', DocumentExtension: 'DOC' }] }));
  expect(bad.status).toBe(400);
  expect(t.adapter.calls).toHaveLength(0);
  const encoded = documentsDelivery({ Comment: 'a+b' });
  expect((await t.deliver('receiveAdditionalRequiredDocuments', encoded)).status).toBe(200);
  expect(t.trace).toContain('recordDocuments');
  expect(t.trace.indexOf('recordDocuments')).toBeGreaterThan(t.trace.indexOf('adapter'));
  expect(t.trace.indexOf('adapter')).toBeGreaterThan(t.trace.indexOf('acquire'));
  const input = t.adapter.calls[0].input as any;
  expect(input.Comment).toBe('a+b');
  expect(Buffer.isBuffer(input.Documents[0].Content)).toBe(true);
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
