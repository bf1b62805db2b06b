/**
 * The console shows the shipping documents on the order's timeline, each a link that downloads it
 * (issue 39): a real headless Chromium (see console.browser.test.ts), the sandbox on a free loopback
 * port, the service client running the warehouse flow against it.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { consolePage } from '../../helpers/chromium.js';
import { createServiceClient } from 'crossborder-merchant-kit/client';
import { createSandbox, SANDBOX_JWT_PASSWORD, SANDBOX_JWT_USER, SANDBOX_MERCHANT_GUID, type Sandbox } from '../../../lib/tools/sandbox/index.js';

let sandbox: Sandbox;
let url: string;
const ui = consolePage({
  start: async () => {
    sandbox = createSandbox({ port: 0, documentsDelayMs: 60_000 });
    url = await sandbox.listen();
    return { url, close: () => sandbox.close() };
  },
  context: { acceptDownloads: true },
  open: false,
});

test('the documents and the manifest appear on the timeline; each link downloads the file', async () => {
  await ui.page.goto(`${url}/`);
  await ui.page.locator('#conn.live').waitFor();
  const client = createServiceClient({ baseUrl: url, merchantGuid: SANDBOX_MERCHANT_GUID, jwt: { userName: SANDBOX_JWT_USER, password: SANDBOX_JWT_PASSWORD } });
  const sku = sandbox.orders.get('GE100000001SB')!.lines[0].sku;
  const docs = await client.getShippingDocuments({ OrderId: 'GE100000001SB', Parcels: [{ ParcelCode: 'P-1', Products: [{ ProductCode: sku, DeliveryQuantity: 1 }] }] });
  await client.dispatchOrders({ OrderIds: ['GE100000001SB'] });

  const card = ui.page.locator('#order-GE100000001SB');
  await card.locator('li[data-event="manifested"]').waitFor();
  const issued = card.locator('li[data-event="shipping-documents"] a.doc-link');
  expect(await issued.allTextContents()).toEqual(['P-1-label.zpl', 'P-1-invoice.pdf']);
  expect(await card.locator('li[data-event="manifested"] a.doc-link').allTextContents()).toEqual(['manifest-1.pdf']);
  expect(await card.locator('.badge', { hasText: 'dispatched (manifest)' }).count()).toBe(1);

  const [download] = await Promise.all([ui.page.waitForEvent('download'), issued.first().click()]);
  expect(download.suggestedFilename()).toBe('P-1-label.zpl');
  // saveAs, not path(): the browser may be the run's shared one, connected to (test/helpers/chromium.ts)
  const saved = path.join(mkdtempSync(path.join(tmpdir(), 'cbk-download-')), 'P-1-label.zpl');
  await download.saveAs(saved);
  expect(readFileSync(saved).equals(docs.Documents[0].Content!)).toBe(true);
}, 90_000);

test('a parcel code that is markup stays text in the link (no script runs); the file still downloads', async () => {
  const client = createServiceClient({ baseUrl: url, merchantGuid: SANDBOX_MERCHANT_GUID });
  const sku = sandbox.orders.get('GE100000002SB')!.lines[0].sku;
  const code = '<img src=x onerror="window.__xss=1">"/../x';
  await client.getShippingDocuments({ OrderId: 'GE100000002SB', Parcels: [{ ParcelCode: code, Products: [{ ProductCode: sku, DeliveryQuantity: 1 }] }] });
  const links = ui.page.locator('#order-GE100000002SB li[data-event="shipping-documents"] a.doc-link');
  await links.first().waitFor();
  expect(await links.allTextContents()).toEqual([`${code}-label.zpl`, `${code}-invoice.pdf`]);
  expect(await ui.page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  const answer = await ui.page.evaluate(async (href) => (await fetch(href)).status, (await links.first().getAttribute('href'))!);
  expect(answer).toBe(200);
}, 60_000);
