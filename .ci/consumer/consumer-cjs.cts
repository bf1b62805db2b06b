// Type-checked by tsc under NodeNext as a CommonJS file: `import x = require()` of the ES module package (TypeScript 5.8+).
import kit = require('crossborder-merchant-kit');
import node = require('crossborder-merchant-kit/node');

const store: kit.Store = new kit.MemoryStore();
const adapter: kit.MerchantAdapter = {
  sendOrderToMerchant: (order) => ({ InternalOrderId: `cjs-${order.OrderId}` }),
  updateOrderStatus: () => {},
};
export const handler = node.createCallbackHandler({ merchantGuid: '5b0e6c2a-9f14-4d3e-8a7b-1c2d3e4f5a6b', adapter, store });
