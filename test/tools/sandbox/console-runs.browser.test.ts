/**
 * The console shows every run and its details right (issue 41, items 3 and 4), in headless Chromium:
 * runs from the CLI through the sandbox appear live and survive a reload (the conformance table, the
 * scenario results, the check's orders); "failed only" with nothing failed says so; a cancelled order
 * is not drawn red; 21 redeliveries are one expandable line; a refused-as-expected row's label is
 * shown whole. Left out, with a warning, where there is no Chromium and CI is not set.
 */
import { loopConsolePage } from '../../helpers/console-loop.js';
import { main as cli } from '../../../lib/tools/cli/main.js';
import { CHECK_IDS } from '../../../lib/tools/conformance/index.js';

const ui = loopConsolePage();

const run = async (argv: string[]) => {
  let out = '';
  const code = await cli(argv, { stdout: (t) => { out += t; }, stderr: (t) => { out += t; } });
  return { code, out };
};

test('"failed only" with nothing failed says so instead of an empty panel', async () => {
  expect((await run(['trigger', 'order', '--sandbox', ui.loop.sandboxUrl])).code).toBe(0);
  await ui.page.locator('.ex').first().waitFor();
  await ui.page.locator('#failed-only').check();
  await expect(ui.page.locator('#no-failed').isVisible()).resolves.toBe(true);
  expect(await ui.page.locator('#no-failed').textContent()).toMatch(/^No failed exchanges/);
  await ui.page.locator('#failed-only').uncheck();
  await expect(ui.page.locator('#no-failed').isVisible()).resolves.toBe(false);
}, 60_000);

test('a scenario run from the CLI through the sandbox appears live, and its result survives a reload', async () => {
  expect((await run(['trigger', 'cancel', '--sandbox', ui.loop.sandboxUrl])).code).toBe(0);
  const line = ui.page.locator('#scenario-results li[data-scenario="cancel"]');
  await line.waitFor();
  expect(await line.textContent()).toMatch(/^PASS cancel passed \(\d+ step\(s\)\)/);
  await ui.page.reload();
  await ui.page.locator('#conn.live').waitFor();
  await ui.page.locator('#scenario-results li[data-scenario="cancel"]').waitFor();
  expect(await ui.page.locator('#scenario-results li').evaluateAll((lis) => lis.map((li) => (li as HTMLElement).dataset.scenario))).toEqual(['cancel', 'order']);
}, 60_000);

test('a cancelled order (the merchant accepted the cancellation) is not drawn red', async () => {
  const cancelled = ui.loop.sandbox.orders.list().find((o) => o.cancelled)!;
  const card = ui.page.locator(`#order-${cancelled.orderId}`);
  await card.waitFor();
  const chip = card.locator('.badge', { hasText: /^cancelled$/ });
  expect(await chip.getAttribute('class')).toBe('badge neutral');
  const entry = card.locator('.timeline li[data-event="cancelled"]');
  expect(await entry.getAttribute('class')).toBe('neutral');
  const colours = await chip.evaluate((n) => getComputedStyle(n).backgroundColor);
  const bad = await ui.page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--bad').trim());
  expect(colours).not.toBe(bad);
  expect(await card.locator('.badge.bad').count()).toBe(0);
}, 60_000);

test('an order delivered again 21 times: one line "delivered again ×21", expandable to the 21', async () => {
  const [order] = ui.loop.sandbox.orders.list().filter((o) => o.source === 'scenario' && o.created && !o.cancelled);
  for (let i = 1; i <= 21; i++) ui.loop.sandbox.orders.update(order.orderId, 'delivered-again', () => undefined, { detail: `redelivery ${i}` });
  const card = ui.page.locator(`#order-${order.orderId}`);
  const repeat = card.locator('.timeline li.repeat[data-event="delivered-again"]');
  await repeat.waitFor();
  expect(await repeat.getAttribute('data-repeat')).toBe('21');
  expect(await repeat.locator('summary .ev').textContent()).toBe('delivered again ×21');
  expect(await card.locator('ol.timeline').first().locator(':scope > li').count()).toBeLessThan(6); // not 21 more lines
  const inner = repeat.locator('ol li');
  expect(await inner.count()).toBe(21);
  expect(await inner.first().isVisible()).toBe(false);
  await repeat.locator('summary').click();
  expect(await inner.first().isVisible()).toBe(true);
  expect(await inner.nth(20).textContent()).toContain('redelivery 21');
}, 60_000);

test('check --sandbox from the CLI: the table appears live, its orders under Orders, and the table survives a reload', async () => {
  const cliRun = await run(['check', '--sandbox', ui.loop.sandboxUrl]);
  expect(cliRun.code).toBe(0);
  await ui.page.locator('#check-totals').waitFor({ timeout: 75_000 });
  const ids = () => ui.page.locator('#check-result tbody tr').evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.check));
  expect(await ids()).toEqual(CHECK_IDS);
  expect(await ui.page.locator('#check-totals').textContent()).toBe(`${CHECK_IDS.length} passed, 0 failed, 0 skipped`);
  const fromCheck = ui.loop.sandbox.orders.list().filter((o) => o.source === 'check').map((o) => o.orderId);
  expect(fromCheck.length).toBeGreaterThan(5);
  await ui.page.locator(`#order-${fromCheck[0]}`).waitFor();
  await ui.page.reload();
  await ui.page.locator('#conn.live').waitFor();
  await ui.page.locator('#check-totals').waitFor();
  expect(await ids()).toEqual(CHECK_IDS);
  expect(await ui.page.locator('#check-status').textContent()).toMatch(/^No check failed\. \(run at /);
  await ui.page.locator(`#order-${fromCheck[fromCheck.length - 1]}`).waitFor();
}, 120_000);

test('a refused-as-expected row shows its whole label, not cut', async () => {
  const row = ui.page.locator('.ex.expected', { hasText: 'guid-wrong-refused: wrong MerchantGUID' }).first();
  await row.waitFor();
  const what = row.locator('.what');
  const fits = await what.evaluate((n) => n.scrollWidth <= n.clientWidth + 1 && getComputedStyle(n).textOverflow !== 'ellipsis');
  expect(fits).toBe(true);
  expect(await what.locator('b').isVisible()).toBe(true);
}, 60_000);

test('no page errors in the whole session', () => {
  expect(ui.problems).toEqual([]);
});
