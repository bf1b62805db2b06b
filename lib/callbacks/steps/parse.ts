/**
 * Parse: JSON-only POST bodies (415 otherwise), size limit (413), malformed JSON, prototype
 * pollution keys, NUL characters, ill-formed Unicode, too deep nesting and an OrderId that cannot
 * identify one order (400, see payload-rules.ts); unwraps `{ order: {...} }`; builds the cart-info
 * request from the query.
 */
import { PipelineFailure } from '../../shared/errors.js';
import { payloadTooLarge } from '../read-body.js';
import { isOrderCallback, type StepFactory, type PipelineState } from '../state.js';
import type { CartInfoRequest, QueryMap } from '../types.js';
import { MAX_DEPTH } from '../../store/canonical.js';
import { createCardMask } from './card-mask.js';
import { payloadProblem, readOrderId, textMayHaveProblem } from './payload-rules.js';

const invalid = (reason: string, description: string) =>
  new PipelineFailure('INVALID_REQUEST', reason, description);

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !Buffer.isBuffer(v);

function header(state: PipelineState, name: string): string | undefined {
  const v = state.request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const type = value.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/** Finds `__proto__` keys and `constructor.prototype` anywhere in a parsed value (or nesting too deep to look). */
export function hasPollutionKey(value: unknown): boolean {
  const problem = payloadProblem(value);
  return problem !== null && /__proto__|constructor|nesting/.test(problem);
}

function parseJson(state: PipelineState, limit: number): Record<string, unknown> {
  if (!isJsonContentType(header(state, 'content-type'))) {
    throw new PipelineFailure('UNSUPPORTED_MEDIA_TYPE', `content-type ${JSON.stringify(header(state, 'content-type') ?? null)} is not JSON`, 'Send the body as application/json');
  }
  const encoding = header(state, 'content-encoding');
  if (encoding && encoding.toLowerCase() !== 'identity') {
    throw new PipelineFailure('UNSUPPORTED_MEDIA_TYPE', `content-encoding ${encoding} is not supported`, 'Send the body without content-encoding');
  }
  let value = state.request.body;
  // A binding that could not read the body (over the limit, aborted) hands the failure over here.
  if (value instanceof PipelineFailure) throw value;
  // Walk the parsed value unless the raw text proves it has nothing to refuse (payload-rules.ts).
  let mayHaveProblem = true;
  if (Buffer.isBuffer(value) || typeof value === 'string') {
    const size = typeof value === 'string' ? Buffer.byteLength(value) : value.length;
    if (size > limit) throw payloadTooLarge(limit);
    const text = value.toString();
    if (text.trim() === '') throw invalid('empty body', 'The request body is empty');
    try {
      value = JSON.parse(text);
    } catch {
      throw invalid('malformed JSON', 'The request body is not valid JSON');
    }
    mayHaveProblem = textMayHaveProblem(text);
  }
  if (!isPlainObject(value)) throw invalid('body is not a JSON object', 'The request body must be a JSON object');
  const problem = mayHaveProblem ? payloadProblem(value) : null;
  if (problem) throw invalid(`body has ${problem}`, `The request body has ${problem}`);
  return value;
}

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
function cartToken(state: PipelineState, name: string): string {
  const fromQuery = singleParam(state.request.query, name);
  if (fromQuery !== undefined) {
    if (fromQuery.trim() === '') throw invalid(`cart token ${name} empty`, `Query parameter ${name} must not be empty`);
    return fromQuery;
  }
  const payload = state.payload;
  const fromBody = payload ? (payload[name] ?? payload.merchantCartToken) : undefined;
  if (typeof fromBody === 'string' && fromBody.trim() !== '') return fromBody;
  if (fromBody !== undefined && fromBody !== null) throw invalid(`cart token ${name} in the payload is not a string`, `Payload field ${name} must be a non-empty string`);
  // The name of a token-like parameter is a useful hint in the log (its value is never logged).
  const other = Object.keys(state.request.query).find((k) => /token/i.test(k));
  throw invalid(`cart token ${name} missing${other ? ` (the query has ${other}: is cartTokenParameter set?)` : ''}`,
    `Query parameter ${name}${state.payload ? ` (or payload field ${name})` : ''} is required`);
}

function cartInfoRequest(state: PipelineState, tokenParameter: string): CartInfoRequest {
  const { query } = state.request;
  const token = cartToken(state, tokenParameter);
  const params: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params[k] = v;
  const request: CartInfoRequest = { method: state.request.method === 'POST' ? 'POST' : 'GET', merchantCartToken: token, params };
  const countryCode = singleParam(query, 'countryCode');
  const currencyCode = singleParam(query, 'currencyCode');
  if (countryCode !== undefined) request.countryCode = countryCode;
  if (currencyCode !== undefined) request.currencyCode = currencyCode;
  if (state.payload) {
    const { MerchantGUID: _checked, ...payload } = state.payload;
    request.payload = payload;
    const orderId = state.payload.OrderID;
    if (orderId !== undefined && orderId !== null) {
      if (typeof orderId !== 'string' && typeof orderId !== 'number') throw invalid('OrderID is not a string', 'OrderID must be a string');
      request.OrderID = String(orderId);
    }
  }
  return request;
}

/** `{ order: {...} }` or the order's fields at the top level; a top-level PaymentDetails joins the order. */
export function unwrapOrder(payload: Record<string, unknown>): { order: Record<string, unknown>; envelope?: Record<string, unknown> } {
  if (!isPlainObject(payload.order)) return { order: payload };
  const { order, ...rest } = payload;
  const plain = { ...(order as Record<string, unknown>) };
  if (isPlainObject(rest.PaymentDetails) && plain.PaymentDetails === undefined) {
    plain.PaymentDetails = rest.PaymentDetails;
    delete rest.PaymentDetails;
  }
  return { order: plain, envelope: rest };
}

const request = (input: Record<string, unknown>) => input as unknown as CartInfoRequest;

export const parseStep: StepFactory = (options) => async (state, next) => {
  const isPost = state.request.method === 'POST';
  if (isPost) {
    const limit = state.callback === 'receiveAdditionalRequiredDocuments' ? options.documentsBodyLimit : options.bodyLimit;
    state.payload = parseJson(state, limit);
  }
  if (state.callback === 'getCheckoutCartInfo') {
    state.input = cartInfoRequest(state, options.cartTokenParameter);
  } else if (isOrderCallback(state.callback)) {
    const { order, envelope } = unwrapOrder(state.payload!);
    state.input = order;
    if (envelope) state.context.envelope = Object.fromEntries(Object.entries(envelope).filter(([k]) => k !== 'MerchantGUID'));
  } else {
    state.input = normalizeDocumentsDelivery(state.payload!);
  }
  const input = state.input as Record<string, unknown>;
  // A cart's OrderID is only logged; an order's OrderId keys exactly-once delivery, so it must be exact.
  const orderId = state.callback === 'getCheckoutCartInfo' ? (request(input).OrderID) : readOrderId(input.OrderId, 'OrderId');
  if (orderId !== undefined) state.orderId = orderId;
  const cards: string[] = [];
  const cvvs: string[] = [];
  const secrets: (string | RegExp)[] = collectSecrets(state.payload, [], 0, cards, cvvs);
  state.cardNumbers = cards;
  state.cardMask = createCardMask(cards, cvvs);
  if (state.cardMask) secrets.push(state.cardMask.pattern);
  state.log = state.log.child({}, secrets);
  state.context.log = state.log;
  return next();
};

/**
 * The documents webhook payload is not shown in the spec. It is read like an order callback
 * (`{ order: {...} }` or top level) and its document list from `Documents`, or else from
 * `AdditionalRequiredDocuments` or `OrderDocuments`; the adapter always gets it as `Documents`.
 */
export function normalizeDocumentsDelivery(payload: Record<string, unknown>): Record<string, unknown> {
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

/**
 * Card data and MerchantGUID values of a payload, masked in every later log line of the call.
 * CardNumber values of 8+ characters also go to `cards`, CVVNumber values to `cvvs`, for masking in the reply.
 */
export function collectSecrets(payload: unknown, out: string[] = [], depth = 0, cards?: string[], cvvs?: string[]): string[] {
  if (payload === null || typeof payload !== 'object' || depth > MAX_DEPTH) return out;
  // Hot path (runs on every payload): no entry arrays, array elements by index, primitives skipped early.
  if (Array.isArray(payload)) {
    for (let i = 0; i < payload.length; i++) {
      const v: unknown = payload[i];
      if (v !== null && typeof v === 'object') collectSecrets(v, out, depth + 1, cards, cvvs);
    }
    return out;
  }
  const obj = payload as Record<string, unknown>;
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    if (typeof v === 'object') {
      if (v !== null) collectSecrets(v, out, depth + 1, cards, cvvs);
    } else if ((k === 'CardNumber' || k === 'CVVNumber' || k === 'MerchantGUID') && (typeof v === 'string' || typeof v === 'number')) {
      out.push(String(v));
      if (cards && k === 'CardNumber' && String(v).trim().length >= 8) cards.push(String(v).trim());
      if (cvvs && k === 'CVVNumber') cvvs.push(String(v));
    }
  }
  return out;
}
