/**
 * The Chromium a *.browser.test.ts file drives: the run's shared one (test/setup/browser-global-setup.js,
 * CBK_TEST_CHROMIUM_WS) when jest started it, else one of its own, started with the same flags.
 * `close()` on the shared one closes this file's contexts and disconnects; the browser stays for the
 * other files. A download's `path()` is not available on a connected browser: use `saveAs()`.
 */
import playwright, { type Browser, type BrowserContextOptions, type ConsoleMessage, type Page } from 'playwright-core';

/** The same default and flags as test/setup/browser-config.js. */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** The run's shared Chromium (connected to), or one of this file's own. */
export function openChromium(): Promise<Browser> {
  const ws = process.env.CBK_TEST_CHROMIUM_WS;
  return ws ? playwright.chromium.connect(ws) : playwright.chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/** What a console page shows: started before the browser, closed after it. */
export interface ConsoleServers {
  /** The console's address (the sandbox's base URL, `/` added when the page opens it). */
  url: string;
  close(): Promise<void>;
}

/** How {@link consolePage} sets the page up. */
export interface ConsolePageOptions {
  /** Starts the sandbox (and whatever it talks to); runs first in `beforeAll`. */
  start: () => Promise<ConsoleServers>;
  /** The page's browser context (viewport, acceptDownloads, bypassCSP …). */
  context?: BrowserContextOptions;
  /** Open the console in `beforeAll` and wait until its event stream is live (default true). */
  open?: boolean;
  /** Which console messages are problems (default: every error). */
  problem?: (msg: ConsoleMessage) => boolean;
  /** Also record failed requests whose URL this accepts (default: none). */
  requestFailed?: (url: string) => boolean;
}

/** The file's page and what went wrong in it (page errors, then the messages and requests `problem`/`requestFailed` pick). */
export interface ConsolePage {
  readonly page: Page;
  readonly problems: string[];
}

/**
 * The set-up of a console *.browser.test.ts file: a `beforeAll` that starts the servers, opens
 * Chromium (openChromium) and one page that records its problems, opened on the console unless
 * `open: false`; an `afterAll` that closes the browser, then the servers. Read `page` inside a test.
 */
export function consolePage(options: ConsolePageOptions): ConsolePage {
  const problems: string[] = [];
  let browser: Browser | undefined;
  let servers: ConsoleServers | undefined;
  let page: Page | undefined;
  beforeAll(async () => {
    servers = await options.start();
    browser = await openChromium();
    page = await (await browser.newContext(options.context)).newPage();
    const problem = options.problem ?? ((msg: ConsoleMessage) => msg.type() === 'error');
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => { if (problem(msg)) problems.push(`console ${msg.type()}: ${msg.text()}`); });
    const failed = options.requestFailed;
    if (failed) page.on('requestfailed', (req) => { if (failed(req.url())) problems.push(`request failed: ${req.url()}`); });
    if (options.open !== false) {
      await page.goto(`${servers.url}/`);
      await page.locator('#conn.live').waitFor();
    }
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await servers?.close();
  }, 60_000);
  return {
    get page() {
      if (!page) throw new Error('consolePage: read the page inside a test');
      return page;
    },
    problems,
  };
}
