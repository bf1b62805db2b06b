/**
 * How each callback's adapter input is built from the request (the registry names one builder per
 * callback; the parse stage runs it). Builders check nothing the schemas check: the validate stage
 * runs after them.
 */
import { PipelineFailure } from '../shared/errors.js';
import { isObject } from '../shared/options.js';
import type { CallbackRequest, QueryMap } from '../shared/http.js';
import type { MerchantOrder } from '../payloads.js';
import type { CartInfoRequest, DocumentsDelivery } from './adapter-types.js';

export type JsonObject = Record<string, unknown>;

/** The adapter input of one delivery, and the envelope keys that came beside `order`. */
export interface BuiltInput<I> { input: I; envelope?: JsonObject }
/** The options an input builder reads. */
export interface InputOptions { cartTokenParameter: string }
/** Builds the adapter input from the request and its parsed JSON body (undefined for a GET). */
export type InputBuilder<I> = (request: CallbackRequest, payload: JsonObject | undefined, options: InputOptions) => BuiltInput<I>;

const invalid = (reason: string, description: string) => new PipelineFailure('INVALID_REQUEST', reason, description);

function singleParam(query: QueryMap, name: string): string | undefined {
  const v = query[name];
  if (Array.isArray(v)) {
    if (v.length > 1) throw invalid(`query parameter ${name} repeated`, `Query parameter ${name} must be given once`);
    return v[0];
  }
  return v;
}

/**
 * The cart token: the query parameter named by `cartTokenParameter` (default `merchantCartToken`),
 * else, on POST, the payload field of that name (or `merchantCartToken`). Missing → 400.
 */
function cartToken(req: CallbackRequest, payload: JsonObject | undefined, name: string): string {
  const fromQuery = singleParam(req.query, name);
  if (fromQuery !== undefined) {
    if (fromQuery.trim() === '') throw invalid(`cart token ${name} empty`, `Query parameter ${name} must not be empty`);
    return fromQuery;
  }
  const fromBody = payload ? (payload[name] ?? payload.merchantCartToken) : undefined;
  if (typeof fromBody === 'string' && fromBody.trim() !== '') return fromBody;
  if (fromBody !== undefined && fromBody !== null) throw invalid(`cart token ${name} in the payload is not a string`, `Payload field ${name} must be a non-empty string`);
  // The name of a token-like parameter is a useful hint in the log (its value is never logged).
  const other = Object.keys(req.query).find((k) => /token/i.test(k));
  throw invalid(`cart token ${name} missing${other ? ` (the query has ${other}: is cartTokenParameter set?)` : ''}`,
    `Query parameter ${name}${payload ? ` (or payload field ${name})` : ''} is required`);
}

/** GetCheckoutCartInfo: the query (the cart token required, see cartToken), plus the POST payload. */
export const cartInfoInput: InputBuilder<CartInfoRequest> = (req, payload, options) => {
  const { query } = req;
  const token = cartToken(req, payload, options.cartTokenParameter);
  const params: Record<string, string | string[]> = {};
  // A MerchantGUID query parameter (any case) is a credential, checked by the MerchantGUID stage: not handed on.
  for (const [k, v] of Object.entries(query)) if (v !== undefined && k.toLowerCase() !== 'merchantguid') params[k] = v;
  const request: CartInfoRequest = { method: req.method === 'POST' ? 'POST' : 'GET', merchantCartToken: token, params };
  const countryCode = singleParam(query, 'countryCode');
  const currencyCode = singleParam(query, 'currencyCode');
  if (countryCode !== undefined) request.countryCode = countryCode;
  if (currencyCode !== undefined) request.currencyCode = currencyCode;
  if (payload) {
    const { MerchantGUID: _checked, ...rest } = payload;
    request.payload = rest;
    const orderId = payload.OrderID;
    if (orderId !== undefined && orderId !== null) {
      if (typeof orderId !== 'string' && typeof orderId !== 'number') throw invalid('OrderID is not a string', 'OrderID must be a string');
      request.OrderID = String(orderId);
    }
  }
  return { input: request };
};

/** `{ order: {...} }` or the order's fields at the top level; a top-level PaymentDetails joins the order. */
export function unwrapOrder(payload: JsonObject): { order: JsonObject; envelope?: JsonObject } {
  if (!isObject(payload.order)) return { order: payload };
  const { order, ...rest } = payload;
  const plain = { ...(order as JsonObject) };
  if (isObject(rest.PaymentDetails) && plain.PaymentDetails === undefined) {
    plain.PaymentDetails = rest.PaymentDetails;
    delete rest.PaymentDetails;
  }
  return { order: plain, envelope: rest };
}

/**
 * The order callbacks (and any callback read like one: UpdateOrderShippingInfo, the refund
 * notification): the plain order, typed as the callback's input (the validate stage checks it against
 * the entry's schema); the other envelope keys (MerchantGUID left out) go to `context.envelope`.
 */
export function orderInput<I = MerchantOrder>(_req: CallbackRequest, payload: JsonObject | undefined): BuiltInput<I> {
  const { order, envelope } = unwrapOrder(payload ?? {});
  if (!envelope) return { input: order as I };
  return { input: order as I, envelope: Object.fromEntries(Object.entries(envelope).filter(([k]) => k !== 'MerchantGUID')) };
}

/**
 * The documents webhook payload is not shown in the spec. It is read like an order callback
 * (`{ order: {...} }` or top level) and its document list from `Documents`, or else from
 * `AdditionalRequiredDocuments` or `OrderDocuments`; the adapter always gets it as `Documents`.
 */
export function normalizeDocumentsDelivery(payload: JsonObject): JsonObject {
  const { order } = unwrapOrder(payload);
  const delivery = { ...order };
  if (delivery.Documents === undefined) {
    const alias = delivery.AdditionalRequiredDocuments !== undefined ? 'AdditionalRequiredDocuments' : 'OrderDocuments';
    if (delivery[alias] !== undefined) {
      delivery.Documents = delivery[alias];
      delete delivery[alias];
    }
  }
  return delivery;
}

export const documentsInput: InputBuilder<DocumentsDelivery> = (_req, payload) =>
  ({ input: normalizeDocumentsDelivery(payload ?? {}) as unknown as DocumentsDelivery });
