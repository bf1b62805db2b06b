/**
 * The sandbox web console in a real headless Chromium (Debian's `chromium`, driven by playwright-core;
 * nothing downloaded). The example merchant app and the sandbox run as `npm start` runs them, on free loopback ports; the test clicks
 * through the console as a developer would and saves screenshots under test-artifacts/console/ (git-ignored).
 * Left out, with a warning, where there is no Chromium and CI is not set (test/setup/browser-config.js).
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { consolePage } from '../../helpers/chromium.js';
import { DEMO_MERCHANT_GUID } from '../../../examples/basic-merchant/app.js';
import { DEMO_CART_TOKEN, startLoop, type Loop } from '../../../examples/basic-merchant/loop.js';
import { main as cli } from '../../../lib/tools/cli/main.js';
import type { Sandbox } from '../../../lib/tools/sandbox/index.js';

const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/console/', import.meta.url));

let loop: Loop;
let merchantUrl: string;
let sandbox: Sandbox;
let consoleUrl: string;
const ui = consolePage({
  start: async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    // what `npm start` runs: the example merchant app, and the sandbox pointed at it (here on free loopback ports)
    loop = await startLoop({ merchantPort: 0, sandboxPort: 0 });
    ({ merchantUrl, sandbox } = loop);
    consoleUrl = `${loop.sandboxUrl}/`;
    expect(loop.banner).toContain(consoleUrl);
    return { url: loop.sandboxUrl, close: () => loop.close() };
  },
  context: { viewport: { width: 1366, height: 860 } },
  open: false,
  problem: (msg) => msg.type() === 'error' || msg.type() === 'warning',
  requestFailed: (url) => !url.endsWith('/_console/events'),
});

// Each step gets room on a loaded machine (2 cores shared by the whole suite): 60 s, the conformance run 90 s.
const shot = (name: string, full = false) => ui.page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: full });

// How fast it paints is measured in bench/console-paint.ts (timings never go into a test or its output).
test('opens live, with the scenario buttons and the masked GUID', async () => {
  await ui.page.goto(consoleUrl);
  await ui.page.locator('#conn.live').waitFor();
  expect(await ui.page.getByRole('button', { name: 'order-with-payment', exact: true }).count()).toBe(1);
  expect(await ui.page.locator('#target-guid').textContent()).toBe('••••7a13');
}, 60_000);

test('order-with-payment: the exchange appears live and the order is created, then paid', async () => {
  await ui.page.getByRole('button', { name: 'order-with-payment', exact: true }).click();
  await ui.page.locator('#run-status.ok').waitFor();
  const row = ui.page.locator('.ex', { hasText: 'SendOrderToMerchant with PaymentDetails' });
  await row.waitFor();
  expect(await row.getAttribute('class')).not.toContain('failed');
  const order = ui.page.locator('.order', { has: ui.page.locator('li[data-event="paid"]') }).first();
  await order.waitFor();
  expect(await order.locator('.timeline li').evaluateAll((lis) => lis.map((li) => (li as HTMLElement).dataset.event))).toEqual(['created', 'paid']);
  expect(await order.locator('li[data-event="paid"]').textContent()).toMatch(/paid — \d+\.\d{2} [A-Z]{3}/);

  // the detail: pretty-printed, card number and CVV masked, the MerchantGUID only as its last 4
  await row.click();
  const detail = ui.page.locator('#detail-body');
  await detail.locator('pre.json').first().waitFor();
  const text = (await detail.textContent())!;
  expect(text).toContain('"CardNumber": "************1111"');
  expect(text).toContain('"CVVNumber": "***"');
  expect(text).toContain('"MerchantGUID": "••••7a13"');
  expect(text).toContain('"PaymentAmount"');
  expect(await ui.page.content()).not.toContain(DEMO_MERCHANT_GUID);
  expect(await ui.page.content()).not.toContain('4111111111111111');
}, 60_000);

test('documents: the order is put on hold, then released when the documents are delivered', async () => {
  await ui.page.getByRole('button', { name: 'documents', exact: true }).click();
  const order = ui.page.locator('.order', { has: ui.page.locator('li[data-event="hold-announced"]') }).first();
  await order.locator('li[data-event="documents-delivered"]').waitFor();
  const events = await order.locator('.timeline li').evaluateAll((lis) => lis.map((li) => (li as HTMLElement).dataset.event));
  expect(events.indexOf('hold-announced')).toBeGreaterThan(events.indexOf('created'));
  expect(events.indexOf('documents-delivered')).toBeGreaterThan(events.indexOf('hold-announced'));
  expect(await order.locator('li[data-event="hold-announced"]').textContent()).toContain('on hold — documents announced: EAD');
  expect(await order.locator('li[data-event="documents-delivered"]').textContent()).toContain('hold released');
  await expect(order.locator('.badge', { hasText: 'hold released' }).count()).resolves.toBe(1);
  await ui.page.locator('.ex', { hasText: 'SendAdditionalRequiredDocumentsToMerchant' }).first().waitFor();
  await shot('console-scenarios', true);
}, 60_000);

test('the order\'s whole life on its timeline: a return, the merchant\'s refund and its notification, an address change, a confirmed cancellation', async () => {
  const eventsOf = (event: string) => ui.page.locator('.order', { has: ui.page.locator(`li[data-event="${event}"]`) }).first();
  await ui.page.getByRole('button', { name: 'return', exact: true }).click();
  await eventsOf('return').locator('li[data-event="return"]').waitFor();
  expect(await eventsOf('return').locator('li[data-event="return"]').textContent()).toMatch(/return \(RMA\) — RMA-GE/);

  await ui.page.getByRole('button', { name: 'refund', exact: true }).click();
  const refunded = eventsOf('refund-notified');
  await refunded.locator('li[data-event="refund-notified"]').waitFor();
  const events = await refunded.locator('.timeline li').evaluateAll((lis) => lis.map((li) => (li as HTMLElement).dataset.event));
  expect(events.indexOf('refund-notified')).toBeGreaterThan(events.indexOf('refunded'));
  await expect(refunded.locator('.badge', { hasText: 'refunded 1×' }).count()).resolves.toBe(1);
  expect(await refunded.textContent()).toMatch(/Refunds: \d+: 1\.00 \(sbx-refund-GE/);

  await ui.page.getByRole('button', { name: 'address-change', exact: true }).click();
  const moved = eventsOf('address-changed');
  await moved.locator('li[data-event="address-changed"]').waitFor();
  expect(await moved.textContent()).toContain('Ships to: Tel Aviv, Israel');

  await ui.page.getByRole('button', { name: 'merchant-cancel', exact: true }).click();
  await eventsOf('cancellation-confirmed').locator('li[data-event="cancellation-confirmed"]').waitFor();
  await ui.page.locator('.ex', { hasText: 'run by the sandbox as your service client' }).first().waitFor();
  await shot('console-order-life', true);
}, 60_000);

test('the conformance button renders the checker\'s table, every row passing, as the CLI\'s --json has it', async () => {
  await ui.page.getByRole('button', { name: 'Run conformance check' }).click();
  await ui.page.locator('#check-totals').waitFor({ timeout: 75_000 }).catch(async (err) => {
    throw new Error(`${(err as Error).message}; status: ${await ui.page.locator('#check-status').textContent()}`);
  });
  const rows = await ui.page.locator('#check-result tbody tr').evaluateAll((trs) => trs.map((tr) => ({
    id: (tr as HTMLElement).dataset.check, status: tr.className, result: tr.children[2].textContent,
  })));
  expect(rows.length).toBeGreaterThan(5);
  expect(rows.filter((r) => r.status !== 'pass' || r.result !== 'PASS')).toEqual([]);
  expect(await ui.page.locator('#check-totals').textContent()).toBe(`${rows.length} passed, 0 failed, 0 skipped`);

  let out = '';
  const code = await cli(['check', merchantUrl, '--guid', DEMO_MERCHANT_GUID, '--cart-token', DEMO_CART_TOKEN, '--json'], { stdout: (t: string) => { out += t; }, stderr: () => undefined });
  expect(code).toBe(0);
  const json = JSON.parse(out) as { checks: Array<{ id: string; status: string }> };
  expect(rows.map((r) => ({ id: r.id, status: r.status }))).toEqual(json.checks.map((c) => ({ id: c.id, status: c.status })));
  await ui.page.locator('#conformance').screenshot({ path: `${ARTIFACTS}console-conformance.png` });
}, 90_000);

test('the checker\'s deliberate refusals show "refused as expected" in a neutral colour, not red FAILED', async () => {
  for (const label of ['guid-wrong-refused: wrong MerchantGUID', 'guid-missing-refused: no MerchantGUID', 'malformed-json-refused: truncated JSON']) {
    const row = ui.page.locator('.ex', { hasText: label }).first();
    await row.waitFor();
    expect(await row.getAttribute('class')).not.toContain('failed');
    const badge = row.locator('.badge');
    expect(await badge.textContent()).toMatch(/^refused as expected · 4\d\d/);
    expect(await badge.getAttribute('class')).toBe('badge neutral');
    expect(await row.textContent()).not.toContain('FAILED');
  }
  // the check passed every row: none of its exchanges is red
  const checkRows = ui.page.locator('.ex', { hasText: ' · check · ' });
  expect(await checkRows.count()).toBeGreaterThan(10);
  expect(await ui.page.locator('.ex.failed', { hasText: ' · check · ' }).evaluateAll((rows) => rows.map((r) => r.textContent))).toEqual([]);
  const refused = ui.page.locator('.ex.expected').first();
  const ok = ui.page.locator('.ex:not(.failed):not(.expected)').first();
  const [refusedBorder, okBorder, refusedBadge] = await Promise.all([
    refused.evaluate((e) => getComputedStyle(e).borderLeftColor), ok.evaluate((e) => getComputedStyle(e).borderLeftColor),
    refused.locator('.badge').evaluate((e) => getComputedStyle(e).backgroundColor),
  ]);
  expect(refusedBorder).not.toBe(okBorder);
  // neutral: neither the red of a failure nor the green of a success
  const red = await ui.page.evaluate(() => { const d = document.createElement('span'); d.className = 'badge bad'; document.body.append(d); const c = getComputedStyle(d).backgroundColor; d.remove(); return c; });
  expect(refusedBadge).not.toBe(red);
  // "failed only" hides them: nothing went wrong
  await ui.page.locator('#failed-only').check();
  expect(await ui.page.locator('.exchange-list li:visible .ex.expected').count()).toBe(0);
  await ui.page.locator('#failed-only').uncheck();
  await refused.click();
  await ui.page.locator('#detail-body h3 .badge.neutral').waitFor();
  expect(await ui.page.locator('#detail').getAttribute('class')).not.toContain('failed');
  await shot('console-refused-as-expected');
}, 60_000);

test('the configuration panel changes where callbacks go; a failed exchange stands out', async () => {
  const path = ui.page.locator('input[name="path:sendOrderToMerchant"]');
  await path.fill('/NoSuchCallback');
  await ui.page.getByRole('button', { name: 'Save configuration' }).click();
  await ui.page.locator('#config-status.ok').waitFor();
  expect(sandbox.options.paths.sendOrderToMerchant).toBe('/NoSuchCallback');
  await ui.page.getByRole('button', { name: 'order', exact: true }).click();
  await ui.page.locator('#run-status.bad').waitFor();
  const failed = ui.page.locator('.ex.failed').first();
  await failed.waitFor();
  expect(await failed.textContent()).toContain('FAILED · 404');
  const [bad, good] = await Promise.all([failed, ui.page.locator('.ex:not(.failed)').first()].map((l) => l.evaluate((e) => getComputedStyle(e).borderLeftColor)));
  expect(bad).not.toBe(good);
  await ui.page.locator('#failed-only').check();
  expect(await ui.page.locator('.exchange-list li:visible').count()).toBe(await ui.page.locator('.ex.failed').count());
  await ui.page.locator('#failed-only').uncheck();
  await failed.click();
  await ui.page.locator('#detail.failed').waitFor();
  await shot('console-failed');

  await path.fill('/SendOrderToMerchant');
  await ui.page.getByRole('button', { name: 'Save configuration' }).click();
  await ui.page.locator('#config-status.ok').waitFor();
  expect(sandbox.options.paths.sendOrderToMerchant).toBe('/SendOrderToMerchant');
}, 60_000);

test('keyboard: every control is reachable with Tab, and Enter opens an exchange', async () => {
  await ui.page.locator('body').focus();
  const wanted = ['scenario:order-with-payment', 'scenario:documents', 'exchange', 'failed-only', 'show-seed', 'run-check', 'cfg-url', 'cfg-guid'];
  const reached = new Set<string>();
  // the check's orders (with their exchange links) and exchanges are many stops: room for all of them
  // (and the order-life scenarios' orders and exchanges); it stops once every wanted control was reached
  for (let i = 0; i < 400 && !wanted.every((w) => reached.has(w)); i += 1) {
    await ui.page.keyboard.press('Tab');
    reached.add(await ui.page.evaluate(() => {
      const a = document.activeElement as HTMLElement | null;
      if (!a) return '';
      return a.dataset.scenario ? `scenario:${a.dataset.scenario}` : a.classList.contains('ex') ? 'exchange' : a.id || a.getAttribute('name') || a.tagName;
    }));
  }
  for (const want of wanted) expect([...reached]).toContain(want);
  const first = ui.page.locator('.ex').first();
  const id = await first.getAttribute('data-id');
  await first.focus();
  await ui.page.keyboard.press('Enter');
  await ui.page.locator('#detail-body dd', { hasText: `#${id} · ` }).waitFor();
  expect(await first.getAttribute('aria-current')).toBe('true');
}, 60_000);

test('a narrow window: one column, nothing wider than the screen', async () => {
  await ui.page.setViewportSize({ width: 400, height: 860 });
  await ui.page.locator('.ex').first().waitFor();
  const wide = await ui.page.evaluate(() => [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5 && getComputedStyle(e).display !== 'none')
    .filter((e) => { // what a scrolling or clipping box holds is not wider than the screen
      for (let p = e.parentElement; p; p = p.parentElement) if (getComputedStyle(p).overflowX !== 'visible') return false;
      return true;
    })
    .map((e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}.${e.className}`).slice(0, 5));
  expect(wide).toEqual([]);
  expect(await ui.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await shot('console-narrow');
  await ui.page.setViewportSize({ width: 1366, height: 860 });
  await ui.page.evaluate(() => window.scrollTo(0, 0));
  await shot('console-wide');
}, 60_000);

test('no console errors, warnings or failed requests in the whole session', () => {
  expect(ui.problems).toEqual([]);
}, 60_000);
