/**
 * The console shows the parcel dispatch notification on the order's timeline (issue 46, item 5): a real
 * headless Chromium (see console.browser.test.ts), the sandbox on a free loopback port sending its
 * UpdateParcelDispatch to a kit's router after DispatchOrders; each parcel's entry names the event, the
 * parcel and its tracking, and links the exchange, which opens with the request as sent.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { consolePage } from '../../helpers/chromium.js';
import { createServiceClient } from 'crossborder-merchant-kit/client';
import { createCallbackHandler } from 'crossborder-merchant-kit/node';
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { createSandbox, SANDBOX_JWT_PASSWORD, SANDBOX_JWT_USER, SANDBOX_MERCHANT_GUID, type Sandbox } from '../../../lib/tools/sandbox/index.js';
import { recordingAdapter } from '../../helpers/recording.js';

const ORDER = 'GE100000001SB';
let sandbox: Sandbox;
let merchant: Server;
let url: string;
const ui = consolePage({
  start: async () => {
    merchant = createServer(createCallbackHandler({ merchantGuid: SANDBOX_MERCHANT_GUID, adapter: recordingAdapter(), store: new MemoryStore() }));
    await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve));
    sandbox = createSandbox({ port: 0, merchantUrl: `http://127.0.0.1:${(merchant.address() as AddressInfo).port}`, documentsDelayMs: 60_000 });
    url = await sandbox.listen();
    return {
      url,
      close: async () => {
        await sandbox.close();
        merchant.closeAllConnections();
        await new Promise<void>((resolve) => merchant.close(() => resolve()));
      },
    };
  },
  open: false,
});

test('each dispatched parcel is on the timeline: "parcel dispatched, merchant notified", the parcel and its tracking, the exchange one click away', async () => {
  await ui.page.goto(`${url}/`);
  await ui.page.locator('#conn.live').waitFor();
  const client = createServiceClient({ baseUrl: url, merchantGuid: SANDBOX_MERCHANT_GUID, jwt: { userName: SANDBOX_JWT_USER, password: SANDBOX_JWT_PASSWORD } });
  const lines = sandbox.orders.get(ORDER)!.lines;
  const docs = await client.getShippingDocuments({
    OrderId: ORDER, Parcels: [{ ParcelCode: 'P-1', Products: [{ ProductCode: lines[0].sku, DeliveryQuantity: 1 }] }, { ParcelCode: 'P-2', Products: [{ ProductCode: lines[1].sku, DeliveryQuantity: 1 }] }],
  });
  await client.dispatchOrders({ OrderIds: [ORDER] });

  const entries = ui.page.locator(`#order-${ORDER} li[data-event="parcel-dispatch-sent"]`);
  await entries.nth(1).waitFor();
  const tracking = (code: string) => docs.ParcelsTracking!.find((t) => t.ParcelCode === code)!.TrackingNumber;
  expect(await entries.locator('.ev').allTextContents()).toEqual(['parcel dispatched, merchant notified (UpdateParcelDispatch)', 'parcel dispatched, merchant notified (UpdateParcelDispatch)']);
  expect(await entries.locator('.det').allTextContents()).toEqual([` — parcel P-1, tracking ${tracking('P-1')}`, ` — parcel P-2, tracking ${tracking('P-2')}`]);
  const exchange = sandbox.log.list().find((e) => e.kind === 'receiveParcelDispatch')!;
  await entries.first().locator('button.link').click();
  const detail = ui.page.locator('#detail-body');
  await detail.locator('dd', { hasText: `#${exchange.id} · ` }).waitFor();
  const shown = await detail.textContent();
  expect(shown).toContain('/UpdateParcelDispatch');
  expect(shown).toContain('"ParcelCode": "P-1"');
}, 90_000);
