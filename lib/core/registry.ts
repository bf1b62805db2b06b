/**
 * The callback registry: everything the kit knows about each callback, in one entry. deliver() and its stages,
 * the options, the validators and the bindings ask the entry; none compares callback names.
 * Adding a callback: its entry here, its line in CallbackTypes (adapter-types.ts), and the other
 * places docs/architecture.md ("Adding a callback") lists; test/callback-places.test.ts names
 * any one forgotten.
 */
import type { CallbackName, CallbackTypes } from './adapter-types.js';
import { cartInfoInput, documentsInput, orderInput, type InputBuilder } from './inputs.js';

export type { CallbackName } from './adapter-types.js';

/** The HTTP method a callback's route answers (`CallbackRoute.method`). */
export type HttpMethod = 'GET' | 'POST';

export interface CallbackEntry<N extends CallbackName = CallbackName> {
  readonly name: N;
  /**
   * Exactly-once delivery (order callbacks, payments, the documents webhook): keyed by `idField` and
   * the payload, under the OrderId lock, replies stored and replayed. Its `idField` is then required:
   * a delivery without it is refused (400) before anything runs. False: a read (cart info) — no
   * key, lookup, lock, hold or documents stage in its delivery (deliver.ts), nothing stored.
   */
  readonly exactlyOnce: boolean;
  /** The field of the adapter input that holds its OrderId (`OrderId`; the cart's `OrderID`, only logged). */
  readonly idField: string;
  /** The documents webhook: each document checked and decoded, counted towards fulfilment holds once accepted. */
  readonly documents: boolean;
  /** Whether the adapter must implement it (optional ones are mounted only when implemented). */
  readonly required: CallbackTypes[N]['required'];
  readonly methods: readonly HttpMethod[];
  /** Path relative to where the router is mounted, unless `paths` says otherwise. */
  readonly defaultPath: string;
  /** Which option limits its body. */
  readonly bodyLimit: 'bodyLimit' | 'documentsBodyLimit';
  /** Schema (path under schemas/) of what reaches the adapter. */
  readonly requestSchema: string;
  /** Schema of the adapter's result; `responseInfo` results get `Success` from the kit. */
  readonly resultSchema: string;
  readonly result: 'responseInfo' | 'cartInfo';
  /** Builds the adapter input from the request. */
  readonly input: InputBuilder<CallbackTypes[N]['input']>;
  /** URL-decoding of the configured order fields (`decode` option) applies. */
  readonly decode: boolean;
  /** A successful reply carries a payment (PaymentAmount, PaymentCurrencyCode): always, or when the order has PaymentDetails. */
  readonly payment: 'always' | 'withPaymentDetails' | 'never';
  /** Creates the order: its stored reply is `context.previous` of the later order callbacks. */
  readonly createsOrder: boolean;
  /** The order's AdditionalRequiredDocuments place it on fulfilment hold. */
  readonly placesHold: boolean;
  /**
   * What makes a delivery one event of its order, when not the whole payload: the idempotency key
   * hashes only these fields of the input — dotted paths (`DispatchedParcel.ParcelCode`), each required
   * (a delivery without one is refused, 400) unless it ends in `?` (absent, null or empty: left out of
   * the key). A return is one per OrderId + RMANumber, a parcel dispatch one per OrderId + parcel + status,
   * however the redelivery's other fields differ.
   */
  readonly keyFields?: readonly string[];
  /**
   * The merchant's own call through the service client this callback may follow (a cancellation, a
   * refund): recognised from the order's record in the store, shown as `context.merchantInitiated`.
   */
  readonly merchantAction?: 'cancel' | 'refund';
  /**
   * `required`: a POST delivery must carry the MerchantGUID (payload, `MerchantGUID` header or query
   * parameter); `optional`: one without it passes only when an auth strategy configured for the callback
   * authenticated it (stages/auth.ts). A GUID that is sent is always checked.
   */
  readonly merchantGuid: 'required' | 'optional';
}

const RESPONSE_INFO = 'callbacks/response-info.schema.json';

const ORDER = {
  methods: ['POST'], bodyLimit: 'bodyLimit', resultSchema: RESPONSE_INFO, result: 'responseInfo',
  input: orderInput, exactlyOnce: true, idField: 'OrderId', documents: false, decode: true, createsOrder: false, placesHold: false,
  merchantGuid: 'required',
} as const;

/**
 * The registry's type: one entry per key of CallbackTypes (adapter-types.ts), no more and no fewer,
 * each exactly a CallbackEntry of its own name. The literal below is checked with `satisfies` (an
 * annotation on `Object.freeze({...})` would drop the excess-property check): a missing or unknown
 * field of an entry, an entry without its CallbackTypes line, or a CallbackTypes line without its
 * entry is a compile error (test/types/registry.ts).
 */
export type Registry = { readonly [N in CallbackName]: CallbackEntry<N> };

const ENTRIES = {
  getCheckoutCartInfo: {
    name: 'getCheckoutCartInfo', exactlyOnce: false, documents: false, required: false, methods: ['GET', 'POST'],
    defaultPath: '/GetCheckoutCartInfo', bodyLimit: 'bodyLimit',
    requestSchema: 'callbacks/cart-info-request.schema.json', resultSchema: 'callbacks/checkout-cart-info.schema.json',
    result: 'cartInfo', input: cartInfoInput, idField: 'OrderID', decode: false, payment: 'never',
    createsOrder: false, placesHold: false, merchantGuid: 'required',
  },
  sendOrderToMerchant: {
    ...ORDER, name: 'sendOrderToMerchant', required: true, defaultPath: '/SendOrderToMerchant',
    requestSchema: 'callbacks/send-order-to-merchant.request.schema.json', payment: 'withPaymentDetails',
    createsOrder: true, placesHold: true,
  },
  updateOrderStatus: {
    ...ORDER, name: 'updateOrderStatus', required: true, defaultPath: '/UpdateOrderStatus',
    requestSchema: 'callbacks/update-order-status.request.schema.json', payment: 'never', merchantAction: 'cancel',
  },
  performOrderPayment: {
    ...ORDER, name: 'performOrderPayment', required: false, defaultPath: '/PerformOrderPayment',
    requestSchema: 'callbacks/perform-order-payment.request.schema.json', payment: 'always',
  },
  receiveAdditionalRequiredDocuments: {
    name: 'receiveAdditionalRequiredDocuments', exactlyOnce: true, documents: true, required: false, methods: ['POST'],
    defaultPath: '/SendAdditionalRequiredDocumentsToMerchant', bodyLimit: 'documentsBodyLimit',
    requestSchema: 'callbacks/additional-documents-delivery.schema.json', resultSchema: RESPONSE_INFO,
    result: 'responseInfo', input: documentsInput, idField: 'OrderId', decode: false, payment: 'never',
    createsOrder: false, placesHold: false, merchantGuid: 'optional',
  },
  // Not in the interface specification; shapes from existing integrations (issue 15, docs/callbacks.md).
  updateOrderShippingInfo: {
    ...ORDER, name: 'updateOrderShippingInfo', required: false, defaultPath: '/UpdateOrderShippingInfo',
    requestSchema: 'callbacks/update-order-shipping-info.request.schema.json', payment: 'never', merchantGuid: 'optional',
  },
  notifyOrderRefunded: {
    ...ORDER, name: 'notifyOrderRefunded', required: false, defaultPath: '/NotifyOrderRefunded',
    requestSchema: 'callbacks/notify-order-refunded.request.schema.json', payment: 'never', merchantGuid: 'optional', merchantAction: 'refund',
  },
  // SendRMAInfoToMerchant (docs.global-e.com "RMA Notifications (from Global-e)"): one delivery per return.
  receiveRmaInfo: {
    ...ORDER, name: 'receiveRmaInfo', required: false, defaultPath: '/SendRMAInfoToMerchant',
    requestSchema: 'callbacks/send-rma-info.request.schema.json', payment: 'never', keyFields: ['RMANumber'],
  },
  // UpdateParcelDispatch (docs.global-e.com "Dispatch Notifications (from Global-e)"): one delivery per parcel and status.
  receiveParcelDispatch: {
    ...ORDER, name: 'receiveParcelDispatch', required: false, defaultPath: '/UpdateParcelDispatch',
    requestSchema: 'callbacks/parcel-dispatch.request.schema.json', payment: 'never',
    keyFields: ['DispatchedParcel.ParcelCode', 'DispatchedParcel.Code?', 'DispatchedParcel.StatusName?', 'StatusCode?'],
  },
} satisfies Registry;

/** True when A and B are the same set of names. */
export type SameNames<A extends PropertyKey, B extends PropertyKey> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** The registry's names are CallbackTypes' keys: a compile error otherwise, whichever side was forgotten. */
const NAMES_MATCH_CALLBACK_TYPES: SameNames<keyof typeof ENTRIES, CallbackName> = true;
void NAMES_MATCH_CALLBACK_TYPES;

export const REGISTRY: Registry = Object.freeze(ENTRIES);

/** What the kit derives from a list of registry entries (built once per kit; `DEFAULT_REGISTRY` for REGISTRY). */
export interface RegistryView {
  /** Every callback, in registry order. */
  readonly entries: readonly CallbackEntry[];
  readonly names: readonly CallbackName[];
  readonly byName: Readonly<Record<CallbackName, CallbackEntry>>;
  /** Default path of each callback. */
  readonly defaultPaths: Readonly<Record<CallbackName, string>>;
  /** The request and result schemas of every callback, for createValidators (lib/validation). */
  readonly schemas: Readonly<Record<CallbackName, { request: string; result: string; setsSuccess: boolean }>>;
  /** The callback whose stored reply later order callbacks see as `context.previous`. */
  readonly orderCreation: CallbackName;
}

/**
 * The view of a list of entries. Internal: a test builds a kit over an extended registry with it
 * (`createCallbackKitFor`), which is how "adding a callback touches only its entry" is proven.
 */
export function describeRegistry(entries: readonly CallbackEntry[]): RegistryView {
  const map = <T>(f: (e: CallbackEntry) => T) => Object.freeze(Object.fromEntries(entries.map((e) => [e.name, f(e)]))) as Record<CallbackName, T>;
  return Object.freeze({
    entries: Object.freeze([...entries]),
    names: Object.freeze(entries.map((e) => e.name)),
    byName: map((e) => e),
    defaultPaths: map((e) => e.defaultPath),
    schemas: map((e) => ({ request: e.requestSchema, result: e.resultSchema, setsSuccess: e.result === 'responseInfo' })),
    orderCreation: entries.find((e) => e.createsOrder)?.name ?? entries[0].name,
  });
}

export const DEFAULT_REGISTRY: RegistryView = describeRegistry(Object.values(REGISTRY));

/** Every callback, in registry order. */
export const CALLBACK_NAMES = DEFAULT_REGISTRY.names;
export const CALLBACK_ENTRIES = DEFAULT_REGISTRY.entries;
/** The callback whose stored reply later order callbacks see as `context.previous`. */
export const ORDER_CREATION: CallbackName = DEFAULT_REGISTRY.orderCreation;
/** Default path of each callback. */
export const DEFAULT_PATHS = DEFAULT_REGISTRY.defaultPaths;
/** The request and result schemas of every callback, for createValidators (lib/validation). */
export const CALLBACK_SCHEMAS = DEFAULT_REGISTRY.schemas;
