/**
 * Every value that reaches the console page is inert. A merchant answers every callback with script
 * payloads (`<script>`, `"><img onerror>`, SVG onload, `javascript:`) in its ResponseInfo, its body
 * keys and a reply header; the merchant URL and cart token carry them too. The page runs in Chromium
 * with its CSP switched OFF (bypassCSP), so the proof is the page's own escaping, not the CSP: each
 * payload would set `window.__xss` if it ran, and the flag must stay unset while the payloads show
 * as text.
 */
import { consolePage } from '../../helpers/chromium.js';
import { createSandbox, type Sandbox } from '../../../lib/tools/sandbox/index.js';
import { startHostile, XSS_PAYLOADS, type Hostile } from '../../helpers/hostile-merchant.js';

const IMG = XSS_PAYLOADS[1];

let hostile: Hostile;
let sandbox: Sandbox;
// only page errors are problems here: a payload's failed load may log, and is judged by what it left on the page
const ui = consolePage({
  start: async () => {
    hostile = await startHostile('script');
    sandbox = createSandbox({
      port: 0, merchantUrl: `${hostile.url}/shop/${IMG}`, cartToken: `cart${XSS_PAYLOADS[0]}`, callbackTimeoutMs: 5000, documentsDelayMs: 0,
    });
    const url = await sandbox.listen();
    return {
      url,
      close: async () => {
        await sandbox.close();
        await hostile.close();
      },
    };
  },
  context: { bypassCSP: true },
  problem: () => false,
});

const xssFlag = () => ui.page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss);
/** Elements only a payload could have made. */
const injected = () => ui.page.evaluate(() => ({
  img: document.querySelectorAll('img').length,
  svg: document.querySelectorAll('svg').length,
  scripts: [...document.scripts].map((s) => s.src || 'inline'),
  handlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length,
  hrefs: [...document.querySelectorAll('[href]')].map((e) => e.getAttribute('href')).filter((h) => /^\s*javascript:/i.test(h ?? '')),
}));

test('the CSP is really off in this page: an inline handler the test adds itself runs', async () => {
  // the control: without it, a passing test could just mean the CSP blocked the payloads
  await ui.page.evaluate(() => { const i = document.createElement('img'); i.setAttribute('onerror', 'window.__control=1'); i.src = 'data:,x'; document.body.append(i); });
  await ui.page.waitForFunction(() => (window as unknown as { __control?: number }).__control === 1);
  await ui.page.evaluate(() => document.querySelectorAll('img').forEach((i) => i.remove()));
});

test('scenario replies, order fields, headers and the configuration show as text; nothing runs', async () => {
  for (const name of ['order', 'cart-info']) {
    await ui.page.getByRole('button', { name, exact: true }).click();
    await ui.page.locator('#run-status.ok, #run-status.bad').waitFor();
    await ui.page.locator('#run-status').evaluate((e) => { (e as HTMLElement).className = 'run-status'; });
  }
  await ui.page.locator('.ex').first().waitFor();
  for (const row of await ui.page.locator('.ex').all()) {
    await row.click();
    await ui.page.locator('#detail-body details').waitFor();
    await ui.page.locator('#detail-body details summary').click();
  }
  await ui.page.locator('.order .order-head').first().waitFor();
  const text = await ui.page.locator('body').innerText();
  expect(text).toContain('<img src=x onerror=');
  expect(text).toContain('<script>window.__xss');
  expect(await ui.page.locator('#target-url').textContent()).toContain('<img src=x onerror=');
  expect(await xssFlag()).toBeUndefined();
  const found = await injected();
  expect(found).toEqual({ img: 0, svg: 0, scripts: [expect.stringMatching(/\/_console\/console\.js$/)], handlers: 0, hrefs: [] });
}, 60_000);

test('the conformance table with the merchant\'s ErrorCode in its details: nothing runs', async () => {
  await ui.page.locator('#run-check').click();
  await ui.page.locator('#check-totals').waitFor({ timeout: 90_000 });
  expect(await ui.page.locator('#check-result').innerText()).toContain('<script>');
  expect(await xssFlag()).toBeUndefined();
  expect((await injected()).img).toBe(0);
  expect(ui.problems).toEqual([]);
}, 120_000);
