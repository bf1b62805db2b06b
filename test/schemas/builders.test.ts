/** The payload builders of `crossborder-merchant-kit/testing` produce payloads the schemas accept. */
import {
  buildCartInfoPayload, buildCartInfoQuery, buildDocumentsDelivery, buildOrder, buildOrderDocument, buildPaymentDetails, buildRefundNotice,
  buildRmaInfo, buildShippingInfo, buildUpdateOrderStatus,
} from 'crossborder-merchant-kit/testing';
import { REGISTRY } from '../../lib/core/registry.js';
import { CALLBACK_BUILDERS } from '../../lib/testing/builders.js';
import { SCHEMA_PATHS } from '../../lib/validation/index.js';
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

test('the shipping-info, refund-notice and return builders match their schemas, each with a new OrderId', () => {
  expect(validatePayload('UpdateOrderShippingInfoRequest', buildShippingInfo())).toBeNull();
  expect(validatePayload('NotifyOrderRefundedRequest', buildRefundNotice())).toBeNull();
  expect(validatePayload('RmaInfoRequest', buildRmaInfo())).toBeNull();
  expect(validatePayload('RmaInfoRequest', buildRmaInfo({ RMANumber: undefined }))).not.toBeNull();
  expect(buildRmaInfo().OrderId).not.toBe(buildRmaInfo().OrderId);
  expect(buildShippingInfo({ OrderId: 'GE1CH' }).OrderId).toBe('GE1CH');
});

test('each callback\'s builder gives a body its request schema accepts (the cart info: its POST payload)', () => {
  const titleOf = new Map(Object.entries(SCHEMA_PATHS).map(([title, path]) => [path, title]));
  for (const [name, build] of Object.entries(CALLBACK_BUILDERS)) {
    const schema = name === 'getCheckoutCartInfo' ? 'callbacks/cart-info-post-payload.schema.json' : REGISTRY[name as keyof typeof REGISTRY].requestSchema;
    expect({ name, errors: validatePayload(titleOf.get(schema)!, build()) }).toEqual({ name, errors: null });
  }
});
