/**
 * The basic-merchant example, booted in-process: each callback does what the README and the demo
 * say, so the example stays working.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { BASE_PATH, createExampleApp, DEMO_MERCHANT_GUID } from '../../../examples/basic-merchant/app.js';
import { luhnValid } from '../../../examples/basic-merchant/shop.js';
import { customerDetails, order, OTHER_GUID, paymentDetails, product, statusUpdate } from '../../helpers/orders.js';
import { captureLogger } from '../../helpers/recording.js';

const G = DEMO_MERCHANT_GUID;
const tshirt = (Quantity = 2) => product({ Sku: 'TSHIRT-BLUE-M', Quantity, Price: 29.95 });
const mug = () => product({ Sku: 'MUG-LOGO', Quantity: 1, Price: 12.5 });
const shopOrder = (OrderId: string, extra: Record<string, unknown> = {}) =>
  order({ MerchantGUID: G, OrderId, Products: [tshirt(), mug()], ...extra });

function boot() {
  const logger = captureLogger();
  const { app, shop } = createExampleApp({ logger });
  const post = (path: string, body: unknown) => request(app).post(`${BASE_PATH}${path}`).send(body as object);
  return { app, shop, logger, post };
}

test('cart info lists the in-stock products of the cart, GET and POST', async () => {
  const { app } = boot();
  const get = await request(app).get(`${BASE_PATH}/GetCheckoutCartInfo?merchantCartToken=demo-cart&countryCode=CH`);
  expect(get.status).toBe(200);
  expect(get.body.productsList.map((p: any) => [p.ProductCode, p.OrderedQuantity])).toEqual([['TSHIRT-BLUE-M', 2], ['MUG-LOGO', 1]]);
  expect(get.body.CountryCode).toBe('CH');
  const post = await request(app).post(`${BASE_PATH}/GetCheckoutCartInfo?merchantCartToken=demo-cart`).send({ MerchantGUID: G, OrderID: 'GE1' });
  expect(post.body.productsList).toHaveLength(2);
  const unknown = await request(app).get(`${BASE_PATH}/GetCheckoutCartInfo?merchantCartToken=nope`);
  expect(unknown.status).toBe(404);
  expect(unknown.body).toMatchObject({ Success: false, ErrorCode: 'CART_NOT_FOUND' });
});

test('an order is placed with decoded addresses, reserves stock, and is updated when sent again', async () => {
  const { shop, post } = boot();
  const res = await post('/SendOrderToMerchant', { order: shopOrder('GE1', { PrimaryShipping: customerDetails({ FirstName: 'Ren%C3%A9e', LastName: 'Cohen', Address1: 'Hertzel+12' }) }) });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ Success: true, InternalOrderId: 'BM-1001', OrderId: '1001', StatusCode: 'received' });
  expect(shop.order('GE1').shipTo).toMatchObject({ name: 'Renée Cohen', address: 'Hertzel 12' });
  expect(shop.catalogue.get('TSHIRT-BLUE-M')!.stock).toBe(498);
  const again = await post('/SendOrderToMerchant', shopOrder('GE1', { Products: [tshirt(1)] }));
  expect(again.body.InternalOrderId).toBe('BM-1001');
  expect(shop.catalogue.get('TSHIRT-BLUE-M')!.stock).toBe(499);
});

test('an out-of-stock order is declined with the shop\'s reason', async () => {
  const { post } = boot();
  const res = await post('/SendOrderToMerchant', shopOrder('GE1', { Products: [product({ Sku: 'CAP-RED', Quantity: 1 })] }));
  expect(res.status).toBe(409);
  expect(res.body).toEqual({ Success: false, Message: 'CAP-RED has 0 in stock', ErrorCode: 'OUT_OF_STOCK' });
});

test('payment: the charged amount and currency are reported; only the last four digits are kept', async () => {
  const { shop, post } = boot();
  await post('/SendOrderToMerchant', shopOrder('GE1'));
  const res = await post('/PerformOrderPayment', shopOrder('GE1', { PaymentDetails: paymentDetails(), DiscountedShippingPrice: 9.9 }));
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ Success: true, InternalOrderId: 'BM-1001', StatusCode: 'paid', PaymentAmount: '82.30', PaymentCurrencyCode: 'EUR' });
  expect(shop.payments).toEqual([{ orderId: 'GE1', amount: '82.30', currency: 'EUR', cardLast4: '1111', refunded: false }]);
  expect(JSON.stringify(shop)).not.toContain('4111111111111111');
});

test('SendOrderToMerchant with PaymentDetails pays in the same call', async () => {
  const { post } = boot();
  const res = await post('/SendOrderToMerchant', shopOrder('GE1', { PaymentDetails: paymentDetails() }));
  expect(res.body).toMatchObject({ Success: true, PaymentAmount: '72.40', PaymentCurrencyCode: 'EUR' });
});

test('a card failing the Luhn check is declined with 402', async () => {
  expect(luhnValid('4111111111111111')).toBe(true);
  expect(luhnValid('4111111111111112')).toBe(false);
  const { post } = boot();
  const res = await post('/PerformOrderPayment', shopOrder('GE1', { PaymentDetails: paymentDetails({ CardNumber: '4111111111111112' }) }));
  expect(res.status).toBe(402);
  expect(res.body).toEqual({ Success: false, Message: 'The card was declined', ErrorCode: 'CARD_DECLINED' });
});

test('cancellation restocks and refunds; a shipped order cannot be canceled', async () => {
  const { shop, post } = boot();
  await post('/SendOrderToMerchant', shopOrder('GE1', { PaymentDetails: paymentDetails() }));
  const res = await post('/UpdateOrderStatus', { order: statusUpdate('canceled', { MerchantGUID: G, OrderId: 'GE1' }) });
  expect(res.body).toEqual({ Success: true, InternalOrderId: 'BM-1001', OrderId: '1001', StatusCode: 'canceled' });
  expect(shop.catalogue.get('TSHIRT-BLUE-M')!.stock).toBe(500);
  expect(shop.payments[0].refunded).toBe(true);

  await post('/SendOrderToMerchant', shopOrder('GE2'));
  await post('/UpdateOrderStatus', statusUpdate('shipped', { MerchantGUID: G, OrderId: 'GE2' }));
  const late = await post('/UpdateOrderStatus', statusUpdate('canceled', { MerchantGUID: G, OrderId: 'GE2' }));
  expect(late.status).toBe(409);
  expect(late.body.ErrorCode).toBe('ALREADY_SHIPPED');
  const unknown = await post('/UpdateOrderStatus', statusUpdate('canceled', { MerchantGUID: G, OrderId: 'GE404' }));
  expect(unknown.status).toBe(404);
});

test('an order with AdditionalRequiredDocuments is held until the documents webhook delivers them', async () => {
  const { shop, post } = boot();
  const ead = { DocumentTypeCode: '11', DocumentTypeName: 'EAD', DocumentExtension: 'PDF', URL: 'https://docs.example.com/ead/GE1.pdf' };
  const placed = await post('/SendOrderToMerchant', shopOrder('GE1', { AdditionalRequiredDocuments: [ead] }));
  expect(placed.body.StatusCode).toBe('awaiting-documents');
  const docs = await post('/SendAdditionalRequiredDocumentsToMerchant', { MerchantGUID: G, OrderId: 'GE1', Documents: [ead] });
  expect(docs.status).toBe(200);
  expect(docs.body.StatusCode).toBe('received');
  expect(shop.order('GE1').documents).toEqual([{ type: 'EAD', url: ead.URL }]);
});

test('a wrong MerchantGUID is refused and nothing changes in the shop', async () => {
  const { shop, post, logger } = boot();
  const res = await post('/SendOrderToMerchant', shopOrder('GE1', { MerchantGUID: OTHER_GUID }));
  expect(res.status).toBe(401);
  expect(shop.orders.size).toBe(0);
  expect(logger.summaries()[0].obj).toMatchObject({ callback: 'sendOrderToMerchant', status: 401 });
});

test('MERCHANT_GUID can be set', async () => {
  const { app } = createExampleApp({ merchantGuid: OTHER_GUID });
  expect((await request(app).post(`${BASE_PATH}/SendOrderToMerchant`).send(shopOrder('GE1'))).status).toBe(401);
  expect((await request(app).post(`${BASE_PATH}/SendOrderToMerchant`).send(shopOrder('GE1', { MerchantGUID: OTHER_GUID }))).status).toBe(200);
});

test('npm run demo (demo.ts) runs against the example and every callback answers as expected', async () => {
  const { app, shop } = createExampleApp();
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const demo = fileURLToPath(new URL('../../../examples/basic-merchant/demo.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', demo], {
      env: { ...process.env, NODE_OPTIONS: '', BASE_URL: `http://127.0.0.1:${port}` },
    });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(out).toContain('All callbacks answered as expected.');
    expect(code).toBe(0);
    expect(out).toMatch(/→ POST \/crossborder\/PerformOrderPayment[^\n]*\n← 200 .*"PaymentAmount":"82.30"/);
    expect(out).not.toContain('4111111111111111');
    expect(shop.orders.size).toBe(2);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

const serverScript = fileURLToPath(new URL('../../../examples/basic-merchant/server.ts', import.meta.url));
const demoScript = fileURLToPath(new URL('../../../examples/basic-merchant/demo.ts', import.meta.url));

/** Runs an example script with tsx; resolves when `until` appears in its stdout, or when it exits. */
function runScript(script: string, env: Record<string, string>, until?: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, NODE_OPTIONS: '', LOG_LEVEL: 'silent', BASE_URL: '', ...env } });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => { out.stdout += d; });
  child.stderr.on('data', (d) => { out.stderr += d; });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const ready = until === undefined ? exited : new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => { if (out.stdout.includes(until)) resolve(); });
    exited.then((code) => reject(new Error(`exited ${code} before "${until}": ${out.stdout}${out.stderr}`)));
  });
  return { child, out, exited, ready };
}

test('npm start on a port already taken says so and exits 1, without the "listening" banner', async () => {
  const taken = http.createServer().listen(0);
  await new Promise((resolve) => taken.once('listening', resolve));
  try {
    const run = runScript(serverScript, { PORT: String((taken.address() as AddressInfo).port) });
    expect(await run.exited).toBe(1);
    expect(run.out.stderr).toContain(`cannot listen on port ${(taken.address() as AddressInfo).port}`);
    expect(run.out.stdout).not.toContain('listening');
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
});

test('npm start and npm run demo both honour PORT', async () => {
  const probe = http.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const port = String((probe.address() as AddressInfo).port);
  await new Promise((resolve) => probe.close(resolve));
  const server = runScript(serverScript, { PORT: port }, 'Try it: npm run demo');
  try {
    await server.ready;
    expect(server.out.stdout).toContain(`listening on http://localhost:${port}`);
    const demo = runScript(demoScript, { PORT: port });
    expect(await demo.exited).toBe(0);
    expect(demo.out.stdout).toContain('All callbacks answered as expected.');
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
});
