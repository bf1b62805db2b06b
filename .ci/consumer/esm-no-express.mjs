// ESM, Express NOT installed: the root and /node load, and the node:http handler serves a request.
import http from 'node:http';
import { CallbackError, KitError, MemoryStore, createCallbackKit } from 'crossborder-merchant-kit';
import { createCallbackHandler } from 'crossborder-merchant-kit/node';
import { buildOrder, TEST_MERCHANT_GUID } from 'crossborder-merchant-kit/testing';
import { postOrder } from './serve.mjs';

for (const [name, value] of Object.entries({ CallbackError, KitError, MemoryStore, createCallbackKit })) {
  if (typeof value !== 'function') throw new Error(`root export ${name} is ${typeof value}`);
}
let resolvedExpress = true;
try { await import('express'); } catch { resolvedExpress = false; }
if (resolvedExpress) throw new Error('express is installed here; this check must run without it');

const handler = createCallbackHandler({
  merchantGuid: TEST_MERCHANT_GUID, basePath: '/cb', store: new MemoryStore(),
  adapter: { sendOrderToMerchant: (o) => ({ InternalOrderId: `node-${o.OrderId}` }), updateOrderStatus: () => {} },
});
const order = buildOrder();
await postOrder(http.createServer(handler), '/cb/SendOrderToMerchant', order, `node-${order.OrderId}`);

// Only the Express entry needs Express, and says so.
const err = await import('crossborder-merchant-kit/express').then(() => null, (e) => e);
if (!err || err.code !== 'ERR_MODULE_NOT_FOUND' || !/'express'/.test(err.message)) {
  throw new Error(`importing /express without Express should fail with ERR_MODULE_NOT_FOUND 'express'; got ${err?.code} ${err?.message}`);
}
console.log('ok: ESM without Express (root, /node, /testing; a request served)');
