/**
 * Builders of valid, realistic callback requests (every field the spec marks required is set), typed
 * with the kit's generated payload types. Overrides are deep-merged into plain objects; arrays are
 * replaced; a key set to `undefined` is removed (e.g. `buildOrder({ MerchantGUID: undefined })`).
 * Each call returns a fresh object.
 */
import { randomInt } from 'node:crypto';
import { isObject } from '../shared/options.js';
import type { CallbackName } from '../core/adapter-types.js';
import type {
  AdditionalDocumentsDelivery, CartInfoPostPayload, MerchantPaymentDetails, NotifyOrderRefundedRequest, OrderDocument,
  ParcelDispatchRequest, PerformOrderPaymentRequest, RmaInfoRequest, SendOrderToMerchantRequest, UpdateOrderShippingInfoRequest, UpdateOrderStatusRequest,
} from '../payloads.js';

/** The MerchantGUID the builders put in payloads: give it to the router as `merchantGuid` in tests. */
export const TEST_MERCHANT_GUID = '5b0e6c2a-9f14-4d3e-8a7b-1c2d3e4f5a6b';

/**
 * What a builder accepts: the payload's fields (your editor suggests them), nested objects partially
 * (deep-merged), `undefined` to remove a field. Values are deliberately not type-checked, so a
 * negative test can send `MerchantGUID: null` or a number where the spec wants a string; the
 * return type describes the valid payload you get without such overrides.
 */
export type Overrides<T> = { [K in keyof T]?: unknown };

type Json = Record<string, unknown>;

function merge(base: Json, overrides: object | undefined): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(overrides ?? {})) {
    if (v === undefined) delete out[k];
    else if (isObject(v) && isObject(out[k])) out[k] = merge(out[k] as Json, v);
    else out[k] = v;
  }
  return out;
}

/**
 * This process's run stamp: eight digits of the clock and four random digits. Order ids carry it,
 * so a second test run (or a parallel worker) against a persistent store such as PostgresStore
 * sends new orders instead of replaying the first run's replies.
 */
const RUN = `${String(Date.now()).slice(-8)}${String(randomInt(10_000)).padStart(4, '0')}`;
let sequence = 0;

/**
 * A service order id no other call, test worker or earlier run has used: `GE<run><n>CH`, e.g.
 * `GE4417012938071CH`. The builders use it; call it yourself to build ids for your own payloads.
 */
export function uniqueOrderId(): string {
  sequence += 1;
  return `GE${RUN}${sequence}CH`;
}

/** Customer details as the service sends them: URL-encoded (the kit decodes them before your adapter). */
function customer(overrides: Json = {}): Json {
  return merge({
    FirstName: 'Ren%C3%A9e', LastName: 'M%C3%BCller', Email: 'renee.muller%40example.ch',
    Address1: 'Bahnhofstrasse%2012', Address2: '', City: 'Z%C3%BCrich', Zip: '8001', StateOrProvice: '',
    CountryCode: 'CH', CountryCode3: 'CHE', CountryName: 'Switzerland', Phone1: '%2B41%2044%20123%2045%2067', Company: '',
  }, overrides);
}

/** A test card (the well-known Visa test number), for PerformOrderPayment or a paying SendOrderToMerchant. */
export function buildPaymentDetails(overrides: Overrides<MerchantPaymentDetails> = {}): MerchantPaymentDetails {
  return merge({
    CardNumber: '4111111111111111', CVVNumber: '737', ExpirationDate: '2030-03-31',
    CountryCode: 'CH', CountryName: 'Switzerland', PaymentMethodCode: '1', PaymentMethodName: 'Visa',
    PaymentMethodTypeCode: 'CreditCard', OwnerName: 'Ren%C3%A9e%20M%C3%BCller',
  }, overrides) as MerchantPaymentDetails;
}

/**
 * A Merchant.Order as SendOrderToMerchant delivers it (send it as the body, or as `{ order }`); with
 * `PaymentDetails: buildPaymentDetails()` a PerformOrderPayment body. Each call gets a new OrderId
 * (`uniqueOrderId()`), unique across calls, workers and runs, so the kit's exactly-once store never
 * replays one test's reply in another; pass `OrderId` to send a redelivery on purpose.
 */
export function buildOrder(overrides: Overrides<SendOrderToMerchantRequest> = {}): SendOrderToMerchantRequest {
  const orderId = typeof overrides.OrderId === 'string' || typeof overrides.OrderId === 'number' ? overrides.OrderId : uniqueOrderId();
  return merge({
    MerchantGUID: TEST_MERCHANT_GUID,
    OrderId: orderId,
    CartId: 'cart-3c9d1f',
    CartHash: 'a1b2c3d4e5f6',
    StatusCode: 'N/A',
    OrderCreationSource: 0,
    CurrencyCode: 'EUR',
    CurrencyName: 'Euro',
    DateCreated: '2026-11-21T10:15:00Z',
    ClearCart: true,
    AllowMailsFromMerchant: false,
    DoNotChargeVAT: false,
    IsFreeShipping: false,
    IsB2B: false,
    IsMoto: false,
    IsSplitOrder: false,
    RoundingRate: 1,
    PriceCoefficientRate: 1,
    Customer: { IsEndCustomerPrimary: true, SendConfirmation: true },
    PrimaryBilling: customer(),
    PrimaryShipping: customer(),
    Products: [{
      Sku: 'JKT-ALPINE-M', Name: 'Alpine jacket M', Quantity: 1, CartItemId: 'ci-1',
      Price: 189.9, ListPrice: 189.9, VATRate: 19, CustomerVATRate: 8.1, RoundingRate: 1,
      DiscountedPrice: 159.58, DiscountedPriceForCustoms: 159.58,
      InternationalDiscountedPrice: 198.5, InternationalDiscountedPriceForCustoms: 183.62,
      InternationalDiscountedPriceInMerchantCurrency: 159.58, InternationalPrice: 198.5,
    }],
    Discounts: [],
    Markups: [],
    OrderDocuments: [buildOrderDocument({ URL: `https://documents.example.com/receipts/${orderId}.pdf` })],
    OrderPaymentMethods: [{
      PaymentMethodId: 1, PaymentMethodName: 'Visa', IsGiftCard: false,
      PaidAmountInCustomerCurrency: 223.4, PaidAmountInMerchantCurrency: 213.4,
    }],
    InternationalDetails: {
      CurrencyCode: 'CHF', TotalPrice: 223.4, TransactionCurrencyCode: 'CHF', TransactionTotalPrice: 223.4,
      TotalShippingPrice: 24.9, DiscountedShippingPrice: 24.9, TotalDutiesPrice: 0, TotalCCFPrice: 0, TotalVATAmount: 16.73,
      ShippingVATRate: 8.1, DutiesGuaranteed: true, DeliveryDaysFrom: 2, DeliveryDaysTo: 4,
      PaymentMethodCode: '1', PaymentMethodName: 'Visa', CardNumberLastFourDigits: '1111', ExpirationDate: '2030-03-31',
      ShippingMethodCode: 'EXP', ShippingMethodName: 'Express', OrderTrackingNumber: '1Z999AA10123456784',
      OrderTrackingUrl: 'https://track.example.com/?n=1Z999AA10123456784',
    },
    CustomerDTBreakdown: { Duties: 0, SalesTaxes: 16.73 },
    MerchantDTBreakdown: { Duties: 0, SalesTaxes: 0 },
  }, overrides) as SendOrderToMerchantRequest;
}

/**
 * An UpdateOrderStatus body as the service sends it (a cancellation by default): MerchantGUID,
 * OrderId (a new `uniqueOrderId()` unless given: pass the id of an order you sent) and StatusCode.
 */
export function buildUpdateOrderStatus(overrides: Overrides<UpdateOrderStatusRequest> = {}): UpdateOrderStatusRequest {
  return merge({ MerchantGUID: TEST_MERCHANT_GUID, OrderId: uniqueOrderId(), StatusCode: 'canceled' }, overrides) as UpdateOrderStatusRequest;
}

/** One order document (default: the customs EAD, a PDF by URL, with its MRN as DocumentReference). */
export function buildOrderDocument(overrides: Overrides<OrderDocument> = {}): OrderDocument {
  return merge({
    DocumentTypeCode: '11', DocumentTypeName: 'EAD', DocumentExtension: 'PDF',
    URL: 'https://documents.example.com/ead/24CH000000000000001.pdf', DocumentReference: '24CH000000000000001',
  }, overrides) as OrderDocument;
}

/**
 * A documents-webhook body (SendAdditionalRequiredDocumentsToMerchant): MerchantGUID, OrderId (pass
 * the id of the order awaiting the documents) and `Documents` (default: one EAD, `buildOrderDocument()`).
 */
export function buildDocumentsDelivery(overrides: Overrides<AdditionalDocumentsDelivery> = {}): AdditionalDocumentsDelivery {
  return merge({ MerchantGUID: TEST_MERCHANT_GUID, OrderId: uniqueOrderId(), Documents: [buildOrderDocument()] }, overrides) as AdditionalDocumentsDelivery;
}

/** Query parameters of a GetCheckoutCartInfo call (values are strings, as in a URL). */
export function buildCartInfoQuery(overrides: Record<string, string | undefined> = {}): Record<string, string> {
  return merge({ countryCode: 'CH', currencyCode: 'CHF', merchantCartToken: 'cart-3c9d1f' }, overrides) as Record<string, string>;
}

/** The JSON payload of a GetCheckoutCartInfo POST (service configured to POST). */
export function buildCartInfoPayload(overrides: Overrides<CartInfoPostPayload> = {}): CartInfoPostPayload {
  return merge({ OrderID: 'GE2718281CH', MerchantGUID: TEST_MERCHANT_GUID }, overrides) as CartInfoPostPayload;
}

/**
 * An UpdateOrderShippingInfo body (not in the interface specification; shape from existing
 * integrations): MerchantGUID, OrderId (a new `uniqueOrderId()` unless given) and the tracking details.
 */
export function buildShippingInfo(overrides: Overrides<UpdateOrderShippingInfoRequest> = {}): UpdateOrderShippingInfoRequest {
  return merge({
    MerchantGUID: TEST_MERCHANT_GUID, OrderId: uniqueOrderId(), MerchantOrderId: 'A-1',
    InternationalDetails: { OrderTrackingNumber: '1Z999AA10123456784', OrderTrackingUrl: 'https://track.example.com/?n=1Z999AA10123456784' },
  }, overrides) as UpdateOrderShippingInfoRequest;
}

/**
 * An order-refund notification body (NotifyOrderRefunded; not in the interface specification):
 * one line refunded in full, amounts as decimal strings as the service sends them, new OrderId.
 */
export function buildRefundNotice(overrides: Overrides<NotifyOrderRefundedRequest> = {}): NotifyOrderRefundedRequest {
  return merge({
    MerchantGUID: TEST_MERCHANT_GUID, OrderId: uniqueOrderId(), MerchantOrderId: 'A-1',
    TotalRefundAmount: '198.50', OriginalTotalRefundAmount: '159.58', ServiceGestureAmount: '0.00', RefundComments: 'Damaged on arrival',
    RefundReason: { OrderRefundReasonCode: 'DAMAGED-ITEM', Name: 'Damaged item' },
    Products: [{ CartItemId: 'ci-1', RefundQuantity: 1, RefundAmount: '198.50', OriginalRefundAmount: '159.58' }],
  }, overrides) as NotifyOrderRefundedRequest;
}

/**
 * A return (SendRMAInfoToMerchant) as the service's documentation shows it: new OrderId, an
 * `RMANumber` (pass the same one to send a redelivery of the same return), one returned line.
 */
export function buildRmaInfo(overrides: Overrides<RmaInfoRequest> = {}): RmaInfoRequest {
  return merge({
    MerchantGUID: TEST_MERCHANT_GUID, OrderId: uniqueOrderId(), MerchantOrderId: 'A-1', RMANumber: '223878', ShipperName: 'DHL',
    ReturnTrackingNumber: '857854854778', TrackingURL: 'https://www.dhl.com/Tracking?TrackingNumber=857854854778', CreatedBy: 'Customer',
    ReturnedProducts: [{ SKU: 'JKT-ALPINE-M', Name: 'Alpine jacket M', CartItemId: 'ci-1', ReturnQuantity: 1, ReturnReasonName: 'Too small' }],
    CurrencyCode: 'EUR', ReturnShippingCost: 10,
  }, overrides) as RmaInfoRequest;
}

/**
 * A parcel dispatch notification (UpdateParcelDispatch) as the service's documentation describes it:
 * new OrderId, parcel `P-1` "Dispatched to Customer" with its tracking and one line. Pass the same
 * `OrderId`, `DispatchedParcel.ParcelCode` and status for a redelivery; another parcel or status is
 * another event.
 */
export function buildParcelDispatch(overrides: Overrides<ParcelDispatchRequest> = {}): ParcelDispatchRequest {
  return merge({
    MerchantGUID: TEST_MERCHANT_GUID, OrderId: uniqueOrderId(), MerchantOrderId: 'A-1', StatusCode: 'Dispatched',
    DispatchedParcel: {
      ParcelCode: 'P-1', Code: 'DispatchedToCustomer', StatusName: 'Dispatched to Customer',
      ParcelTracking: { ParcelTrackingNumber: '1Z999AA10123456784', ParcelTrackingUrl: 'https://track.example.com/?n=1Z999AA10123456784' },
      Products: [{ SKU: 'JKT-ALPINE-M', CartItemId: 'ci-1', Quantity: 1 }],
    },
  }, overrides) as ParcelDispatchRequest;
}

/**
 * A PerformOrderPayment body: `buildOrder()` with `PaymentDetails: buildPaymentDetails()` (the test
 * card), new OrderId (pass the id of the order you sent). The same body sent as SendOrderToMerchant
 * is a paying order.
 */
export function buildPaymentOrder(overrides: Overrides<PerformOrderPaymentRequest> = {}): PerformOrderPaymentRequest {
  return buildOrder({ PaymentDetails: buildPaymentDetails(), ...overrides }) as PerformOrderPaymentRequest;
}

/**
 * A valid body of each callback, by adapter method name (the cart info: its POST payload). Internal:
 * the callback-places walk (test/callback-places.test.ts) checks a new callback has its builder here,
 * exported from `crossborder-merchant-kit/testing` (index.ts); tests derive their per-callback bodies from it.
 */
export const CALLBACK_BUILDERS: { readonly [N in CallbackName]: (overrides?: Record<string, unknown>) => object } = Object.freeze({
  getCheckoutCartInfo: buildCartInfoPayload,
  sendOrderToMerchant: buildOrder,
  updateOrderStatus: buildUpdateOrderStatus,
  performOrderPayment: buildPaymentOrder,
  receiveAdditionalRequiredDocuments: buildDocumentsDelivery,
  updateOrderShippingInfo: buildShippingInfo,
  notifyOrderRefunded: buildRefundNotice,
  receiveRmaInfo: buildRmaInfo,
  receiveParcelDispatch: buildParcelDispatch,
} satisfies { readonly [N in CallbackName]: (overrides?: Record<string, unknown>) => object });
