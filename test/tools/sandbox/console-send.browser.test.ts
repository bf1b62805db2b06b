/**
 * The console's "Send again" (per logged callback) and "Send a payload" form (issue 51 item 3), in
 * headless Chromium against npm start's loop: a callback sent again appears as a new exchange and is
 * shown; a payload is sent as the callback chosen, with the sandbox's MerchantGUID; a JSON error names
 * its position and never the text; card data never reaches the page. Left out, with a warning, where
 * there is no Chromium and CI is not set (test/setup/browser-config.js).
 */
import type { Browser, Page } from 'playwright-core';
import { openChromium } from '../../helpers/chromium.js';
import { startLoop, type Loop } from '../../../examples/basic-merchant/loop.js';

const quiet = { info() {}, warn() {}, error() {}, debug() {} } as never;

let loop: Loop;
let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  loop = await startLoop({ merchantPort: 0, sandboxPort: 0, logger: quiet });
  browser = await openChromium();
  page = await browser.newPage({ viewport: { width: 1366, height: 860 } });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error' && !/status of 4\d\d/.test(msg.text())) problems.push(`console error: ${msg.text()}`); });
  await page.goto(`${loop.sandboxUrl}/`);
  await page.locator('#conn.live').waitFor();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await loop?.close();
}, 60_000);

test('"Send again" on a logged callback sends it once more: a new exchange, shown, the shop answers as before', async () => {
  const result = await loop.sandbox.runScenario('order');
  const sent = loop.sandbox.log.list({ scenario: 'order' }).find((e) => e.kind === 'sendOrderToMerchant')!;
  await page.locator(`.ex[data-id="${sent.id}"]`).click();
  await page.locator('#resend').click();
  await page.locator('#resend-status.ok').waitFor();
  const again = loop.sandbox.log.list({ sinceId: sent.id }).find((e) => e.scenario === 'resend')!;
  expect(again).toMatchObject({ kind: 'sendOrderToMerchant', orderId: result.orderIds[0], label: expect.stringContaining(`(sent again: #${sent.id})`), request: { body: sent.request.body } });
  expect(again.responseInfo?.InternalOrderId).toBe(sent.responseInfo?.InternalOrderId);
  expect(again.response?.headers['idempotency-replayed']).toBe('true');
  expect(await page.locator('#resend-status').textContent()).toBe(`This is #${sent.id} sent again: accepted.`);
  expect(await page.locator(`.ex[data-id="${again.id}"]`).getAttribute('aria-current')).toBe('true');
  expect(await page.locator('#detail-body h3').first().textContent()).toContain(`(sent again: #${sent.id})`);
}, 60_000);

test('a call the merchant made has no "Send again"', async () => {
  const r = await fetch(`${loop.sandboxUrl}/api/shipments/SBX1000000001`, { headers: { authorization: 'Bearer any' } });
  expect(r.status).toBe(200);
  const call = loop.sandbox.log.list().filter((e) => e.direction === 'from-merchant').at(-1)!;
  await page.locator(`.ex[data-id="${call.id}"]`).click();
  await page.locator('#detail-body h3').first().waitFor();
  await page.waitForFunction((id) => document.querySelector('.ex[aria-current="true"]')?.getAttribute('data-id') === String(id), call.id);
  expect(await page.locator('#resend').count()).toBe(0);
}, 60_000);

test('"Send a payload": a captured order goes as the callback chosen, authenticated by the sandbox; card data masked on the page', async () => {
  const captured = {
    MerchantGUID: 'abcdabcd-abcd-abcd-abcd-abcdabcdabcd', // the production GUID of a captured payload: replaced
    OrderId: 'GE777000001SB', CurrencyCode: 'EUR', Products: [{ Sku: 'MUG-LOGO', Quantity: 1, Price: 12.5, CartItemId: 'c-1' }],
    PrimaryShipping: { FirstName: 'Dana', LastName: 'Levi', CountryCode: 'IL' },
    PaymentDetails: { CardNumber: '4111111111111111', CVVNumber: '737', ExpirationDate: '2030-03-31' },
  };
  await page.locator('#send-callback').selectOption('sendOrderToMerchant');
  await page.locator('#send-payload').fill(JSON.stringify(captured, null, 2));
  await page.locator('#send-button').click();
  await page.locator('#send-status.ok').waitFor();
  const sent = loop.sandbox.log.list({ scenario: 'send' }).at(-1)!;
  expect(await page.locator('#send-status').textContent()).toBe(`Sent as #${sent.id}: HTTP 200, accepted.`);
  expect(sent).toMatchObject({ kind: 'sendOrderToMerchant', orderId: 'GE777000001SB', responseInfo: { Success: true, PaymentAmount: '12.50' } });
  expect((sent.request.body as { MerchantGUID: string }).MerchantGUID).toBe(loop.sandbox.options.merchantGuid);
  expect(loop.shop.orders.get('GE777000001SB')).toBeDefined();
  await page.locator(`.ex[data-id="${sent.id}"][aria-current="true"]`).waitFor();
  const html = await page.content();
  expect(html).not.toContain('4111111111111111');
  expect(await page.locator('#detail-body').textContent()).not.toContain('4111111111111111');
}, 60_000);

test('"Send a payload" with broken JSON: the position, never the text; nothing is sent', async () => {
  const before = loop.sandbox.log.total;
  await page.locator('#send-payload').fill('{\n  "CardNumber": "4111111111111111",\n  "OrderId": GE1\n}');
  await page.locator('#send-button').click();
  await page.locator('#send-status.bad').waitFor();
  const text = await page.locator('#send-status').textContent();
  expect(text).toBe('the payload is not valid JSON at line 3, column 14 (character 52); its content is not shown (it may hold card data or credentials)');
  expect(loop.sandbox.log.total).toBe(before);
  expect(problems).toEqual([]);
}, 60_000);
