// Type-checked (not run) by tsc under NodeNext and Bundler resolution, without @types/express.
import http from 'node:http';
import { CallbackError, MemoryStore, type MerchantAdapter, type MerchantOrder } from 'crossborder-merchant-kit';
import { createCallbackHandler, type CallbackHandlerOptions } from 'crossborder-merchant-kit/node';
import { buildOrder, TEST_MERCHANT_GUID } from 'crossborder-merchant-kit/testing';

const adapter: MerchantAdapter = {
  async sendOrderToMerchant(order: MerchantOrder) {
    if (!order.OrderId) throw new CallbackError('no order id', { status: 400 });
    return { InternalOrderId: `ts-${order.OrderId}` };
  },
  async updateOrderStatus() {},
};
const options: CallbackHandlerOptions = { merchantGuid: TEST_MERCHANT_GUID, adapter, store: new MemoryStore(), basePath: '/cb' };
http.createServer(createCallbackHandler(options));
const id: string = String(buildOrder().OrderId);
export { id };
