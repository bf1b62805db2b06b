/**
 * `crossborder-merchant-kit/testing`: helpers for merchants' supertest suites.
 * Not for production code: the builders carry a test GUID and a test card number.
 *
 * @module crossborder-merchant-kit/testing
 */
export { basicAuthHeader, signTestJwt, type SignTestJwtOptions } from './credentials.js';
export {
  buildCartInfoPayload, buildCartInfoQuery, buildDocumentsDelivery, buildOrder, buildOrderDocument, buildPaymentDetails,
  buildParcelDispatch, buildPaymentOrder, buildRefundNotice, buildRmaInfo, buildShippingInfo, buildUpdateOrderStatus, uniqueOrderId, TEST_MERCHANT_GUID, type Overrides,
} from './builders.js';
export {
  runStoreConformance, storeConformanceChecks,
  type MakeStore, type StoreSettings, type StoreConformanceOptions, type StoreCheck, type StoreCheckOutcome,
} from './store-conformance.js';
