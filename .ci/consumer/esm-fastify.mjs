// ESM with Fastify 5: the plugin registered under a prefix serves a delivery; the app's own JSON route still parses JSON.
import Fastify from 'fastify';
import { fastifyCallbacks } from 'crossborder-merchant-kit/fastify';
import { buildOrder, TEST_MERCHANT_GUID } from 'crossborder-merchant-kit/testing';

const app = Fastify();
app.post('/api/echo', async (request) => ({ parsed: request.body }));
await app.register(fastifyCallbacks, {
  prefix: '/crossborder', merchantGuid: TEST_MERCHANT_GUID, logger: false,
  adapter: { sendOrderToMerchant: (o) => ({ InternalOrderId: `fastify-${o.OrderId}` }), updateOrderStatus: () => {} },
});
const order = buildOrder();
const res = await app.inject({ method: 'POST', url: '/crossborder/SendOrderToMerchant', payload: order });
if (res.statusCode !== 200 || res.json().InternalOrderId !== `fastify-${order.OrderId}`) throw new Error(`plugin answered ${res.statusCode} ${res.body}`);
const echo = await app.inject({ method: 'POST', url: '/api/echo', payload: { a: 1 } });
if (echo.json().parsed?.a !== 1) throw new Error(`the host's JSON route lost its parser: ${echo.body}`);
const bad = Fastify();
const err = await bad.register(fastifyCallbacks, { prefix: '/cb', merchantGuid: TEST_MERCHANT_GUID, adapter: {}, bodyLimt: 1 }).then(() => null, (e) => e);
if (err?.code !== 'ERR_CBK_OPTION_UNKNOWN') throw new Error(`a misspelt option should fail register with ERR_CBK_OPTION_UNKNOWN; got ${err?.code}`);
await app.close();
console.log(`ok: Fastify ${app.version} app (plugin under a prefix; host JSON parsing kept; options fail register)`);
