/**
 * Runs a behaviour suite over every binding: `describe.each(BINDINGS)('%s', (_name, mount) => ...)`.
 * `mount(options)` returns something supertest accepts, with the callbacks under `/cb`. Without a
 * `logger` option the kit is silenced (`logger: false`), so that suites do not fill stderr; the default
 * stderr logger has its own tests (test/shared/logger.test.ts). The fetch and Lambda handlers are
 * served through small node:http adapters (web-adapters.ts); the Fastify app through `app.routing`.
 */
import http from 'node:http';
import express from 'express';
import Fastify from 'fastify';
import type { CallbackKitOptions } from 'crossborder-merchant-kit';
import { createCallbackRouter } from 'crossborder-merchant-kit/express';
import { fastifyCallbacks } from 'crossborder-merchant-kit/fastify';
import { createFetchHandler } from 'crossborder-merchant-kit/fetch';
import { createLambdaHandler } from 'crossborder-merchant-kit/lambda';
import { createCallbackHandler } from 'crossborder-merchant-kit/node';
import { serveFetch, serveLambda } from './web-adapters.js';

export type Mount = (options: CallbackKitOptions, setup?: { preParseJson?: boolean }) => http.Server | express.Express;

export const mountExpress: Mount = (options, setup = {}) => {
  const app = express();
  if (setup.preParseJson) app.use(express.json({ limit: '50mb' }));
  app.use('/cb', createCallbackRouter({ logger: false, ...options }));
  return app;
};

export const mountNode: Mount = (options) =>
  http.createServer(createCallbackHandler({ logger: false, ...options, basePath: '/cb' } as CallbackKitOptions));

export const mountFetch: Mount = (options) =>
  serveFetch(createFetchHandler({ logger: false, ...options, basePath: '/cb' } as CallbackKitOptions));

export const mountLambda: Mount = (options) =>
  serveLambda(createLambdaHandler({ logger: false, ...options, basePath: '/cb' } as CallbackKitOptions));

/** A Fastify app (its own JSON parser left in place for its other routes) with the plugin under /cb. */
export const mountFastify: Mount = (options) => fastifyApp(options, {});

/** A Fastify app with the given Fastify options (e.g. `{ trustProxy: true }`) and the plugin under /cb. */
export function fastifyApp(options: CallbackKitOptions, fastifyOptions: { trustProxy?: boolean }): http.Server {
  const app = Fastify(fastifyOptions);
  void app.register(fastifyCallbacks, { prefix: '/cb', logger: false, ...options });
  const ready = app.ready();
  return http.createServer((req, res) => {
    ready.then(() => app.routing(req, res), () => res.writeHead(500).end('the plugin failed to register'));
  });
}

export const BINDINGS: Array<[string, Mount]> = [
  ['express', mountExpress],
  ['node:http', mountNode],
  ['fetch', mountFetch],
  ['fastify', mountFastify],
  ['lambda', mountLambda],
];
