/**
 * `npm start`'s loop: the example merchant app and the sandbox pointed at it. Scenarios reach the
 * shop; the merchant's calls back to the sandbox (dispatch, documents) act on the same orders.
 */
import { startLoop, type Loop } from '../../../examples/basic-merchant/loop.js';
import { DEMO_MERCHANT_GUID } from '../../../examples/basic-merchant/app.js';

let loop: Loop;
const printed: string[] = [];

beforeAll(async () => { loop = await startLoop({ merchantPort: 0, sandboxPort: 0, onExchange: (t) => printed.push(t) }); });
afterAll(async () => { await loop.close(); });

test('the banner says where each part listens and what to run next', () => {
  expect(loop.merchantUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/crossborder$/);
  expect(loop.banner).toContain(loop.merchantUrl);
  expect(loop.banner).toContain(loop.sandboxUrl);
  // the commands go through the sandbox, so that its console shows them
  expect(loop.banner).toContain(`npm run cli -- trigger full --sandbox ${loop.sandboxUrl}`);
  expect(loop.banner).toContain(`npm run cli -- check --sandbox ${loop.sandboxUrl}`);
  expect(loop.banner).toContain(`npm run cli -- check ${loop.merchantUrl} --guid ${DEMO_MERCHANT_GUID} --cart-token demo-cart`);
  expect(loop.banner).toContain(`${loop.sandboxUrl}/api/shipments/SBX1000000001`);
});

test('a scenario reaches the shop, then the merchant dispatches and requests documents for that order at the sandbox', async () => {
  const result = await loop.sandbox.runScenario('order');
  expect(result.ok).toBe(true);
  const orderId = result.orderIds[0];
  const placed = loop.shop.orders.get(orderId)!;
  expect(placed).toBeDefined();

  // The service holds the order's shipment: the merchant can read it for the export declaration.
  const tracking = loop.sandbox.orders.get(orderId)!.trackingNumbers[0];
  const shipment = await fetch(`${loop.sandboxUrl}/api/shipments/${tracking}`, { headers: { authorization: 'Bearer any' } });
  expect(shipment.status).toBe(200);
  const info = await shipment.json() as { shipment: { parcels: Array<{ orderId: string; products: Array<{ productCode: string; quantity: number }> }> } };
  expect(info.shipment.parcels[0].orderId).toBe(orderId);
  expect(info.shipment.parcels[0].products.map((p) => [p.productCode, p.quantity])).toEqual(placed.lines.map((l) => [l.sku, l.quantity]));

  const post = (path: string, body: unknown) => fetch(`${loop.sandboxUrl}${path}`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer any' }, body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: await r.json() as Record<string, unknown> }));

  // The merchant refers to the order by its own id (the InternalOrderId it answered) with the V2 spelling.
  const dispatched = await post('/Order/UpdateOrderDispatchV2', {
    MerchantOrderID: placed.internalId, IsCompleted: false,
    Parcels: [{ ParcelCode: 'BOX-1', Products: placed.lines.map((l) => ({ ProductCode: l.sku, DeliveryQuantity: l.quantity })) }],
  });
  expect(dispatched).toEqual({ status: 200, body: { Success: true, Reason: expect.stringMatching(/Dispatch received/) } });
  const state = loop.sandbox.orders.get(orderId)!;
  expect(state.lines.every((l) => l.dispatched === l.ordered)).toBe(true);

  const requested = await post('/additional-required-documents', { Orders: [{ OrderId: orderId, TrackingNumbers: state.trackingNumbers }] });
  expect(requested).toEqual({ status: 200, body: { Success: true } });
  for (let i = 0; i < 300 && !loop.sandbox.orders.get(orderId)!.documentsDelivered; i++) await new Promise((r) => setTimeout(r, 10));
  expect(loop.sandbox.orders.get(orderId)!.documentsDelivered).toBe(true);
  expect(loop.shop.orders.get(orderId)!.documents).toEqual([expect.objectContaining({ type: 'EAD' })]);
  expect(printed.some((t) => t.includes('→ POST /crossborder/SendAdditionalRequiredDocumentsToMerchant'))).toBe(true);
  expect(printed.some((t) => t.includes('← POST /Order/UpdateOrderDispatchV2'))).toBe(true);
});
