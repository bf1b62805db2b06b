/**
 * Framework-free request/response shapes and the adapter contract.
 * The bindings (lib/express, lib/node) translate to and from these.
 */
import type { CheckoutCartInfo, MerchantOrder, ResponseInfo, AdditionalDocumentsDelivery } from '../payloads.js';
import type { SafeLogger } from '../shared/logger.js';
import type { FulfilmentHold, PreviousAttempt } from '../store/types.js';
import type { ReceivedDocument } from './steps/documents.js';

export type HeaderMap = Record<string, string | string[] | undefined>;
export type QueryMap = Record<string, string | string[] | undefined>;

/** What a binding hands to the core. `body` is raw (Buffer/string) or, when the host app already parsed it, a value. */
export interface CallbackRequest {
  method: string;
  path: string;
  headers: HeaderMap;
  query: QueryMap;
  body?: unknown;
  remoteAddress?: string;
  /** True when `remoteAddress` was taken from trusted proxy headers (Express 'trust proxy'); undefined means false. */
  trustProxy?: boolean;
}

/** What the core hands back to the binding. */
export interface CallbackResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export const CALLBACK_NAMES = [
  'getCheckoutCartInfo',
  'sendOrderToMerchant',
  'updateOrderStatus',
  'performOrderPayment',
  'receiveAdditionalRequiredDocuments',
] as const;
export type CallbackName = (typeof CALLBACK_NAMES)[number];

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

/** Per-call information handed to every adapter method as its second argument. */
export interface CallbackContext {
  callback: CallbackName;
  /** Random id of this delivery, also on every log line of the call. */
  requestId: string;
  /** A logger that redacts card data, secrets and MerchantGUID. */
  log: SafeLogger;
  /** Aborted when `adapterTimeoutMs` elapses: pass it to fetch/DB calls. */
  signal: AbortSignal;
  remoteAddress?: string;
  headers: HeaderMap;
  /** Results of the authentication strategies (e.g. `auth.jwt` holds verified JWT claims). */
  auth: Record<string, unknown>;
  /** Stable across redeliveries of the same callback; hand it to a payment provider. */
  idempotencyKey?: string;
  /** 1 for the first attempt for `idempotencyKey`, 2 and more for later ones (order callbacks and the documents webhook). */
  attempt?: number;
  /**
   * Set when the attempt before this one for the same `idempotencyKey` ended without a known result
   * (crashed, timed out, returned an invalid result, or succeeded but its reply could not be
   * saved): ask your payment provider by `idempotencyKey` before charging. See docs/idempotency.md.
   */
  previousAttempt?: PreviousAttempt;
  /** For an order update: the ResponseInfo returned for the earlier delivery of this OrderId. */
  previous?: ResponseInfo;
  /** Set when the order awaits AdditionalRequiredDocuments. */
  fulfilmentHold?: FulfilmentHold;
  /**
   * Where this payload deviates from the interface specification (validation 'tolerant'): JSON
   * pointers and rules, never values — e.g. `{ pointer: '/Products/0/CustomerVATRate', rule: 'is required' }`,
   * `{ pointer: '/UserId', rule: 'is null (read as absent)' }`. Empty when it conforms; absent with
   * validation 'strict'. Missing or mistyped fields first, then nulls; at most 200 entries. See docs/compatibility.md.
   */
  specDeviations?: ReadonlyArray<{ pointer: string; rule: string }>;
  /** Top-level body keys other than `order` and MerchantGUID, when the envelope form was used. */
  envelope?: Record<string, unknown>;
}

/** The fields an adapter may return; `Success` is set by the kit. */
export type AdapterResult = Partial<Omit<ResponseInfo, 'Success'>> & Record<string, unknown>;

/** The interface a merchant implements. Methods that are absent are not mounted. */
export interface MerchantAdapter {
  getCheckoutCartInfo?(request: CartInfoRequest, context: CallbackContext): Promise<CheckoutCartInfo> | CheckoutCartInfo;
  sendOrderToMerchant(order: MerchantOrder, context: CallbackContext): Promise<AdapterResult> | AdapterResult;
  updateOrderStatus(order: MerchantOrder, context: CallbackContext): Promise<AdapterResult | void> | AdapterResult | void;
  performOrderPayment?(order: MerchantOrder, context: CallbackContext): Promise<AdapterResult> | AdapterResult;
  receiveAdditionalRequiredDocuments?(
    delivery: AdditionalDocumentsDelivery & { Documents?: ReceivedDocument[] },
    context: CallbackContext,
  ): Promise<AdapterResult | void> | AdapterResult | void;
}
