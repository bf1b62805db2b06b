/**
 * Express 4 (peer range ^4.21 || ^5): the kit's own `import express from 'express'` is swapped for
 * Express 4, as in an app that has Express 4 installed, and the router is mounted in an Express 4 app.
 */
import { jest } from '@jest/globals';
import request from 'supertest';
import { MERCHANT_GUID, order } from '../../helpers/orders.js';

const express4 = (await import("express4")).default as any;
jest.unstable_mockModule('express', () => ({ default: express4, ...express4 }));
const { createCallbackRouter } = await import('../../../lib/bindings/express/index.js');

function app(options: { preParseJson?: boolean } = {}) {
  const calls: any[] = [];
  const a = express4();
  if (options.preParseJson) a.use(express4.json({ limit: '5mb' }));
  a.use('/cb', createCallbackRouter({
    merchantGuid: MERCHANT_GUID,
    adapter: {
      sendOrderToMerchant: async (o: any) => { calls.push(o); return { InternalOrderId: `X4-${o.OrderId}` }; },
      updateOrderStatus: async () => undefined,
      getCheckoutCartInfo: async (r: any) => ({ productsList: [], cultureCode: r.params.cultureCode }),
    },
  }));
  return { app: a, calls };
}

test('the router really is built from Express 4 here', async () => {
  const router = createCallbackRouter({ merchantGuid: MERCHANT_GUID, adapter: { sendOrderToMerchant: () => ({}), updateOrderStatus: () => undefined } });
  const express5 = (await import('express')).default;
  expect(Object.getPrototypeOf(router)).toBe(Object.getPrototypeOf(express4.Router()));
  expect(express5).toBe(express4); // the swap is in force for this file
});

test.each([false, true])('SendOrderToMerchant works in an Express 4 app (express.json() first: %s)', async (preParseJson) => {
  const { app: a, calls } = app({ preParseJson });
  const res = await request(a).post('/cb/SendOrderToMerchant').send({ order: order({ OrderId: `E4-${preParseJson}` }) });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ Success: true, InternalOrderId: `X4-E4-${preParseJson}` });
  expect(res.headers['cache-control']).toBe('no-store');
  expect(calls).toHaveLength(1);
});

test('GetCheckoutCartInfo query parameters reach the adapter under Express 4 query parsing', async () => {
  const { app: a } = app();
  const res = await request(a).get('/cb/GetCheckoutCartInfo?merchantCartToken=c-1&cultureCode=de-CH');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ productsList: [], cultureCode: 'de-CH' });
});

test('MerchantGUID is still enforced under Express 4', async () => {
  const { app: a, calls } = app();
  const res = await request(a).post('/cb/SendOrderToMerchant').send(order({ OrderId: 'E4-bad', MerchantGUID: 'nope' }));
  expect(res.status).toBe(401);
  expect(calls).toHaveLength(0);
});
