// ESM with Express (4 or 5, whichever is installed): the /express router serves a request.
import express from 'express';
import { createRequire } from 'node:module';
import { createCallbackRouter } from 'crossborder-merchant-kit/express';
import { buildOrder, TEST_MERCHANT_GUID } from 'crossborder-merchant-kit/testing';
import { postOrder } from './serve.mjs';

const major = createRequire(import.meta.url)('express/package.json').version.split('.')[0];
if (major !== process.argv[2]) throw new Error(`expected Express ${process.argv[2]}, found ${major}`);
const app = express();
app.use('/cb', createCallbackRouter({
  merchantGuid: TEST_MERCHANT_GUID,
  adapter: { sendOrderToMerchant: (o) => ({ InternalOrderId: `x${major}-${o.OrderId}` }), updateOrderStatus: () => {} },
}));
const order = buildOrder();
const { createServer } = await import('node:http');
await postOrder(createServer(app), '/cb/SendOrderToMerchant', order, `x${major}-${order.OrderId}`);
console.log(`ok: ESM with Express ${major} (/express router; a request served)`);
