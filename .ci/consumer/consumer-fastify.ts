// Type-checked (not run) under NodeNext with fastify installed: the plugin's types in a Fastify 5 app.
import Fastify from 'fastify';
import { fastifyCallbacks } from 'crossborder-merchant-kit/fastify';
import { TEST_MERCHANT_GUID } from 'crossborder-merchant-kit/testing';

const app = Fastify({ trustProxy: true });
await app.register(fastifyCallbacks, {
  prefix: '/crossborder', merchantGuid: TEST_MERCHANT_GUID,
  adapter: { sendOrderToMerchant: () => ({ InternalOrderId: 'x' }), updateOrderStatus: () => {} },
});
// @ts-expect-error merchantGuid is required
await app.register(fastifyCallbacks, { adapter: { sendOrderToMerchant: () => ({ InternalOrderId: 'x' }), updateOrderStatus: () => {} } });
