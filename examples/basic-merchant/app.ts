/**
 * The example app factory: an Express app with the callback router mounted under /crossborder.
 * server.ts runs it; the test suite boots it in-process.
 */
import express, { type Express } from 'express';
import { DEFAULT_PATHS, type LoggerLike } from 'crossborder-merchant-kit';
import { type Store } from 'crossborder-merchant-kit/store';
import { createCallbackRouter } from 'crossborder-merchant-kit/express';
import { createShopAdapter } from './adapter.js';
import { Shop } from './shop.js';

/** The MerchantGUID the example uses when MERCHANT_GUID is not set (a demo value, not a secret). */
export const DEMO_MERCHANT_GUID = '6a3c1f52-0d7e-4b9a-8f21-5c4e9d0b7a13';
export const BASE_PATH = '/crossborder';

export interface ExampleAppOptions {
  merchantGuid?: string;
  logger?: LoggerLike;
  shop?: Shop;
  /** Where replies and holds are kept (default: a MemoryStore of the kit). */
  store?: Store;
}

export function createExampleApp(options: ExampleAppOptions = {}): { app: Express; shop: Shop } {
  const shop = options.shop ?? new Shop();
  const app = express();
  app.disable('x-powered-by');
  app.get('/', (_req, res) => { res.json({ name: 'basic-merchant example', callbacks: mountedUrls('') }); });
  app.use(BASE_PATH, createCallbackRouter({
    merchantGuid: options.merchantGuid ?? DEMO_MERCHANT_GUID,
    adapter: createShopAdapter(shop),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.store ? { store: options.store } : {}),
  }));
  return { app, shop };
}

/** Every callback URL the example mounts (cart info answers GET and POST). */
export function mountedUrls(origin: string): string[] {
  return Object.entries(DEFAULT_PATHS).map(([name, path]) =>
    `${name === 'getCheckoutCartInfo' ? 'GET|POST' : 'POST    '} ${origin}${BASE_PATH}${path}`);
}
