/**
 * The console's "Send again" (per logged callback) and "Send a payload" form (issue 51 item 3), in
 * headless Chromium against npm start's loop: a callback sent again appears as a new exchange and is
 * shown; a payload is sent as the callback chosen, with the sandbox's MerchantGUID; a JSON error names
 * its position and never the text; card data never reaches the page. Left out, with a warning, where
 * there is no Chromium and CI is not set (test/setup/browser-config.js).
 */
import { loopConsolePage } from '../../helpers/console-loop.js';

const ui = loopConsolePage({
  problem: (msg) => msg.type() === 'error' && !/status of 4\d\d/.test(msg.text()),
});

test('"Send again" on a logged callback sends it once more: a new exchange, shown, the shop answers as before', async () => {
  const result = await ui.loop.sandbox.runScenario('order');
  const sent = ui.loop.sandbox.log.list({ scenario: 'order' }).find((e) => e.kind === 'sendOrderToMerchant')!;
  await ui.page.locator(`.ex[data-id="${sent.id}"]`).click();
  await ui.page.locator('#resend').click();
  await ui.page.locator('#resend-status.ok').waitFor();
  const again = ui.loop.sandbox.log.list({ sinceId: sent.id }).find((e) => e.scenario === 'resend')!;
  expect(again).toMatchObject({ kind: 'sendOrderToMerchant', orderId: result.orderIds[0], label: expect.stringContaining(`(sent again: #${sent.id})`), request: { body: sent.request.body } });
  expect(again.responseInfo?.InternalOrderId).toBe(sent.responseInfo?.InternalOrderId);
  expect(again.response?.headers['idempotency-replayed']).toBe('true');
  expect(await ui.page.locator('#resend-status').textContent()).toBe(`This is #${sent.id} sent again: accepted.`);
  expect(await ui.page.locator(`.ex[data-id="${again.id}"]`).getAttribute('aria-current')).toBe('true');
  expect(await ui.page.locator('#detail-body h3').first().textContent()).toContain(`(sent again: #${sent.id})`);
}, 60_000);

test('a call the merchant made has no "Send again"', async () => {
  const r = await fetch(`${ui.loop.sandboxUrl}/api/shipments/SBX1000000001`, { headers: { authorization: 'Bearer any' } });
  expect(r.status).toBe(200);
  const call = ui.loop.sandbox.log.list().filter((e) => e.direction === 'from-merchant').at(-1)!;
  await ui.page.locator(`.ex[data-id="${call.id}"]`).click();
  await ui.page.locator('#detail-body h3').first().waitFor();
  await ui.page.waitForFunction((id) => document.querySelector('.ex[aria-current="true"]')?.getAttribute('data-id') === String(id), call.id);
  expect(await ui.page.locator('#resend').count()).toBe(0);
}, 60_000);

test('"Send a payload": a captured order goes as the callback chosen, authenticated by the sandbox; card data masked on the page', async () => {
  const captured = {
    MerchantGUID: 'abcdabcd-abcd-abcd-abcd-abcdabcdabcd', // the production GUID of a captured payload: replaced
    OrderId: 'GE777000001SB', CurrencyCode: 'EUR', Products: [{ Sku: 'MUG-LOGO', Quantity: 1, Price: 12.5, CartItemId: 'c-1' }],
    PrimaryShipping: { FirstName: 'Dana', LastName: 'Levi', CountryCode: 'IL' },
    PaymentDetails: { CardNumber: '4111111111111111', CVVNumber: '737', ExpirationDate: '2030-03-31' },
  };
  await ui.page.locator('#send-callback').selectOption('sendOrderToMerchant');
  await ui.page.locator('#send-payload').fill(JSON.stringify(captured, null, 2));
  await ui.page.locator('#send-button').click();
  await ui.page.locator('#send-status.ok').waitFor();
  const sent = ui.loop.sandbox.log.list({ scenario: 'send' }).at(-1)!;
  expect(await ui.page.locator('#send-status').textContent()).toBe(`Sent as #${sent.id}: HTTP 200, accepted.`);
  expect(sent).toMatchObject({ kind: 'sendOrderToMerchant', orderId: 'GE777000001SB', responseInfo: { Success: true, PaymentAmount: '12.50' } });
  expect((sent.request.body as { MerchantGUID: string }).MerchantGUID).toBe(ui.loop.sandbox.options.merchantGuid);
  expect(ui.loop.shop.orders.get('GE777000001SB')).toBeDefined();
  await ui.page.locator(`.ex[data-id="${sent.id}"][aria-current="true"]`).waitFor();
  const html = await ui.page.content();
  expect(html).not.toContain('4111111111111111');
  expect(await ui.page.locator('#detail-body').textContent()).not.toContain('4111111111111111');
}, 60_000);

test('"Send a payload" with broken JSON: the position, never the text; nothing is sent', async () => {
  const before = ui.loop.sandbox.log.total;
  await ui.page.locator('#send-payload').fill('{\n  "CardNumber": "4111111111111111",\n  "OrderId": GE1\n}');
  await ui.page.locator('#send-button').click();
  await ui.page.locator('#send-status.bad').waitFor();
  const text = await ui.page.locator('#send-status').textContent();
  expect(text).toBe('the payload is not valid JSON at line 3, column 14 (character 52); its content is not shown (it may hold card data or credentials)');
  expect(ui.loop.sandbox.log.total).toBe(before);
  expect(ui.problems).toEqual([]);
}, 60_000);
