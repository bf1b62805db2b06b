/**
 * The Chromium a *.browser.test.ts file drives: the run's shared one (test/setup/browser-global-setup.js,
 * CBK_TEST_CHROMIUM_WS) when jest started it, else one of its own, started with the same flags.
 * `close()` on the shared one closes this file's contexts and disconnects; the browser stays for the
 * other files. A download's `path()` is not available on a connected browser: use `saveAs()`.
 */
import playwright, { type Browser } from 'playwright-core';

/** The same default and flags as test/setup/browser-config.js. */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export function openChromium(): Promise<Browser> {
  const ws = process.env.CBK_TEST_CHROMIUM_WS;
  return ws ? playwright.chromium.connect(ws) : playwright.chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}
