// ESM, Express NOT installed: the root and /node load, and the node:http handler serves a request.
import http from 'node:http';
import { CallbackError, KitError, createCallbackKit } from 'crossborder-merchant-kit';
import { MemoryStore, PostgresStore } from 'crossborder-merchant-kit/store';
import { createServiceClient, ServiceError } from 'crossborder-merchant-kit/client';
import { exportDeclarationRequired } from 'crossborder-merchant-kit/customs';
import { createCallbackHandler } from 'crossborder-merchant-kit/node';
import { buildOrder, TEST_MERCHANT_GUID } from 'crossborder-merchant-kit/testing';
import { postOrder } from './serve.mjs';

for (const [name, value] of Object.entries({
  CallbackError, KitError, createCallbackKit, MemoryStore, PostgresStore, createServiceClient, ServiceError, exportDeclarationRequired,
})) {
  if (typeof value !== 'function') throw new Error(`export ${name} is ${typeof value}`);
}
if (exportDeclarationRequired({ dispatchCountryCode: 'DE', destinationCountryCode: 'US', currencyCode: 'EUR', lines: [{ value: 1500 }] }).required !== true) {
  throw new Error('/customs: exportDeclarationRequired gave an unexpected decision');
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
console.log('ok: ESM without Express (root, /node, /store, /client, /customs, /testing; a request served)');
