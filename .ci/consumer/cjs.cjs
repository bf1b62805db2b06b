// CommonJS: plain require() of the package (Node >= 20.19 loads its ES modules), no Express installed.
const http = require('node:http');
const kit = require('crossborder-merchant-kit');
const { MemoryStore, PostgresStore } = require('crossborder-merchant-kit/store');
const { createServiceClient } = require('crossborder-merchant-kit/client');
const { exportDeclarationRequired } = require('crossborder-merchant-kit/customs');
const { createCallbackHandler } = require('crossborder-merchant-kit/node');
const { buildOrder, TEST_MERCHANT_GUID } = require('crossborder-merchant-kit/testing');

if (typeof kit.createCallbackKit !== 'function' || typeof kit.KitError !== 'function') throw new Error('require(root) lacks createCallbackKit/KitError');
for (const [name, value] of Object.entries({ MemoryStore, PostgresStore, createServiceClient, exportDeclarationRequired })) {
  if (typeof value !== 'function') throw new Error(`require() of a subpath lacks ${name}`);
}
if (exportDeclarationRequired({ dispatchCountryCode: 'DE', destinationCountryCode: 'US', currencyCode: 'EUR', lines: [{ value: 1500 }] }).required !== true) {
  throw new Error('require(/customs): exportDeclarationRequired gave an unexpected decision');
}
import('./serve.mjs').then(async ({ postOrder }) => {
  const handler = createCallbackHandler({
    merchantGuid: TEST_MERCHANT_GUID,
    store: new MemoryStore(),
    adapter: { sendOrderToMerchant: (o) => ({ InternalOrderId: `cjs-${o.OrderId}` }), updateOrderStatus: () => {} },
  });
  const order = buildOrder();
  await postOrder(http.createServer(handler), '/SendOrderToMerchant', order, `cjs-${order.OrderId}`);
  console.log('ok: CommonJS require() (root, /node, /store, /client, /customs, /testing; a request served)');
}).catch((err) => { console.error(err); process.exit(1); });
