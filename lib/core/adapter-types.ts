/// <reference types="node" preserve="true" />
/**
 * What each adapter method receives and returns, per callback. The payload types are generated
 * from schemas/ (lib/generated/types.ts); results are EXACT: the generated types accept unknown
 * properties (the service adds fields), a result must not (a misspelt field would reach the service).
 */
import type {
  AdditionalDocumentsDelivery, CheckoutCartInfo, MerchantOrder, NotifyOrderRefundedRequest, OrderDocument, ResponseInfo,
  ParcelDispatchRequest, RmaInfoRequest, UpdateOrderShippingInfoRequest,
} from '../payloads.js';

/** The named keys of T, without its index signature. */
type KnownKeys<T> = keyof {
  [K in keyof T as string extends K ? never : number extends K ? never : symbol extends K ? never : K]: T[K]
};

/**
 * T without index signatures, deeply: an object literal with a key T does not name is a compile
 * error (a misspelt field), at any depth.
 */
export type Exact<T> = T extends readonly (infer E)[]
  ? Exact<E>[]
  : T extends object ? { [K in KnownKeys<T>]: Exact<T[K]> } : T;

/**
 * The fields an adapter may return for an order callback or the documents webhook (ResponseInfo).
 * `Success` may be left out (the kit sets it); `Success: false` declines with your Message.
 */
export type AdapterResult = Partial<Exact<ResponseInfo>>;

/** What getCheckoutCartInfo returns: the CheckoutCartInfo, exactly. */
export type CartInfoResult = Exact<CheckoutCartInfo>;

/** The cart-info request as the adapter sees it (GET query, plus the POST payload when configured so). */
export interface CartInfoRequest {
  method: 'GET' | 'POST';
  /**
   * The merchant's cart identifier, always present: the query parameter named by the
   * `cartTokenParameter` option (default `merchantCartToken`), or on POST the payload field of that name.
   */
  merchantCartToken: string;
  countryCode?: string;
  currencyCode?: string;
  /** POST only: the payload's `OrderID` (spelling as in the spec). */
  OrderID?: string;
  /** Every query parameter, including the ones above (the service sends more, e.g. `IsStockValidation`, `isFixedPriceSupported`). */
  params: Record<string, string | string[]>;
  /** POST only: the whole JSON payload (MerchantGUID removed). */
  payload?: Record<string, unknown>;
}

/** A document as the adapter receives it: the fields as sent, plus the decoded file. */
export interface ReceivedDocument extends OrderDocument {
  /** The bytes of DocumentData; absent when the document came as a URL only. */
  Content?: Buffer;
}

/**
 * T with the service's `OrderId` as the adapter receives it: always there (the kit refuses a delivery
 * without one) and a string — the service sends a string; a JSON number is accepted and handed over
 * as its decimal text (`1001` → `"1001"`), so `order.OrderId` goes straight to a `string` parameter.
 */
export type WithOrderId<T> = T & { OrderId: string };

/** An order as the order callbacks' adapter methods receive it (MerchantOrder, its OrderId a string). */
export type ReceivedOrder = WithOrderId<MerchantOrder>;

/** The documents webhook as the adapter receives it: the documents always under `Documents`, decoded. */
export type DocumentsDelivery = WithOrderId<AdditionalDocumentsDelivery> & { Documents?: ReceivedDocument[] };

/**
 * Input, result and presence of each callback's adapter method. MerchantAdapter is derived from
 * this map; the registry (registry.ts) has one entry per key, no more and no fewer (tsc checks it).
 */
export interface CallbackTypes {
  getCheckoutCartInfo: { input: CartInfoRequest; result: CartInfoResult; required: false };
  sendOrderToMerchant: { input: ReceivedOrder; result: AdapterResult; required: true };
  updateOrderStatus: { input: ReceivedOrder; result: AdapterResult | void; required: true };
  performOrderPayment: { input: ReceivedOrder; result: AdapterResult; required: false };
  receiveAdditionalRequiredDocuments: { input: DocumentsDelivery; result: AdapterResult | void; required: false };
  /** UpdateOrderShippingInfo: not in the interface specification; shape from existing integrations. */
  updateOrderShippingInfo: { input: WithOrderId<UpdateOrderShippingInfoRequest>; result: AdapterResult | void; required: false };
  /** Order-refund notification: not in the interface specification; shape from existing integrations. */
  notifyOrderRefunded: { input: WithOrderId<NotifyOrderRefundedRequest>; result: AdapterResult | void; required: false };
  /** SendRMAInfoToMerchant: a return (RMA), exactly once per OrderId + RMANumber. */
  receiveRmaInfo: { input: WithOrderId<RmaInfoRequest>; result: AdapterResult | void; required: false };
  /** UpdateParcelDispatch: a parcel dispatched to the customer, exactly once per OrderId, parcel and status. */
  receiveParcelDispatch: { input: WithOrderId<ParcelDispatchRequest>; result: AdapterResult | void; required: false };
}

/** The name of a callback: the adapter method that answers it. */
export type CallbackName = keyof CallbackTypes;
