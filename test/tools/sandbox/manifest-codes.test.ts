/**
 * The documented DispatchOrders codes the sandbox simulates for orders seeded with `dispatch`
 * (docs.global-e.com `getordersmanifestrequest` / `dispatchorders` error table): each comes with its
 * documented text, through the kit's client as the ServiceError of that code; nothing is manifested.
 */
import { createServiceClient, DISPATCH_ORDERS_CODES } from 'crossborder-merchant-kit/client';
import { createSandbox, SANDBOX_MERCHANT_GUID, type Sandbox } from '../../../lib/tools/sandbox/index.js';
import { B_TEXT } from '../../../lib/tools/sandbox/manifest-request.js';
import { failure } from '../../client/setup.js';

let sandbox: Sandbox | undefined;
afterEach(async () => { await sandbox?.close(); sandbox = undefined; });

async function seeded(dispatch: string): Promise<{ url: string; orderId: string }> {
  const orderId = `GE-${dispatch}`;
  sandbox = createSandbox({
    port: 0, console: false, documentsDelayMs: 60_000,
    data: { orders: [{ orderId, merchant: 'default', trackingNumbers: [], lines: [{ sku: 'SKU-1', quantity: 2 }], dispatch }] },
  });
  return { url: await sandbox.listen(), orderId };
}

test.each<[string, string, { OuterBoxesAmount?: number }]>([
  ['B003', 'consolidated', {}],
  ['B004', 'not-consolidated', { OuterBoxesAmount: 1 }],
  ['B200', 'no-destination-hub', {}],
  ['B400', 'manifest-fails', {}],
  ['B500', 'consolidated-awb-fails', { OuterBoxesAmount: 1 }],
  ['B600', 'no-source-hub', {}],
])('%s for an order seeded with dispatch: %s', async (code, dispatch, extra) => {
  const { url, orderId } = await seeded(dispatch);
  const client = createServiceClient({ baseUrl: url, merchantGuid: SANDBOX_MERCHANT_GUID, accessToken: 'any', retry: { retries: 0 } });
  await client.getShippingDocuments({ OrderId: orderId, Parcels: [{ ParcelCode: 'P-1', Products: [{ ProductCode: 'SKU-1', DeliveryQuantity: 1 }] }] });
  const err = await failure(client.dispatchOrders({ OrderIds: [orderId], ...extra }));
  expect(err).toMatchObject({ code, retryable: false, status: 400 });
  expect(err.description.startsWith(DISPATCH_ORDERS_CODES[code])).toBe(true);
  const raw = sandbox!.log.list({ orderId }).find((e) => e.kind === 'dispatchOrders')!;
  expect(raw.response!.body).toMatchObject({ IsSuccess: false, Code: code, ErrorText: B_TEXT[code] });
  expect(sandbox!.orders.get(orderId)!.manifested).toBe(false);
});

test.each<[string, { OuterBoxesAmount?: number }]>([
  ['consolidated', { OuterBoxesAmount: 1 }],
  ['not-consolidated', {}],
  ['consolidated-awb-fails', {}],
])('an order seeded %s is dispatched when the request fits it', async (dispatch, extra) => {
  const { url, orderId } = await seeded(dispatch);
  const client = createServiceClient({ baseUrl: url, merchantGuid: SANDBOX_MERCHANT_GUID, accessToken: 'any', retry: { retries: 0 } });
  await client.getShippingDocuments({ OrderId: orderId, Parcels: [{ ParcelCode: 'P-1', Products: [{ ProductCode: 'SKU-1', DeliveryQuantity: 1 }] }] });
  await client.dispatchOrders({ OrderIds: [orderId], ...extra });
  expect(sandbox!.orders.get(orderId)!.manifested).toBe(true);
});

test('an unknown dispatch simulation in the seed is refused when loaded', () => {
  expect(() => createSandbox({ port: 0, console: false, data: { orders: [{ orderId: 'GE-X', merchant: 'default', trackingNumbers: [], lines: [], dispatch: 'sometimes' }] } }))
    .toThrow(/dispatch must be one of consolidated/);
});
