/** The payload builders of `crossborder-merchant-kit/testing` produce payloads the schemas accept. */
import { buildCartInfoPayload, buildCartInfoQuery, buildOrder, buildPaymentDetails } from 'crossborder-merchant-kit/testing';
import { validatePayload } from '../../lib/validation/index.js';

test('buildOrder() is a valid SendOrderToMerchant order, and with payment a valid PerformOrderPayment order', () => {
  expect(validatePayload('SendOrderToMerchantRequest', buildOrder())).toBeNull();
  expect(validatePayload('PerformOrderPaymentRequest', buildOrder({ PaymentDetails: buildPaymentDetails() }))).toBeNull();
  expect(validatePayload('UpdateOrderStatusRequest', buildOrder({ StatusCode: 'canceled' }))).toBeNull();
});

test('cart-info builders match the query and POST payload schemas', () => {
  expect(validatePayload('CartInfoQuery', buildCartInfoQuery())).toBeNull();
  expect(validatePayload('CartInfoPostPayload', buildCartInfoPayload())).toBeNull();
});
