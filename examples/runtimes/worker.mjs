// Cloudflare Workers (nodejs_compat) with Hono: `wrangler deploy worker.mjs`.
import { Hono } from 'hono';
import { createFetchHandler } from 'crossborder-merchant-kit/fetch';
import { adapter, MERCHANT_GUID } from './shop.mjs';

// One kit per isolate. Its default MemoryStore is per isolate too: exactly-once needs a shared store
// (PostgresStore over Hyperdrive, or your own Store on Durable Objects): docs/bindings.md.
const handle = createFetchHandler({ merchantGuid: MERCHANT_GUID, adapter, basePath: '/crossborder' });

const app = new Hono();
app.all('/crossborder/*', (c) => handle(c.req.raw, { remoteAddress: c.req.header('cf-connecting-ip') }));

export default app;
