/**
 * Express binding: the router works whether or not the host app mounted express.json() first,
 * and lives beside the host app's own routes.
 */
import express from 'express';
import request from 'supertest';
import { createCallbackRouter } from 'crossborder-merchant-kit/express';
import { mountExpress } from '../../helpers/bindings.js';
import { customerDetails, MERCHANT_GUID, order, OTHER_GUID, paymentOrder } from '../../helpers/orders.js';
import { testOptions } from '../../helpers/kit.js';
import { recordingAdapter } from '../../helpers/recording.js';

describe.each([
  ['without express.json()', false],
  ['after express.json()', true],
])('router %s', (_what, preParseJson) => {
  const mount = (options: Record<string, unknown>) =>
    mountExpress({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), ...options } as any, { preParseJson });

  test('serves an order and decodes it exactly once', async () => {
    const adapter = recordingAdapter();
    const res = await request(mount({ adapter })).post('/cb/SendOrderToMerchant')
      .send(order({ PrimaryBilling: customerDetails({ FirstName: 'Ren%C3%A9e', Address1: '%252B' }) }));
    expect(res.status).toBe(200);
    expect(adapter.calls[0].input.PrimaryBilling.FirstName).toBe('Renée');
    expect(adapter.calls[0].input.PrimaryBilling.Address1).toBe('%2B');
  });

  test('wrong MerchantGUID → 401, adapter not called', async () => {
    const adapter = recordingAdapter();
    const res = await request(mount({ adapter })).post('/cb/PerformOrderPayment').send(paymentOrder({ MerchantGUID: OTHER_GUID }));
    expect(res.status).toBe(401);
    expect(adapter.calls).toHaveLength(0);
  });

  test('__proto__ → 400', async () => {
    const adapter = recordingAdapter();
    const res = await request(mount({ adapter })).post('/cb/SendOrderToMerchant').set('content-type', 'application/json')
      .send(`{"MerchantGUID":"${MERCHANT_GUID}","OrderId":"GE1","__proto__":{"polluted":true}}`);
    expect(res.status).toBe(400);
    expect(adapter.calls).toHaveLength(0);
  });

  test('the kit\'s bodyLimit holds even when express.json() allows more', async () => {
    const adapter = recordingAdapter();
    const res = await request(mount({ adapter, bodyLimit: '4kb' })).post('/cb/SendOrderToMerchant').send(order({ CustomerComments: 'x'.repeat(5000) }));
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ Success: false, ErrorCode: 'PAYLOAD_TOO_LARGE' });
    expect(adapter.calls).toHaveLength(0);
  });

  test('non-JSON → 415', async () => {
    const res = await request(mount({})).post('/cb/SendOrderToMerchant').set('content-type', 'text/plain').send('OrderId=1');
    expect(res.status).toBe(415);
  });

  test('cart info GET works', async () => {
    const res = await request(mount({})).get('/cb/GetCheckoutCartInfo?merchantCartToken=c1&countryCode=CH');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.productsList)).toBe(true);
  });
});

test('the router lives beside the host app\'s own routes and leaves other paths to the app', async () => {
  const { options, log: logger } = testOptions();
  const app = express();
  app.get('/health', (_req, res) => { res.json({ ok: true }); });
  app.use('/crossborder', createCallbackRouter(options));
  app.use((_req, res) => { res.status(404).json({ app404: true }); });
  expect((await request(app).get('/health')).body).toEqual({ ok: true });
  expect((await request(app).post('/crossborder/SendOrderToMerchant').send(order())).status).toBe(200);
  expect((await request(app).post('/crossborder/Unknown').send(order())).body).toEqual({ app404: true });
  expect(logger.summaries()).toHaveLength(1);
});

test('routes match as Express matches by default (any case, one trailing slash, query ignored); HEAD and other methods fall through; one reply with content-length', async () => {
  const { options, adapter } = testOptions();
  const app = express();
  app.use('/cb', createCallbackRouter(options));
  app.use((_req, res) => { res.status(404).json({ app404: true }); });
  for (const path of ['/cb/SendOrderToMerchant', '/cb/sendordertomerchant/', '/cb/SendOrderToMerchant?x=1']) {
    const res = await request(app).post(path).send(order());
    expect(res.status).toBe(200);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(res.headers['transfer-encoding']).toBeUndefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
  }
  expect((await request(app).post('/cb/SendOrderToMerchant//').send(order())).body).toEqual({ app404: true });
  expect((await request(app).put('/cb/SendOrderToMerchant').send(order())).body).toEqual({ app404: true });
  expect((await request(app).head('/cb/GetCheckoutCartInfo')).status).toBe(404);
  expect(adapter.calls).toHaveLength(1); // one order: the second and third deliveries are replays
});

test('routes a merchant adds to the returned Router still answer, beside the callbacks', async () => {
  const router = createCallbackRouter(testOptions().options);
  router.get('/status', (req, res) => { res.json({ mine: true, baseUrl: req.baseUrl }); });
  const app = express();
  app.use('/cb', router);
  app.use((_req, res) => { res.status(404).json({ app404: true }); });
  expect((await request(app).get('/cb/status')).body).toEqual({ mine: true, baseUrl: '/cb' });
  expect((await request(app).post('/cb/SendOrderToMerchant').send(order())).status).toBe(200);
  expect((await request(app).get('/cb/other')).body).toEqual({ app404: true });
});

test('the returned Router is Express\'s own: nothing of it is replaced (its handle is the one every Router has)', () => {
  const router = createCallbackRouter(testOptions().options);
  const plain = express.Router();
  expect(Object.hasOwn(router, 'handle')).toBe(Object.hasOwn(plain, 'handle'));
  expect((router as unknown as { handle: unknown }).handle).toBe((plain as unknown as { handle: unknown }).handle);
});
