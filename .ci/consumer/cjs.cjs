// CommonJS: plain require() of the package (Node >= 20.19 loads its ES modules), no Express installed.
const http = require('node:http');
const kit = require('crossborder-merchant-kit');
const { createCallbackHandler } = require('crossborder-merchant-kit/node');
const { buildOrder, TEST_MERCHANT_GUID } = require('crossborder-merchant-kit/testing');

if (typeof kit.MemoryStore !== 'function' || typeof kit.KitError !== 'function') throw new Error('require(root) lacks MemoryStore/KitError');
import('./serve.mjs').then(async ({ postOrder }) => {
  const handler = createCallbackHandler({
    merchantGuid: TEST_MERCHANT_GUID,
    adapter: { sendOrderToMerchant: (o) => ({ InternalOrderId: `cjs-${o.OrderId}` }), updateOrderStatus: () => {} },
  });
  const order = buildOrder();
  await postOrder(http.createServer(handler), '/SendOrderToMerchant', order, `cjs-${order.OrderId}`);
  console.log('ok: CommonJS require() (root, /node, /testing; a request served)');
}).catch((err) => { console.error(err); process.exit(1); });
