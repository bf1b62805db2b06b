/**
 * The sandbox web console's first contentful paint in headless Chromium (Debian's `chromium`, driven
 * by playwright-core), cold (a new page: the browser also starts its renderer) and on reload. Moved
 * out of test/tools/sandbox/console.browser.test.ts, which proves what the console shows (timings are
 * measured here, never in a test). Each round opens a fresh page; the figure is the median.
 *
 *   node --import tsx bench/console-paint.ts [--runs 5] [--json bench/results/console-paint.json]
 *
 * CHROMIUM_PATH: the browser (default /usr/bin/chromium).
 */
import { writeFileSync } from 'node:fs';
import playwright, { type Page } from 'playwright-core';
import { startLoop } from '../examples/basic-merchant/loop.js';
import { fmt, median } from './load.js';

const args = process.argv.slice(2);
const flag = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const RUNS = Number(flag('--runs') ?? 5);
const JSON_OUT = flag('--json');

/** The page's first contentful paint, ms after navigation start (waits for the browser to report it). */
const firstPaint = (page: Page) => page.evaluate(() => new Promise<number>((resolve) => {
  new PerformanceObserver((list) => {
    const entry = list.getEntriesByName('first-contentful-paint')[0];
    if (entry) resolve(Math.round(entry.startTime));
  }).observe({ type: 'paint', buffered: true });
}));

const loop = await startLoop({ merchantPort: 0, sandboxPort: 0 });
const browser = await playwright.chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const rounds: { cold: number; domContentLoaded: number; reload: number }[] = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const page = await browser.newPage({ viewport: { width: 1366, height: 860 } });
    await page.goto(`${loop.sandboxUrl}/`);
    await page.locator('#conn.live').waitFor();
    const cold = await firstPaint(page);
    const domContentLoaded = await page.evaluate(() => Math.round((performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).domContentLoadedEventEnd));
    await page.reload();
    await page.locator('#conn.live').waitFor();
    rounds.push({ cold, domContentLoaded, reload: await firstPaint(page) });
    await page.close();
  }
} finally {
  await browser.close();
  await loop.close();
}
const result = {
  runs: RUNS,
  firstContentfulPaintMs: median(rounds.map((r) => r.cold)),
  domContentLoadedMs: median(rounds.map((r) => r.domContentLoaded)),
  reloadFirstContentfulPaintMs: median(rounds.map((r) => r.reload)),
  rounds,
};
process.stdout.write(`console first contentful paint (median of ${RUNS}): ${fmt(result.firstContentfulPaintMs)} ms on a new page, ${fmt(result.reloadFirstContentfulPaintMs)} ms on reload; DOMContentLoaded ${fmt(result.domContentLoadedMs)} ms\n`);
if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify(result, null, 2)}\n`);
