/**
 * The callback registry: everything the kit knows about each callback, in one entry. The steps,
 * the options, the validators and the bindings ask the entry; none compares callback names.
 * Adding a callback: its schemas in schemas/callbacks/, a line in CallbackTypes
 * (adapter-types.ts) and an entry here. See docs/architecture.md.
 */
import type { CallbackName, CallbackTypes } from './adapter-types.js';
import { cartInfoInput, documentsInput, orderInput, refundInput, shippingInfoInput, type InputBuilder } from './inputs.js';

export type { CallbackName } from './adapter-types.js';

/**
 * - `read`: answers a question (cart info); no idempotency, no holds, nothing stored.
 * - `order`: changes an order; exactly once per payload, under the OrderId lock.
 * - `payment`: charges a card; exactly once per OrderId (a later request gets the stored success).
 * - `documents`: the documents webhook; exactly once per payload, counts towards fulfilment holds.
 */
export type CallbackKind = 'read' | 'order' | 'payment' | 'documents';
export type HttpMethod = 'GET' | 'POST';

export interface CallbackEntry<N extends CallbackName = CallbackName> {
  readonly name: N;
  readonly kind: CallbackKind;
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
  /** The field of the adapter input that holds its OrderId. */
  readonly orderIdField: string;
  /** URL-decoding of the configured order fields (`decode` option) applies. */
  readonly decode: boolean;
  /** A successful reply carries a payment (PaymentAmount, PaymentCurrencyCode): always, or when the order has PaymentDetails. */
  readonly payment: 'always' | 'withPaymentDetails' | 'never';
  /** Creates the order: its stored reply is `context.previous` of the later order callbacks. */
  readonly createsOrder: boolean;
  /** The order's AdditionalRequiredDocuments place it on fulfilment hold. */
  readonly placesHold: boolean;
}

const RESPONSE_INFO = 'callbacks/response-info.schema.json';

const ORDER = {
  methods: ['POST'], bodyLimit: 'bodyLimit', resultSchema: RESPONSE_INFO, result: 'responseInfo',
  input: orderInput, orderIdField: 'OrderId', decode: true, createsOrder: false, placesHold: false,
} as const;

export const REGISTRY: { readonly [N in CallbackName]: CallbackEntry<N> } = Object.freeze({
  getCheckoutCartInfo: {
    name: 'getCheckoutCartInfo', kind: 'read', required: false, methods: ['GET', 'POST'],
    defaultPath: '/GetCheckoutCartInfo', bodyLimit: 'bodyLimit',
    requestSchema: 'callbacks/cart-info-request.schema.json', resultSchema: 'callbacks/checkout-cart-info.schema.json',
    result: 'cartInfo', input: cartInfoInput, orderIdField: 'OrderID', decode: false, payment: 'never',
    createsOrder: false, placesHold: false,
  },
  sendOrderToMerchant: {
    ...ORDER, name: 'sendOrderToMerchant', kind: 'order', required: true, defaultPath: '/SendOrderToMerchant',
    requestSchema: 'callbacks/send-order-to-merchant.request.schema.json', payment: 'withPaymentDetails',
    createsOrder: true, placesHold: true,
  },
  updateOrderStatus: {
    ...ORDER, name: 'updateOrderStatus', kind: 'order', required: true, defaultPath: '/UpdateOrderStatus',
    requestSchema: 'callbacks/update-order-status.request.schema.json', payment: 'never',
  },
  performOrderPayment: {
    ...ORDER, name: 'performOrderPayment', kind: 'payment', required: false, defaultPath: '/PerformOrderPayment',
    requestSchema: 'callbacks/perform-order-payment.request.schema.json', payment: 'always',
  },
  receiveAdditionalRequiredDocuments: {
    name: 'receiveAdditionalRequiredDocuments', kind: 'documents', required: false, methods: ['POST'],
    defaultPath: '/SendAdditionalRequiredDocumentsToMerchant', bodyLimit: 'documentsBodyLimit',
    requestSchema: 'callbacks/additional-documents-delivery.schema.json', resultSchema: RESPONSE_INFO,
    result: 'responseInfo', input: documentsInput, orderIdField: 'OrderId', decode: false, payment: 'never',
    createsOrder: false, placesHold: false,
  },
  // Not in the interface specification; shapes from existing integrations (issue 15, docs/callbacks.md).
  updateOrderShippingInfo: {
    ...ORDER, name: 'updateOrderShippingInfo', kind: 'order', required: false, defaultPath: '/UpdateOrderShippingInfo',
    requestSchema: 'callbacks/update-order-shipping-info.request.schema.json', payment: 'never', input: shippingInfoInput,
  },
  notifyOrderRefunded: {
    ...ORDER, name: 'notifyOrderRefunded', kind: 'order', required: false, defaultPath: '/NotifyOrderRefunded',
    requestSchema: 'callbacks/notify-order-refunded.request.schema.json', payment: 'never', input: refundInput,
  },
});

/** Every callback, in registry order. */
export const CALLBACK_NAMES = Object.freeze(Object.keys(REGISTRY) as CallbackName[]);
export const CALLBACK_ENTRIES: readonly CallbackEntry[] = Object.freeze(Object.values(REGISTRY));

/** The callback whose stored reply later order callbacks see as `context.previous`. */
export const ORDER_CREATION: CallbackName = CALLBACK_ENTRIES.find((e) => e.createsOrder)!.name;

/** Default path of each callback. */
export const DEFAULT_PATHS: Readonly<Record<CallbackName, string>> = Object.freeze(
  Object.fromEntries(CALLBACK_ENTRIES.map((e) => [e.name, e.defaultPath])) as Record<CallbackName, string>,
);

/** The request and result schemas of every callback, for createValidators (lib/validation). */
export const CALLBACK_SCHEMAS = Object.freeze(Object.fromEntries(CALLBACK_ENTRIES.map((e) => [e.name, {
  request: e.requestSchema, result: e.resultSchema, setsSuccess: e.result === 'responseInfo',
}])) as Record<CallbackName, { request: string; result: string; setsSuccess: boolean }>);
