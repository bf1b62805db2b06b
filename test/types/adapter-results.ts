/**
 * Compile-time contract of adapter results, checked by `npm run typecheck` (tsc fails when an
 * `@ts-expect-error` line compiles): a misspelt or mistyped result field is a compile error, in
 * each way a merchant writes an adapter. Nothing here runs.
 */
import type { AdapterResult, CallbackKitOptions, MerchantAdapter } from 'crossborder-merchant-kit';
import { createCallbackKit } from 'crossborder-merchant-kit';
import { createCallbackRouter } from 'crossborder-merchant-kit/express';
import { createCallbackHandler } from 'crossborder-merchant-kit/node';

const merchantGuid = 'g';
const updateOrderStatus = () => undefined;

export function checks(): void {
  // Correct adapters compile, with and without annotations.
  createCallbackKit({ merchantGuid, adapter: { async sendOrderToMerchant(order) { return { InternalOrderId: String(order.OrderId) }; }, updateOrderStatus } });
  createCallbackRouter({ merchantGuid, adapter: { sendOrderToMerchant: () => ({ Success: false, Message: 'out of stock' }), updateOrderStatus } });
  createCallbackHandler({
    merchantGuid,
    adapter: {
      sendOrderToMerchant: async () => ({ InternalOrderId: 'A-1' }),
      updateOrderStatus,
      async performOrderPayment() { return { PaymentAmount: '12.50', PaymentCurrencyCode: 'EUR' }; },
      getCheckoutCartInfo: () => ({ productsList: [] }),
    },
  });

  // An object literal method without a return type: the misspelt field is named by tsc.
  createCallbackKit({
    merchantGuid,
    // @ts-expect-error InternalOrderID is not a ResponseInfo field (InternalOrderId is)
    adapter: { async sendOrderToMerchant() { return { InternalOrderID: 'A-1' }; }, updateOrderStatus },
  });
  createCallbackRouter({
    merchantGuid,
    // @ts-expect-error PaymentAmount is a string, Success a boolean
    adapter: { sendOrderToMerchant: () => ({ InternalOrderId: 'A-1', PaymentAmount: 12.5, Success: 'yes' }), updateOrderStatus },
  });
  createCallbackHandler({
    merchantGuid,
    adapter: {
      sendOrderToMerchant: () => ({}),
      updateOrderStatus,
      // @ts-expect-error PaymentCurency is misspelt (inside an optional callback)
      performOrderPayment: async () => ({ PaymentAmount: '1', PaymentCurency: 'EUR' }),
    },
  });

  // A class adapter: its methods are checked the same way.
  class Shop {
    async sendOrderToMerchant() { return { InternalOrderId: 'A-1', Mesage: 'ok' }; }
    async updateOrderStatus() { return undefined; }
    private helper() { return 1; }
  }
  // @ts-expect-error Mesage is not a ResponseInfo field
  createCallbackKit({ merchantGuid, adapter: new Shop() });

  // An annotated return type or an AdapterResult variable: TypeScript's own excess-property check.
  // @ts-expect-error InternalOrderID is not a ResponseInfo field
  const result: AdapterResult = { InternalOrderID: 'A-1' };
  const adapter = {
    // @ts-expect-error Messsage is not a ResponseInfo field
    async sendOrderToMerchant(): Promise<AdapterResult> { return { Messsage: 'x' }; },
    updateOrderStatus,
  } satisfies MerchantAdapter;
  createCallbackKit({ merchantGuid, adapter });

  // A misspelt callback in a fresh adapter literal typed as MerchantAdapter.
  // @ts-expect-error performOrderPaymnet is not a callback
  const typo: MerchantAdapter = { sendOrderToMerchant: () => ({}), updateOrderStatus, performOrderPaymnet: () => ({}) };
  const options: CallbackKitOptions = { merchantGuid, adapter: typo };
  void result; void options;
}
