// Must NOT type-check (consumer.sh expects tsc to fail naming PaymentAmmount): a misspelt field in
// the result of an async adapter method written without a return type, given to createCallbackKit.
import { createCallbackKit } from 'crossborder-merchant-kit';

createCallbackKit({
  merchantGuid: '5b0e6c2a-9f14-4d3e-8a7b-1c2d3e4f5a6b',
  adapter: {
    async sendOrderToMerchant(order) {
      return { InternalOrderId: `A-${order.OrderId}` };
    },
    updateOrderStatus: () => {},
    async performOrderPayment() {
      return { InternalOrderId: 'A-1', PaymentAmmount: '12.50' };
    },
  },
});
