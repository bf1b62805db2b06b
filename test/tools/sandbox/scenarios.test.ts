/**
 * Scenarios against the example merchant app, booted in-process: every scenario passes, the shop
 * really holds what the sandbox sent, and the exchange log and order state tell the story.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BASE_PATH, createExampleApp, DEMO_MERCHANT_GUID } from '../../../examples/basic-merchant/app.js';
import type { Shop } from '../../../examples/basic-merchant/shop.js';
import { createSandbox, SCENARIO_NAMES, type Sandbox, type SandboxEvent } from '../../../lib/tools/sandbox/index.js';

let server: Server;
let shop: Shop;
let sandbox: Sandbox;
let merchantUrl: string;

beforeAll(async () => {
  const example = createExampleApp();
  shop = example.shop;
  server = example.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  merchantUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE_PATH}`;
  sandbox = createSandbox({ port: 0, merchantUrl, merchantGuid: DEMO_MERCHANT_GUID, cartToken: 'demo-cart', documentsDelayMs: 0 });
  await sandbox.listen();
});
afterAll(async () => {
  await sandbox.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

test.each(SCENARIO_NAMES.filter((n) => n !== 'full'))('scenario %s passes against the example app', async (name) => {
  const result = await sandbox.runScenario(name);
  expect(result.steps.filter((s) => s.status === 'fail')).toEqual([]);
  expect(result.ok).toBe(true);
  expect(result.steps.length).toBeGreaterThan(0);
});

test('order: the shop holds the order with the decoded address, and the order state records the merchant ids', async () => {
  const result = await sandbox.runScenario('order');
  const [orderId] = result.orderIds;
  const placed = shop.orders.get(orderId)!;
  expect(placed.shipTo).toEqual({ name: 'Renée Cohen Levi', address: 'Hertzel 12/4', city: 'Tel Aviv', countryCode: 'IL', email: 'alex+tag@test.com' });
  expect(placed.lines.map((l) => l.sku)).toEqual(['TSHIRT-BLUE-M', 'MUG-LOGO']); // the cart's in-stock products
  const state = sandbox.orders.get(orderId)!;
  expect(state).toMatchObject({ created: true, internalOrderId: placed.internalId, merchantOrderId: placed.displayId, source: 'scenario' });
  expect(state.timeline.map((t) => t.event)).toEqual(['created']);
});

test('redelivery: 22 deliveries, one order in the shop, one InternalOrderId', async () => {
  const before = shop.orders.size;
  const result = await sandbox.runScenario('redelivery');
  expect(result.ok).toBe(true);
  expect(shop.orders.size).toBe(before + 1);
  const exchanges = sandbox.log.list({ orderId: result.orderIds[0] });
  expect(exchanges).toHaveLength(22);
  expect(new Set(exchanges.map((e) => e.responseInfo?.InternalOrderId)).size).toBe(1);
});

test('documents and cancel and payment: order state follows, and the card never reaches the log', async () => {
  const events: SandboxEvent[] = [];
  const stop = sandbox.log.subscribe((e) => events.push(e));
  const docs = await sandbox.runScenario('documents');
  const cancel = await sandbox.runScenario('cancel');
  const pay = await sandbox.runScenario('order-with-payment');
  stop();
  expect(sandbox.orders.get(docs.orderIds[0])).toMatchObject({ holdAnnounced: true, documentsDelivered: true });
  expect(shop.orders.get(docs.orderIds[0])!.documents).toHaveLength(1);
  expect(sandbox.orders.get(cancel.orderIds[0])!.cancelled).toBe(true);
  expect(shop.orders.get(cancel.orderIds[0])!.status).toBe('canceled');
  expect(sandbox.orders.get(pay.orderIds[0])!.paid).toEqual({ amount: expect.stringMatching(/^\d+\.\d{2}$/), currency: 'EUR' });
  const types = events.map((e) => e.type);
  expect(types[0]).toBe('scenario-started');
  expect(types.filter((t) => t === 'scenario-finished')).toHaveLength(3);
  expect(types).toEqual(expect.arrayContaining(['exchange', 'order']));
  const text = JSON.stringify(sandbox.log.list());
  expect(text).not.toContain('4111111111111111');
  expect(text).not.toContain('"737"');
  expect(text).toContain('************1111');
});

test('full runs every scenario in order; an unknown name is refused', async () => {
  const result = await sandbox.runScenario('full');
  expect(result.ok).toBe(true);
  expect([...new Set(result.steps.map((s) => s.scenario))]).toEqual(SCENARIO_NAMES.filter((n) => n !== 'full'));
  await expect(sandbox.runScenario('ful')).rejects.toThrow(/unknown scenario "ful"/);
});

test('a scenario order\'s shipment: catalogue SKUs are complete; an unknown SKU answers 409 (no commodity code)', async () => {
  const { shipmentForOrder } = await import('../../../lib/tools/sandbox/seed.js');
  const { readShipment } = await import('../../../lib/tools/sandbox/shipments.js');
  const known = readShipment(shipmentForOrder({ orderId: 'GE1SB', trackingNumber: '1ZSBX1', lines: [{ sku: 'MUG-LOGO', quantity: 3, price: 12.5 }] }));
  expect(known.ok && (known.information.exportDeclaration as { commercialInvoice: { totalValue: number } }).commercialInvoice.totalValue).toBe(37.5);
  const unknown = readShipment(shipmentForOrder({ orderId: 'GE2SB', trackingNumber: '1ZSBX2', lines: [{ sku: 'NOT-IN-CATALOGUE', quantity: 1, price: 5 }] }));
  expect(unknown).toEqual({ ok: false, missing: 'the export commodity code of NOT-IN-CATALOGUE' });
});

test('a merchant that is down: the steps fail with the reason, nothing throws', async () => {
  const down = createSandbox({ port: 0, merchantUrl: 'http://127.0.0.1:9/none', callbackTimeoutMs: 2000 });
  try {
    const result = await down.runScenario('order');
    expect(result.ok).toBe(false);
    expect(result.steps[0].detail).toMatch(/no reply/);
  } finally {
    await down.close();
  }
});

test('without a cart token cart-info is skipped (not passed) and orders use the default products', async () => {
  const noCart = createSandbox({ port: 0, merchantUrl, merchantGuid: DEMO_MERCHANT_GUID });
  try {
    const result = await noCart.runScenario('cart-info');
    expect(result.steps).toEqual([expect.objectContaining({ status: 'skip', detail: expect.stringMatching(/cart token/) })]);
  } finally {
    await noCart.close();
  }
});
