/**
 * Every callback reply, success or failure (lib/core/stages/reply.ts): JSON, Cache-Control no-store, helmet's headers.
 */
import request from 'supertest';
import { BINDINGS } from '../../helpers/bindings.js';
import { MERCHANT_GUID, order, OTHER_GUID, paymentOrder } from '../../helpers/orders.js';
import { recordingAdapter } from '../../helpers/recording.js';

type Send = (app: any) => request.Test;

const RESPONSES: Array<[string, number, Send]> = [
  ['success', 200, (app) => request(app).post('/cb/SendOrderToMerchant').send(order())],
  ['cart info GET', 200, (app) => request(app).get('/cb/GetCheckoutCartInfo?merchantCartToken=c1')],
  ['malformed JSON', 400, (app) => request(app).post('/cb/SendOrderToMerchant').set('content-type', 'application/json').send('{')],
  ['missing merchantCartToken', 400, (app) => request(app).get('/cb/GetCheckoutCartInfo')],
  ['wrong MerchantGUID', 401, (app) => request(app).post('/cb/SendOrderToMerchant').send(order({ MerchantGUID: OTHER_GUID }))],
  ['declined by the adapter', 409, (app) => request(app).post('/cb/UpdateOrderStatus').send({ MerchantGUID: MERCHANT_GUID, OrderId: 'GE1', StatusCode: 'canceled' })],
  ['over bodyLimit', 413, (app) => request(app).post('/cb/SendOrderToMerchant').send(order({ CustomerComments: 'x'.repeat(3000) }))],
  ['not JSON', 415, (app) => request(app).post('/cb/SendOrderToMerchant').set('content-type', 'text/plain').send('hi')],
  ['adapter failure', 500, (app) => request(app).post('/cb/PerformOrderPayment').send(paymentOrder())],
];

async function adapterDecline() {
  const { CallbackError } = await import('crossborder-merchant-kit');
  return recordingAdapter({
    updateOrderStatus: () => { throw new CallbackError('Already shipped', { status: 409 }); },
    performOrderPayment: () => { throw new Error('gateway down'); },
  });
}

describe.each(BINDINGS)('%s', (_name, mount) => {
  test.each(RESPONSES)('%s (%i): JSON, no-store and helmet headers', async (_what, status, send) => {
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter: await adapterDecline(), bodyLimit: 2048 });
    const res = await send(app);
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(() => JSON.parse(res.text)).not.toThrow();
    if (status >= 400) expect(JSON.parse(res.text).Success).toBe(false);
  });

  test('helmet options are passed to helmet', async () => {
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), helmet: { frameguard: { action: 'deny' }, hsts: false } });
    const res = await request(app).post('/cb/SendOrderToMerchant').send(order());
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
  });

  test('helmet: false leaves helmet headers off but keeps JSON and no-store', async () => {
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), helmet: false });
    const res = await request(app).post('/cb/SendOrderToMerchant').send(order());
    expect(res.status).toBe(200);
    expect(res.headers['x-content-type-options']).toBeUndefined();
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });
});
