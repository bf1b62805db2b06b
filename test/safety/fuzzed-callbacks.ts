/**
 * The callbacks fuzz.test.ts fuzzes, each with its own payload branch there. A new callback joins
 * this list and gets its branch; test/callback-places.test.ts names a callback missing here.
 */
import type { CallbackName } from 'crossborder-merchant-kit';

export const FUZZED_CALLBACKS: readonly CallbackName[] = [
  'getCheckoutCartInfo', 'sendOrderToMerchant', 'updateOrderStatus', 'performOrderPayment', 'receiveAdditionalRequiredDocuments',
  'updateOrderShippingInfo', 'notifyOrderRefunded', 'receiveRmaInfo', 'receiveParcelDispatch',
];
