/** The payload builders of `crossborder-merchant-kit/testing` produce payloads the schemas accept. */
import {
  buildCartInfoPayload, buildCartInfoQuery, buildDocumentsDelivery, buildOrder, buildOrderDocument, buildPaymentDetails, buildUpdateOrderStatus,
} from 'crossborder-merchant-kit/testing';
import { validatePayload } from '../../lib/validation/index.js';

test('buildOrder() is a valid SendOrderToMerchant order, and with payment a valid PerformOrderPayment order', () => {
  expect(validatePayload('SendOrderToMerchantRequest', buildOrder())).toBeNull();
  expect(validatePayload('PerformOrderPaymentRequest', buildOrder({ PaymentDetails: buildPaymentDetails() }))).toBeNull();
  expect(validatePayload('UpdateOrderStatusRequest', buildOrder({ StatusCode: 'canceled' }))).toBeNull();
});

test('the UpdateOrderStatus, documents webhook and OrderDocument builders match their schemas', () => {
  expect(validatePayload('UpdateOrderStatusRequest', buildUpdateOrderStatus())).toBeNull();
  expect(validatePayload('AdditionalDocumentsDelivery', buildDocumentsDelivery())).toBeNull();
  for (const code of ['1', '4', '8', '11'] as const) expect(validatePayload('OrderDocument', buildOrderDocument({ DocumentTypeCode: code }))).toBeNull();
});

test('cart-info builders match the query and POST payload schemas', () => {
  expect(validatePayload('CartInfoQuery', buildCartInfoQuery())).toBeNull();
  expect(validatePayload('CartInfoPostPayload', buildCartInfoPayload())).toBeNull();
});
