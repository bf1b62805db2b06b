/**
 * Runs a behaviour suite over both bindings: `describe.each(BINDINGS)('%s', (_name, mount) => ...)`.
 * `mount(options)` returns something supertest accepts, with the callbacks under `/cb`. Without a
 * `logger` option the kit is silenced (`logger: false`), so that suites do not fill stderr; the default
 * stderr logger has its own tests (test/shared/logger.test.ts).
 */
import http from 'node:http';
import express from 'express';
import type { CallbackKitOptions } from 'crossborder-merchant-kit';
import { createCallbackRouter } from 'crossborder-merchant-kit/express';
import { createCallbackHandler } from 'crossborder-merchant-kit/node';

export type Mount = (options: CallbackKitOptions, setup?: { preParseJson?: boolean }) => http.Server | express.Express;

export const mountExpress: Mount = (options, setup = {}) => {
  const app = express();
  if (setup.preParseJson) app.use(express.json({ limit: '50mb' }));
  app.use('/cb', createCallbackRouter({ logger: false, ...options }));
  return app;
};

export const mountNode: Mount = (options) =>
  http.createServer(createCallbackHandler({ logger: false, ...options, basePath: '/cb' } as CallbackKitOptions));

export const BINDINGS: Array<[string, Mount]> = [
  ['express', mountExpress],
  ['node:http', mountNode],
];
