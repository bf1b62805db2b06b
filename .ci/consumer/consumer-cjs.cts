// Type-checked by tsc under NodeNext as a CommonJS file: `import x = require()` of the ES module package (TypeScript 5.8+).
import kit = require('crossborder-merchant-kit');
import node = require('crossborder-merchant-kit/node');
import stores = require('crossborder-merchant-kit/store');
import client = require('crossborder-merchant-kit/client');
import customs = require('crossborder-merchant-kit/customs');

const store: stores.Store = new stores.MemoryStore();
export const service: client.ServiceClient = client.createServiceClient({ baseUrl: 'https://service.example', merchantGuid: '5b0e6c2a-9f14-4d3e-8a7b-1c2d3e4f5a6b', store });
export const decision: customs.ExportDeclarationDecision = customs.exportDeclarationRequired({
  dispatchCountryCode: 'DE', destinationCountryCode: 'US', currencyCode: 'EUR', lines: [{ value: 1500 }],
});
const adapter: kit.MerchantAdapter = {
  sendOrderToMerchant: (order) => ({ InternalOrderId: `cjs-${order.OrderId}` }),
  updateOrderStatus: () => {},
};
export const handler = node.createCallbackHandler({ merchantGuid: '5b0e6c2a-9f14-4d3e-8a7b-1c2d3e4f5a6b', adapter, store });
