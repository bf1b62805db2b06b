/**
 * Chromium for `npm test` (imported by jest.config.js). The *.browser.test.ts files drive the system
 * Chromium (Debian's `chromium` package) with playwright-core; no browser is downloaded.
 * - CHROMIUM_PATH set, or /usr/bin/chromium present: they run;
 * - else: in CI (CI=true) the run fails at once; elsewhere those files are left out, with a warning.
 * One Chromium serves every browser test file of a run (browser-global-setup.js).
 */
import { accessSync, constants } from 'node:fs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** The flags the browser tests start Chromium with (test/helpers/chromium.ts repeats them for a file run on its own). */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export function chromiumAvailable() {
  try { accessSync(CHROMIUM_PATH, constants.X_OK); return true; } catch { return false; }
}

/** testPathIgnorePatterns entries for the browser tests (none when Chromium is there). */
export function browserTestIgnores() {
  if (chromiumAvailable()) return [];
  if (process.env.CI === 'true' || process.env.CI === '1') {
    throw new Error(`CI: the browser tests (*.browser.test.ts) cannot run: no Chromium at ${CHROMIUM_PATH}; install it (apt-get install -y chromium) or set CHROMIUM_PATH`);
  }
  process.stderr.write(`\n[crossborder-merchant-kit] Browser tests (*.browser.test.ts: the sandbox web console) NOT RUN: no Chromium at ${CHROMIUM_PATH}. `
    + 'Install it (apt-get install -y chromium) or set CHROMIUM_PATH to run them.\n\n');
  return ['\\.browser\\.test\\.ts$'];
}
