/**
 * The merchant → service API of the sandbox, on node:http: getShipmentInformation, additional
 * required documents, dispatch V2 and V1, active hub — with the spec's error semantics — plus the
 * download of the documents it delivers. Every call is recorded in the exchange log.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SAMPLE_PDF_BASE64 } from '../conformance/payloads.js';
import { applyDispatch } from './dispatch.js';
import type { ExchangeKind, ExchangeLog } from './exchange-log.js';
import type { OrderBook } from './orders.js';
import type { SeedData, SeedMerchant } from './seed.js';
import { readShipment } from './shipments.js';
import { changeAddress, createRefund, merchantUpdateStatus, refundDetails, type FollowUp, type LifeReply, type SeenKeys } from './order-life.js';
import type { Fulfilment, JwtCaller } from './fulfilment.js';
import type { Catalogue } from './catalogue.js';
import { routeInvoicesCarts } from './invoices-carts.js';

export interface ServiceApiContext {
  seed: SeedData;
  orders: OrderBook;
  log: ExchangeLog;
  /** The token the default merchant must present; undefined: any Bearer token is accepted. */
  accessToken?: string;
  latencyMs: number;
  /** Starts the (delayed) delivery of an order's documents to the merchant's webhook. */
  deliverDocuments(orderId: string, trackingNumbers: string[]): void;
  /** Sends the callback the service sends after an order-life operation (a cancellation, a refund); absent: none is sent. */
  followUp?(followUp: FollowUp): void;
  /** Shipping documents, DispatchOrders, GetOrdersDetails, VoidParcel and the JWT (fulfilment.ts). */
  fulfilment?: Fulfilment;
  /** The browsing data, the saved catalogue, GetCatalogPrices, tracking events, UpdateRMA (catalogue.ts). */
  catalogue?: Catalogue;
}

interface Reply {
  status: number; body: unknown; headers?: Record<string, string>; raw?: Buffer; kind: ExchangeKind; orderId?: string; followUp?: FollowUp;
  /** Kept in the exchange log instead of the request body / the answer (secrets never kept). */
  loggedRequest?: unknown; loggedResponse?: unknown;
}

const BODY_LIMIT = 1024 * 1024;
const TRACKING_NUMBER = /^[A-Za-z0-9-]{1,50}$/;

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

type Caller = { merchant: SeedMerchant } | { missing: true } | { invalid: true };

function identify(ctx: ServiceApiContext, req: IncomingMessage, jwt?: JwtCaller): Caller {
  // JWT (UserName header): the sandbox's own merchant when the token is valid, refused otherwise.
  if (jwt) return jwt.jwt === 'valid' ? { merchant: ctx.seed.merchants.find((m) => m.id === 'default') ?? ctx.seed.merchants[0] } : { invalid: true };
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!match) return { missing: true };
  const token = match[1];
  const byToken = ctx.seed.merchants.find((m) => m.accessToken !== undefined && sameSecret(m.accessToken, token));
  if (byToken) return { merchant: byToken };
  if (ctx.accessToken !== undefined) return { invalid: true };
  return { merchant: ctx.seed.merchants.find((m) => m.id === 'default') ?? ctx.seed.merchants[0] };
}

async function readBody(req: IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) return { text: '', tooLarge: true };
    chunks.push(chunk as Buffer);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), tooLarge: false };
}

const shipmentError = (status: number, Code: string, Error: string, Description: string, orderId?: string): Reply =>
  ({ status, kind: 'getShipmentInformation', body: { Code, Error, Description }, ...(orderId ? { orderId } : {}) });

function getShipment(ctx: ServiceApiContext, caller: Caller, rawNumber: string): Reply {
  if (!('merchant' in caller)) return shipmentError(401, 'UNAUTHORIZED', 'Unauthorized', 'The merchant credential is missing or invalid.');
  if (caller.merchant.shipmentApiEnabled === false) {
    return shipmentError(403, 'FORBIDDEN', 'Forbidden', 'The shipment information API is not enabled for this merchant account.');
  }
  let trackingNumber: string;
  try { trackingNumber = decodeURIComponent(rawNumber); } catch { trackingNumber = ''; }
  if (!TRACKING_NUMBER.test(trackingNumber)) {
    return shipmentError(400, 'INVALID_REQUEST', 'InvalidTrackingNumber', 'The tracking number must be 1 to 50 letters, digits or hyphens.');
  }
  const shipment = ctx.seed.shipments.find((s) => s.trackingNumber === trackingNumber && s.merchant === caller.merchant.id);
  // Unknown and another merchant's number: the same answer, so one merchant cannot probe another's shipments.
  if (!shipment) return shipmentError(400, 'A810', 'TrackingNumberNotFound', 'No shipment is visible to this merchant for the tracking number.');
  if (shipment.fail === 'internal-error') {
    return shipmentError(500, 'INTERNAL_ERROR', 'InternalError', 'An unexpected error occurred; retry or report it.', shipment.orderId);
  }
  const read = readShipment(shipment);
  if (!read.ok) {
    return shipmentError(409, 'SHIPMENT_CONFIGURATION_INCOMPLETE', 'ShipmentConfigurationIncomplete',
      `The shipment lacks ${read.missing}; this will not resolve on retry: contact the service operator.`, shipment.orderId);
  }
  return { status: 200, kind: 'getShipmentInformation', body: read.information, orderId: shipment.orderId };
}

const docsError = (status: number, Code: string, Message: string, Description: string): Reply =>
  ({ status, kind: 'createAdditionalRequiredDocuments', body: { Code, Message, Description } });

function requestDocuments(ctx: ServiceApiContext, caller: Caller, body: unknown): Reply {
  if ('invalid' in caller || ('missing' in caller && ctx.accessToken !== undefined)) {
    return docsError(401, 'UNAUTHORIZED', 'Unauthorized', 'The Bearer access token is missing or invalid.');
  }
  const merchant = 'merchant' in caller ? caller.merchant.id : 'default';
  const orders = (body as { Orders?: unknown } | undefined)?.Orders;
  if (!Array.isArray(orders) || orders.length === 0
    || orders.some((o) => typeof o?.OrderId !== 'string' || !Array.isArray(o.TrackingNumbers) || o.TrackingNumbers.some((t: unknown) => typeof t !== 'string'))) {
    return docsError(400, 'INVALID_REQUEST', 'Invalid request', 'The body must be { "Orders": [{ "OrderId": string, "TrackingNumbers": [string] }] } with at least one order.');
  }
  const wanted = orders as Array<{ OrderId: string; TrackingNumbers: string[] }>;
  const unknown = wanted.find((o) => !ctx.orders.find({ orderId: o.OrderId }, merchant));
  if (unknown) return docsError(400, 'B001', 'Order not found', `The order id provided does not exist: ${unknown.OrderId}`);
  for (const o of wanted) {
    ctx.orders.update(o.OrderId, 'documents-requested', (s) => { s.documentsRequested = true; }, { detail: o.TrackingNumbers.join(', ') });
    ctx.deliverDocuments(o.OrderId, o.TrackingNumbers);
  }
  return { status: 200, kind: 'createAdditionalRequiredDocuments', body: { Success: true }, ...(wanted.length === 1 ? { orderId: wanted[0].OrderId } : {}) };
}

function dispatch(ctx: ServiceApiContext, caller: Caller, body: unknown, version: 'V1' | 'V2'): Reply {
  const kind: ExchangeKind = version === 'V2' ? 'updateOrderDispatchV2' : 'updateOrderDispatch';
  if ('invalid' in caller || ('missing' in caller && ctx.accessToken !== undefined)) {
    return { status: 401, kind, body: { Success: false, Reason: 'Unauthorized: the Bearer access token is missing or invalid' } };
  }
  const outcome = applyDispatch(ctx.orders, body, version, 'merchant' in caller ? caller.merchant.id : 'default');
  return { status: 200, kind, body: outcome.answer, ...(outcome.orderId ? { orderId: outcome.orderId } : {}) };
}

const unauthorized = (ctx: ServiceApiContext, caller: Caller) => 'invalid' in caller || ('missing' in caller && ctx.accessToken !== undefined);

/** The order-life operations (order-life.ts): the caller's merchant, 401 without a valid token when one is configured. */
function life(ctx: ServiceApiContext, caller: Caller, kind: ExchangeKind, run: (merchant: SeedMerchant) => LifeReply): Reply {
  if (unauthorized(ctx, caller)) return { status: 401, kind, body: { Code: 'UNAUTHORIZED', Message: 'Unauthorized', Description: 'The Bearer access token is missing or invalid.' } };
  const merchant = 'merchant' in caller ? caller.merchant : (ctx.seed.merchants.find((m) => m.id === 'default') ?? ctx.seed.merchants[0]);
  const r = run(merchant);
  return { status: r.status, kind, body: r.body, ...(r.body === undefined ? { raw: Buffer.alloc(0) } : {}), ...(r.orderId ? { orderId: r.orderId } : {}), ...(r.followUp ? { followUp: r.followUp } : {}) };
}

const addressKeys = new WeakMap<ServiceApiContext, SeenKeys>();

function orderLife(ctx: ServiceApiContext, req: IncomingMessage, caller: Caller, path: string, query: URLSearchParams, body: unknown, bodyError?: string, jwt?: JwtCaller): Reply | undefined {
  const method = req.method ?? 'GET';
  const only = (allowed: string, kind: ExchangeKind, run: () => Reply): Reply => {
    if (method !== allowed) return { status: 405, kind, headers: { allow: allowed }, body: { Code: 'METHOD_NOT_ALLOWED', Message: `Use ${allowed} for ${path}` } };
    if (bodyError) return { status: 400, kind, body: { Code: 'INVALID_REQUEST', Message: 'Invalid request', Description: bodyError } };
    return run();
  };
  const guidOf = (m: SeedMerchant) => m.guid;
  const refunds = /^\/v1\/orders\/([^/]+)\/refunds$/.exec(path);
  if (refunds) {
    let orderId = '';
    try { orderId = decodeURIComponent(refunds[1]); } catch { /* not found below */ }
    return only('GET', 'getRefundDetails', () => life(ctx, caller, 'getRefundDetails', (m) => refundDetails(ctx.orders, m.id, orderId)));
  }
  switch (path) {
    case '/Order/UpdateOrderStatus':
      return only('POST', 'updateOrderStatusFromMerchant', () => life(ctx, caller, 'updateOrderStatusFromMerchant', (m) => merchantUpdateStatus(ctx.orders, m.id, guidOf(m), query, body)));
    case '/Order/CreateOrderRefund':
      return only('POST', 'createOrderRefund', () => life(ctx, caller, 'createOrderRefund', (m) => createRefund(ctx.orders, m.id, guidOf(m), query, body)));
    case '/api/v1/orders/shipping-address': {
      let seen = addressKeys.get(ctx);
      if (!seen) addressKeys.set(ctx, seen = new Map());
      const key = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
      // The page: "Authorization: Bearer {JWT Token}" — a JWT in another form is refused (docs/compatibility.md R4-4).
      if (jwt?.jwt === 'valid' && jwt.scheme !== 'Bearer') {
        return { status: 401, kind: 'updateShippingAddress', body: { Code: 'UNAUTHORIZED', Message: 'Unauthorized', Description: 'The address change takes the JWT as Authorization: Bearer {JWT Token}.' } };
      }
      return only('PUT', 'updateShippingAddress', () => life(ctx, caller, 'updateShippingAddress', (m) => changeAddress(ctx.orders, m.id, body, key, seen)));
    }
    default: return undefined;
  }
}

async function route(
  ctx: ServiceApiContext, req: IncomingMessage, path: string, body: unknown, bodyError?: string, query = new URLSearchParams(), jwt?: JwtCaller,
): Promise<Reply | undefined> {
  const caller = identify(ctx, req, jwt);
  const method = req.method ?? 'GET';
  if (ctx.fulfilment && !bodyError) {
    const authenticated = 'merchant' in caller ? caller.merchant.id : 'missing' in caller && ctx.accessToken === undefined ? 'default' : undefined;
    const reply = await ctx.fulfilment.route(method, path, body, authenticated, jwt?.jwt === 'invalid' ? jwt.reason : undefined);
    if (reply) return reply;
  }
  const shipment = /^\/api\/shipments\/(.*)$/.exec(path);
  const post = (kind: ExchangeKind, run: () => Reply): Reply => {
    if (method !== 'POST') return { status: 405, kind, headers: { allow: 'POST' }, body: { Code: 'METHOD_NOT_ALLOWED', Message: `Use POST for ${path}` } };
    if (bodyError) {
      const dispatchKind = kind === 'updateOrderDispatchV2' || kind === 'updateOrderDispatch';
      return { status: 400, kind, body: dispatchKind ? { Success: false, Reason: bodyError } : { Code: 'INVALID_REQUEST', Message: 'Invalid request', Description: bodyError } };
    }
    return run();
  };
  const lifeReply = orderLife(ctx, req, caller, path, query, body, bodyError, jwt);
  if (lifeReply) return lifeReply;
  if (ctx.catalogue && !bodyError) {
    const authenticated = 'merchant' in caller ? caller.merchant.id : 'missing' in caller && ctx.accessToken === undefined ? 'default' : undefined;
    const guidGiven = (query.get('merchantGUID') ?? '') !== '' || (typeof req.headers.merchantguid === 'string' && req.headers.merchantguid !== '');
    const reply = ctx.catalogue.route(method, path, body, query, authenticated, guidGiven);
    if (reply) return reply;
  }
  if (!bodyError) {
    // The commercial invoice, SendCartV2, AppVersion, ProductCountryS (invoices-carts.ts).
    const authenticated = 'merchant' in caller ? caller.merchant.id : 'missing' in caller && ctx.accessToken === undefined ? 'default' : undefined;
    const guidGiven = (query.get('merchantGUID') ?? '') !== '' || (typeof req.headers.merchantguid === 'string' && req.headers.merchantguid !== '');
    const reply = routeInvoicesCarts({
      hasOrder: (orderId, merchant) => ctx.orders.find({ orderId }, merchant) !== undefined,
      productClass: (merchant, code) => { const c = ctx.catalogue?.products(merchant).get(code)?.ProductClassCode; return typeof c === 'string' ? c : undefined; },
      cultureOf: (countryCode) => ctx.catalogue?.route('POST', '/Browsing/LocationDefaultCulture', undefined, new URLSearchParams({ countryCode }), 'default', true)?.body,
    }, method, path, body, query, authenticated, guidGiven);
    if (reply) return reply;
  }
  if (shipment) {
    if (method !== 'GET') return { ...shipmentError(405, 'INVALID_REQUEST', 'MethodNotAllowed', 'Use GET.'), headers: { allow: 'GET' } };
    return getShipment(ctx, caller, shipment[1]);
  }
  switch (path) {
    case '/additional-required-documents': return post('createAdditionalRequiredDocuments', () => requestDocuments(ctx, caller, body));
    case '/Order/UpdateOrderDispatchV2': return post('updateOrderDispatchV2', () => dispatch(ctx, caller, body, 'V2'));
    case '/Order/UpdateOrderDispatch': return post('updateOrderDispatch', () => dispatch(ctx, caller, body, 'V1'));
    case '/Browsing/ActiveHubDetails':
      return post('activeHubDetails', () => ('invalid' in caller || ('missing' in caller && ctx.accessToken !== undefined)
        ? { status: 401, kind: 'activeHubDetails', body: { Code: 'UNAUTHORIZED', Message: 'Unauthorized', Description: 'The Bearer access token is missing or invalid.' } }
        : { status: 200, kind: 'activeHubDetails', body: ctx.seed.hub }));
    default: break;
  }
  const doc = /^\/documents\/([^/]+)\/([^/]+)\.pdf$/.exec(path);
  if (doc && method === 'GET') {
    return { status: 200, kind: 'documentDownload', body: undefined, raw: Buffer.from(SAMPLE_PDF_BASE64, 'base64'), headers: { 'content-type': 'application/pdf' }, orderId: decodeURIComponent(doc[1]) };
  }
  return undefined;
}

/**
 * Handles a request if it is one of the service API's; resolves false (nothing written) otherwise,
 * so a host server (the console) can answer other paths.
 */
export function createServiceApiHandler(ctx: ServiceApiContext): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  return async (req, res) => {
    const started = performance.now();
    const at = new Date().toISOString();
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const { text, tooLarge } = await readBody(req);
    let body: unknown;
    let bodyError: string | undefined;
    if (tooLarge) bodyError = 'The request body is larger than 1 MB';
    else if (text.length > 0) {
      try { body = JSON.parse(text); } catch { bodyError = 'The request body is not valid JSON'; }
    }
    const jwt = await ctx.fulfilment?.verify(req);
    const reply = await route(ctx, req, url.pathname, body, bodyError, url.searchParams, jwt);
    if (!reply) return false;
    if (ctx.latencyMs > 0) await new Promise((r) => setTimeout(r, ctx.latencyMs));
    const headers: Record<string, string> = { 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8', ...(reply.headers ?? {}) };
    const payload = reply.raw ?? Buffer.from(JSON.stringify(reply.body));
    res.writeHead(reply.status, { ...headers, 'content-length': String(payload.length) });
    res.end(payload);
    const requestHeaders: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') requestHeaders[k] = v;
    ctx.log.record({
      at, direction: 'from-merchant', kind: reply.kind, ...(reply.orderId ? { orderId: reply.orderId } : {}),
      request: { method: req.method ?? 'GET', url: `${url.pathname}${url.search}`, headers: requestHeaders, ...(reply.loggedRequest !== undefined ? { body: reply.loggedRequest } : text ? { body: body ?? text } : {}) },
      response: {
        status: reply.status, headers,
        ...(reply.raw ? (reply.raw.length > 0 ? { body: `<${reply.raw.length} bytes of ${headers['content-type'] === 'application/pdf' ? 'PDF' : headers['content-type']}>` } : {}) : { body: reply.loggedResponse ?? reply.body }),
      },
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    });
    if (reply.followUp) ctx.followUp?.(reply.followUp);
    return true;
  };
}
