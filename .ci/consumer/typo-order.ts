// Must NOT type-check (consumer.sh expects tsc to fail naming InternalOrderID): a misspelt field in
// the result of an arrow-function adapter method.
import { createCallbackHandler } from 'crossborder-merchant-kit/node';

createCallbackHandler({
  merchantGuid: '5b0e6c2a-9f14-4d3e-8a7b-1c2d3e4f5a6b',
  adapter: {
    sendOrderToMerchant: (order) => ({ InternalOrderID: `A-${order.OrderId}` }),
    updateOrderStatus: () => {},
  },
});
