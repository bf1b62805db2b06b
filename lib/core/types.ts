/**
 * The adapter contract: the context every adapter method receives, and MerchantAdapter, derived
 * from CallbackTypes (adapter-types.ts). Request/response shapes of the bindings are in shared/http.
 */
import type { ResponseInfo } from '../payloads.js';
import type { HeaderMap } from '../shared/http.js';
import type { SafeLogger } from '../shared/logger.js';
import type { FulfilmentHold, PreviousAttempt } from '../store/types.js';
import type { CallbackName, CallbackTypes } from './adapter-types.js';

export type { CallbackRequest, CallbackResponse, HeaderMap, QueryMap } from '../shared/http.js';
export type {
  AdapterResult, CallbackName, CallbackTypes, CartInfoRequest, CartInfoResult, DocumentsDelivery, Exact, ReceivedDocument,
  ReceivedOrder, WithOrderId,
} from './adapter-types.js';

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
  /**
   * UpdateOrderStatus and NotifyOrderRefunded: set when this callback follows the merchant's own call
   * through the service client with the same store (a cancellation, a refund); absent otherwise.
   * See docs/callbacks.md#merchant-initiated.
   */
  merchantInitiated?: MerchantInitiated;
}

/** The merchant's own call a callback follows (`context.merchantInitiated`). */
export interface MerchantInitiated {
  /** The service-client operation that made it. */
  operation: 'updateOrderStatus' | 'createOrderRefund';
  /** When the service accepted it. */
  at: Date;
  /**
   * What the client recorded: a cancellation's `StatusCode`, `OrderStatusReason` and the service's
   * `answer` (`{ status, Message? }`); a refund's
   * `amount` (text), `RefundId` (when the service answered one), `ExternalReference`, `FullRefund`.
   */
  details: Record<string, unknown>;
}

/** What a callback's adapter method receives: `CallbackInput<'sendOrderToMerchant'>` is ReceivedOrder (MerchantOrder, its OrderId a string). */
export type CallbackInput<N extends CallbackName> = CallbackTypes[N]['input'];
/** What a callback's adapter method returns (exact): `CallbackResult<'getCheckoutCartInfo'>` is CartInfoResult. */
export type CallbackResult<N extends CallbackName> = CallbackTypes[N]['result'];

/** One adapter method: its input and the context in, its exact result (or a promise of it) out. */
export type AdapterMethod<N extends CallbackName> = (
  input: CallbackTypes[N]['input'], context: CallbackContext,
) => Promise<CallbackTypes[N]['result']> | CallbackTypes[N]['result'];

type RequiredName = { [N in CallbackName]: CallbackTypes[N]['required'] extends true ? N : never }[CallbackName];
type OptionalName = Exclude<CallbackName, RequiredName>;

/**
 * The interface a merchant implements (an object or a class instance). Methods that are absent are
 * not mounted. A result is exact: an object literal with a field the type does not name fails to
 * compile when the adapter is given to createCallbackRouter/createCallbackHandler/createCallbackKit.
 */
export type MerchantAdapter = { [N in RequiredName]: AdapterMethod<N> } & { [N in OptionalName]?: AdapterMethod<N> };

type ResultOf<F> = F extends (...args: never[]) => infer R ? Exclude<Awaited<R>, void | undefined> : never;
type ExtraKeys<R, Allowed> = R extends object ? Exclude<keyof R, keyof Allowed> : never;

/**
 * Checks an adapter's inferred method results for fields the result type does not name (methods
 * written without a return type lose TypeScript's excess-property check): each such method's
 * type becomes `{ 'unknown result field': <the fields> }`, so tsc names the typo.
 */
export type CheckedAdapter<A> = {
  [K in keyof A]: K extends CallbackName
    ? [ExtraKeys<ResultOf<A[K]>, Exclude<CallbackTypes[K]['result'], void>>] extends [never]
      ? A[K]
      : { 'unknown result field': ExtraKeys<ResultOf<A[K]>, Exclude<CallbackTypes[K]['result'], void>> }
    : A[K];
};
