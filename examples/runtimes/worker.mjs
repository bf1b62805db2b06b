// Cloudflare Workers (nodejs_compat) with Hono and the Durable Object store: `wrangler deploy worker.mjs`
// (wrangler.toml: the CALLBACK_STORE binding and its migration, docs/bindings.md).
import { Hono } from 'hono';
import { createFetchHandler } from 'crossborder-merchant-kit/fetch';
import { DurableObjectStore } from 'crossborder-merchant-kit/store/durable-object';
import { adapter, MERCHANT_GUID } from './shop.mjs';

// The Durable Object class the CALLBACK_STORE binding names: one object per OrderId keeps its lock and replies.
export { CallbackStoreObject } from 'crossborder-merchant-kit/store/durable-object';

// One kit per isolate, built on its first request (the binding comes with the request's env). Every
// isolate shares the objects: a redelivery runs the adapter once, whichever isolate it reaches.
let handle;
const app = new Hono();
app.all('/crossborder/*', (c) => {
  handle ??= createFetchHandler({ merchantGuid: MERCHANT_GUID, adapter, basePath: '/crossborder', store: new DurableObjectStore(c.env.CALLBACK_STORE) });
  return handle(c.req.raw, { remoteAddress: c.req.header('cf-connecting-ip') });
});

export default app;
