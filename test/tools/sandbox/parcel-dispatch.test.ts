/**
 * The sandbox's parcel dispatch notification: after DispatchOrders puts an order on a manifest, it
 * sends UpdateParcelDispatch for each parcel, in the form of the page's request table, to a kit's
 * router; the kit hands it to `receiveParcelDispatch` once per parcel; each outcome is on the order's
 * timeline (and so in the console); a merchant without the method gets the notices as 404s, recorded
 * as not mounted, one that declines as refused.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { createCallbackHandler } from 'crossborder-merchant-kit/node';
import { createServiceClient } from 'crossborder-merchant-kit/client';
import { recordingAdapter } from '../../helpers/recording.js';
import { createSandbox, SANDBOX_JWT_PASSWORD, SANDBOX_JWT_USER, SANDBOX_MERCHANT_GUID, type Sandbox } from '../../../lib/tools/sandbox/index.js';

const ORDER = 'GE100000001SB';
let sandbox: Sandbox | undefined;
let merchant: Server | undefined;
afterEach(async () => {
  await sandbox?.close();
  merchant?.closeAllConnections();
  if (merchant) await new Promise<void>((resolve) => merchant!.close(() => resolve()));
  sandbox = undefined;
  merchant = undefined;
});

async function start(adapter: object) {
  merchant = createServer(createCallbackHandler({ merchantGuid: SANDBOX_MERCHANT_GUID, adapter: adapter as never, store: new MemoryStore() }));
  await new Promise<void>((resolve) => merchant!.listen(0, '127.0.0.1', resolve));
  sandbox = createSandbox({ port: 0, merchantUrl: `http://127.0.0.1:${(merchant.address() as AddressInfo).port}`, documentsDelayMs: 60_000, console: false });
  const url = await sandbox.listen();
  const client = createServiceClient({ baseUrl: url, merchantGuid: SANDBOX_MERCHANT_GUID, jwt: { userName: SANDBOX_JWT_USER, password: SANDBOX_JWT_PASSWORD }, retry: { retries: 0 } });
  const lines = sandbox.orders.get(ORDER)!.lines;
  const parcel = (code: string, i: number) => ({ ParcelCode: code, Products: [{ ProductCode: lines[i].sku, DeliveryQuantity: 1 }] });
  return { client, parcel, lines };
}

async function eventsOf(n: number): Promise<string[]> {
  const events = () => sandbox!.orders.get(ORDER)!.timeline.map((t) => t.event).filter((e) => e.startsWith('parcel-dispatch'));
  for (let i = 0; i < 100 && events().length < n; i++) await new Promise((r) => setTimeout(r, 50));
  return events();
}

test('after DispatchOrders: one UpdateParcelDispatch per parcel, as the page describes it, each handed to receiveParcelDispatch once and on the timeline', async () => {
  const adapter = recordingAdapter();
  const { client, parcel, lines } = await start(adapter);
  const docs = await client.getShippingDocuments({ OrderId: ORDER, Parcels: [parcel('P-1', 0), parcel('P-2', 1)] });
  await client.dispatchOrders({ OrderIds: [ORDER] });
  expect(await eventsOf(2)).toEqual(['parcel-dispatch-sent', 'parcel-dispatch-sent']);
  const calls = adapter.calls.filter((c) => c.method === 'receiveParcelDispatch');
  const tracking = (code: string) => docs.ParcelsTracking!.find((t) => t.ParcelCode === code)!.TrackingNumber;
  expect(calls.map((c) => c.input)).toEqual([
    {
      OrderId: ORDER, MerchantGUID: SANDBOX_MERCHANT_GUID, ...(calls[0].input.MerchantOrderId ? { MerchantOrderId: calls[0].input.MerchantOrderId } : {}),
      DispatchedParcel: {
        ParcelCode: 'P-1', Code: 'DispatchedToCustomer', StatusName: 'Dispatched to Customer',
        ParcelTracking: { ParcelTrackingNumber: tracking('P-1'), ParcelTrackingUrl: `https://tracking.sandbox.invalid/${tracking('P-1')}` },
        Products: [{ SKU: lines[0].sku, ...(lines[0].cartItemId ? { CartItemId: lines[0].cartItemId } : {}), Quantity: 1 }],
      },
    },
    expect.objectContaining({ DispatchedParcel: expect.objectContaining({ ParcelCode: 'P-2', Products: [expect.objectContaining({ SKU: lines[1].sku, Quantity: 1 })] }) }),
  ]);
  expect(new Set(calls.map((c) => c.context.idempotencyKey)).size).toBe(2);
  const exchanges = sandbox!.log.list().filter((e) => e.kind === 'receiveParcelDispatch');
  expect(exchanges.map((e) => [e.request.url.endsWith('/UpdateParcelDispatch'), e.response?.status])).toEqual([[true, 200], [true, 200]]);
  const timeline = sandbox!.orders.get(ORDER)!.timeline.filter((t) => t.event === 'parcel-dispatch-sent');
  expect(timeline.map((t) => t.detail)).toEqual([`parcel P-1, tracking ${tracking('P-1')}`, `parcel P-2, tracking ${tracking('P-2')}`]);
  expect(timeline.map((t) => t.exchangeId)).toEqual(exchanges.map((e) => e.id));
});

test('a merchant without receiveParcelDispatch: the notices answered 404, recorded as not mounted; the shipping info still sent', async () => {
  const { receiveParcelDispatch: _r, ...rest } = recordingAdapter();
  const { client, parcel } = await start(rest);
  await client.getShippingDocuments({ OrderId: ORDER, Parcels: [parcel('P-1', 0)] });
  await client.dispatchOrders({ OrderIds: [ORDER] });
  expect(await eventsOf(1)).toEqual(['parcel-dispatch-not-mounted']);
  for (let i = 0; i < 100 && !sandbox!.orders.get(ORDER)!.timeline.some((t) => t.event.startsWith('shipping-info')); i++) await new Promise((r) => setTimeout(r, 50));
  expect(sandbox!.orders.get(ORDER)!.timeline.map((t) => t.event)).toContain('shipping-info-sent');
});

test('a merchant that declines: recorded as refused', async () => {
  const adapter = recordingAdapter({ receiveParcelDispatch: () => ({ Success: false, Message: 'unknown parcel' }) });
  const { client, parcel } = await start(adapter);
  await client.getShippingDocuments({ OrderId: ORDER, Parcels: [parcel('P-1', 0)] });
  await client.dispatchOrders({ OrderIds: [ORDER] });
  expect(await eventsOf(1)).toEqual(['parcel-dispatch-refused']);
});
