/**
 * The whole loop on one machine: the example merchant app, and the sandbox of the service pointed
 * at it (its callbacks go to the example; its service API answers the merchant's calls).
 * start.ts runs it for `npm start`; the test suite boots it in-process.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSandbox, describeExchange, SCENARIO_LIST_LINE, SEED_TRACKING_NUMBERS, type Sandbox } from 'crossborder-merchant-kit/sandbox';
import type { LoggerLike } from 'crossborder-merchant-kit';
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { BASE_PATH, createExampleApp, DEMO_MERCHANT_GUID } from './app.js';
import type { Shop } from './shop.js';

/** The cart the example shop knows: the sandbox's cart-info calls and orders use it. */
export const DEMO_CART_TOKEN = 'demo-cart';

export interface LoopOptions {
  /** Port of the example merchant app; default 3000 (0: any free port). */
  merchantPort?: number;
  /** Port of the sandbox; default 4010 (0: any free port). */
  sandboxPort?: number;
  /** Interface both listen on; default 127.0.0.1. */
  host?: string;
  merchantGuid?: string;
  logger?: LoggerLike;
  /** Hears each exchange of the sandbox as a printable text (default: nothing printed). */
  onExchange?: (text: string) => void;
}

export interface Loop {
  merchantUrl: string;
  sandboxUrl: string;
  sandbox: Sandbox;
  shop: Shop;
  /** What to run next, for the startup banner. */
  banner: string;
  close(): Promise<void>;
}

export async function startLoop(options: LoopOptions = {}): Promise<Loop> {
  const host = options.host ?? '127.0.0.1';
  const merchantGuid = options.merchantGuid || DEMO_MERCHANT_GUID;
  // One store for the router and the sandbox's view of it: the hold scenario shows the order held there, then released.
  const store = new MemoryStore();
  const { app, shop } = createExampleApp({ merchantGuid, store, ...(options.logger ? { logger: options.logger } : {}) });
  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.merchantPort ?? 3000, host, () => { server.off('error', reject); resolve(); });
  });
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const merchantUrl = `http://${urlHost}:${(server.address() as AddressInfo).port}${BASE_PATH}`;
  const sandbox = createSandbox({ port: options.sandboxPort ?? 4010, host, merchantUrl, merchantGuid, cartToken: DEMO_CART_TOKEN, merchantStore: store });
  let sandboxUrl: string;
  try {
    sandboxUrl = await sandbox.listen();
  } catch (err) {
    server.close();
    throw err;
  }
  const stop = options.onExchange ? sandbox.log.subscribe((e) => { if (e.type === 'exchange') options.onExchange!(describeExchange(e.exchange)); }) : () => undefined;
  // The web console, when this build of the sandbox serves one at `/`.
  const consoleUp = await fetch(`${sandboxUrl}/`, { headers: { accept: 'text/html' } }).then((r) => r.ok && (r.headers.get('content-type') ?? '').includes('html'), () => false);
  const guidFlag = `--guid ${merchantGuid}`;
  const banner = [
    'The whole loop on this machine:',
    `  merchant (the example app)  ${merchantUrl}   MerchantGUID ${merchantGuid}${merchantGuid === DEMO_MERCHANT_GUID ? ' (demo; set MERCHANT_GUID to change)' : ''}`,
    `  sandbox of the service      ${sandboxUrl}   (service API; its callbacks go to the merchant above)`,
    ...(consoleUp ? [`  web console                 ${sandboxUrl}/`] : []),
    '',
    'Next, in another terminal:',
    ...(consoleUp ? [
      // through the sandbox: the web console shows their exchanges, orders and results
      `  npm run cli -- trigger full --sandbox ${sandboxUrl}`,
      `  npm run cli -- check --sandbox ${sandboxUrl}`,
      `  (or straight at the merchant: npm run cli -- check ${merchantUrl} ${guidFlag} --cart-token ${DEMO_CART_TOKEN})`,
    ] : [
      `  npm run cli -- trigger full --merchant-url ${merchantUrl} ${guidFlag} --cart-token ${DEMO_CART_TOKEN}`,
      `  npm run cli -- check ${merchantUrl} ${guidFlag} --cart-token ${DEMO_CART_TOKEN}`,
    ]),
    `  curl -s -H 'Authorization: Bearer any' ${sandboxUrl}/api/shipments/${SEED_TRACKING_NUMBERS.ok}`,
    `  ${SCENARIO_LIST_LINE}`,
    '',
  ].join('\n');
  return {
    merchantUrl, sandboxUrl, sandbox, shop, banner,
    async close() {
      stop();
      await sandbox.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
