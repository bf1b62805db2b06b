/**
 * One Chromium for the *.browser.test.ts files of a run (issue 51, item 8): started here as a
 * playwright browser server when Chromium is there and the run includes browser tests; each file
 * connects to it (test/helpers/chromium.ts) with its own context, instead of starting a Chromium of
 * its own (a few CPU-seconds each on a 2-core machine). Stopped by browser-global-teardown.js.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import playwright from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumAvailable } from './browser-config.js';

/** True unless the run was narrowed by path patterns that match no *.browser.test.ts file. */
function selected(globalConfig) {
  const p = globalConfig.testPathPatterns;
  const patterns = Array.isArray(p) ? p : (p?.patterns ?? []);
  if (patterns.length === 0) return true;
  const files = readdirSync(join(globalConfig.rootDir, 'test'), { recursive: true })
    .filter((f) => String(f).endsWith('.browser.test.ts')).map((f) => join(globalConfig.rootDir, 'test', String(f)));
  return files.some((f) => patterns.some((pat) => {
    try { return new RegExp(pat, 'i').test(f) || new RegExp(pat, 'i').test(relative(globalConfig.rootDir, f)); } catch { return true; }
  }));
}

export default async function startChromium(globalConfig) {
  if (process.env.CBK_TEST_CHROMIUM_WS || !chromiumAvailable() || !selected(globalConfig)) return;
  const server = await playwright.chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  globalThis.cbkTestChromium = server;
  process.env.CBK_TEST_CHROMIUM_WS = server.wsEndpoint();
}
