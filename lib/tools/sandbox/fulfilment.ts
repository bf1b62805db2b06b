/// <reference types="node" preserve="true" />
/**
 * The sandbox's shipping-documents flow and JWT (docs.global-e.com `integration-steps`,
 * `dispatchorders`, `getordersdetails`, `jwt-authentication`): GetShippingDocuments declares parcels
 * and answers a ZPL label and a PDF commercial invoice per parcel (shipping-files.ts); DispatchOrders
 * puts orders on a manifest (dispatched) with the documented B-codes; GetOrdersDetails answers from
 * the order book; GetAuthenticationToken issues HS256 JWTs that expire (`jwtTtlMs`).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { jwtVerify, SignJWT } from 'jose';
import { safeEqual } from '../../shared/compare.js';
import { isObject } from '../../shared/options.js';
import { applyDispatch } from './dispatch.js';
import { asksExistingDocuments, existingDocuments } from './existing-documents.js';
import { B_TEXT, readManifestRequest } from './manifest-request.js';
import type { ExchangeKind } from './exchange-log.js';
import type { IssuedDocument, OrderBook, OrderState } from './orders.js';
import type { SeedData } from './seed.js';
import { manifestFile, parcelFiles, sandboxTrackingNumber, type ShippingFile } from './shipping-files.js';

/** The API user the sandbox's GetAuthenticationToken accepts by default. */
export const SANDBOX_JWT_USER = 'sandbox-api';
/**
 * The password of {@link SANDBOX_JWT_USER} on the sandbox's GetAuthenticationToken (a sandbox credential, never a real one).
 */
export const SANDBOX_JWT_PASSWORD = 'sandbox-password';

export interface FulfilmentSettings {
  jwtUserName: string;
  jwtPassword: string;
  /** Lifetime of an issued token, ms (default 15 minutes, as the service's). */
  jwtTtlMs: number;
}

export interface FulfilmentContext {
  orders: OrderBook;
  seed: SeedData;
  settings: FulfilmentSettings;
  /** The sandbox's URL once listening (document links). */
  baseUrl(): string | undefined;
  /** Tells the merchant an order was shipped (UpdateOrderShippingInfo, shipping-info.ts). */
  shipped?(orderId: string): void;
}

export interface FulfilmentReply {
  status: number;
  body: unknown;
  kind: ExchangeKind;
  orderId?: string;
  raw?: Buffer;
  headers?: Record<string, string>;
  /** What the exchange log keeps instead of the request body (the password is never kept). */
  loggedRequest?: unknown;
  /** What the exchange log keeps instead of the answer (the token is never kept). */
  loggedResponse?: unknown;
}

/** The caller as the JWT says: `jwt` absent without a UserName header. */
/** `scheme`: how Authorization carried the token (`Bearer <token>`, or the token alone). */
export type JwtCaller = { jwt: 'valid'; userName: string; scheme: 'raw' | 'Bearer' } | { jwt: 'invalid'; reason: string } | undefined;

export interface Fulfilment {
  /** Reads the JWT of a request (UserName header, Authorization raw or Bearer). */
  verify(req: IncomingMessage): Promise<JwtCaller>;
  /** Answers the flow's paths; undefined for any other path. `merchant` is the authenticated merchant, undefined when not authenticated. */
  route(method: string, path: string, body: unknown, merchant: string | undefined, refusal?: string): Promise<FulfilmentReply | undefined>;
}

const json = (kind: ExchangeKind, status: number, body: unknown, orderId?: string): FulfilmentReply => ({ kind, status, body, ...(orderId ? { orderId } : {}) });
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

const A_TEXT: Record<string, string> = {
  A100: 'Invalid information schema.',
  A200: 'Could not retrieve documents and/or process orders.',
  A300: 'There is at least one SKU that was not part of the original order. Please use only SKUs which were originally ordered.',
  A019: 'The order was cancelled and cannot be shipped',
};
const docsError = (code: string, description: string, orderId?: string) =>
  json('getShippingDocuments', 400, { IsSuccess: false, Code: code, ErrorText: A_TEXT[code], Description: description }, orderId);
const manifestError = (code: string, description: string, orderId?: string) =>
  json('dispatchOrders', 400, { IsSuccess: false, Code: code, ErrorText: B_TEXT[code], Description: description }, orderId);

export function createFulfilment(ctx: FulfilmentContext): Fulfilment {
  const key = randomBytes(32);
  /** Issued files by `${orderId}/${name}`. */
  const files = new Map<string, ShippingFile>();
  let manifests = 0;

  const link = (orderId: string, name: string) => `/shipping-documents/${encodeURIComponent(orderId)}/${encodeURIComponent(name)}`;
  const absolute = (path: string) => `${ctx.baseUrl() ?? ''}${path}`;
  const orderDocument = (file: ShippingFile, path: string, extra: Record<string, unknown>) => ({
    DocumentTypeCode: file.typeCode, DocumentTypeName: file.typeName, DocumentExtension: file.extension,
    DocumentData: file.bytes.toString('base64'), URL: absolute(path), CreationDateTime: new Date().toISOString().slice(0, 19), ...extra,
  });
  const issue = (order: OrderState, file: ShippingFile, extra: { parcelCode?: string; trackingNumber?: string }): IssuedDocument => {
    const path = link(order.orderId, file.name);
    files.set(`${order.orderId}/${file.name}`, file);
    return { at: new Date().toISOString(), name: file.name, typeCode: file.typeCode, extension: file.extension, path, ...extra };
  };

  async function token(body: unknown): Promise<FulfilmentReply> {
    const kind: ExchangeKind = 'getAuthenticationToken';
    const b = isObject(body) ? body : {};
    const loggedRequest = { UserName: b.UserName, Password: '***' };
    const s = ctx.settings;
    if (!safeEqual(b.UserName, s.jwtUserName) || !safeEqual(b.Password, s.jwtPassword)) {
      return { ...json(kind, 401, { Code: 'UNAUTHORIZED', Error: 'Invalid user name or password' }), loggedRequest };
    }
    const Token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(s.jwtUserName)
      .setIssuedAt().setExpirationTime(new Date(Date.now() + s.jwtTtlMs)).sign(key);
    return { ...json(kind, 200, { Token }), loggedRequest, loggedResponse: { Token: '***' } };
  }

  function shippingDocuments(body: unknown, merchant: string): FulfilmentReply {
    if (!isObject(body)) return docsError('A100', 'The body must be an UpdateOrderDispatchRequest object');
    for (const list of ['Parcels', 'Exceptions'] as const) {
      if (body[list] !== undefined && body[list] !== null && !Array.isArray(body[list])) return docsError('A100', `${list} must be an array (UpdateOrderDispatchRequest)`);
    }
    const orderId = nonEmpty(body.OrderId) ? body.OrderId : undefined;
    const merchantOrderId = [body.MerchantOrderId, body.MerchantOrderID].find(nonEmpty);
    if (!orderId && !merchantOrderId) return docsError('A100', 'One of OrderId or MerchantOrderId is required');
    const order = ctx.orders.find({ orderId, merchantOrderId }, merchant);
    if (!order) return docsError('A200', `Order not found: ${orderId ?? merchantOrderId}`);
    const id = order.orderId;
    if (order.cancelled) return docsError('A019', `Order ${id} is cancelled`, id);
    if (asksExistingDocuments(body)) {
      const existing = existingDocuments(order, (d) => {
        const file = files.get(`${id}/${d.name}`);
        return file && orderDocument(file, d.path, { ...(d.parcelCode ? { ParcelCode: d.parcelCode } : {}), ...(d.trackingNumber ? { TrackingNumber: d.trackingNumber } : {}) });
      });
      return existing.body ? json('getShippingDocuments', 200, existing.body, id) : docsError('A200', `Order ${id} has no shipping documents yet (declare its parcels first)`, id);
    }
    if (order.manifested) return docsError('A200', `Order ${id} is already dispatched`, id);
    const parcels = Array.isArray(body.Parcels) ? body.Parcels : [];
    for (const p of parcels) {
      for (const product of (isObject(p) && Array.isArray(p.Products) ? p.Products : []) as unknown[]) {
        const sku = isObject(product) ? product.ProductCode : undefined;
        if (!order.lines.some((l) => l.sku === sku)) return docsError('A300', `Product ${String(sku)} is not on order ${id}`, id);
      }
    }
    const codes = new Set(order.parcels.map((p) => p.parcelCode));
    const again = parcels.find((p) => isObject(p) && codes.has(p.ParcelCode as string));
    if (again) return docsError('A200', `Parcel ${String((again as Record<string, unknown>).ParcelCode)} of order ${id} already has its documents`, id);
    const outcome = applyDispatch(ctx.orders, { ...body, OrderId: id, MerchantOrderId: undefined, MerchantOrderID: undefined }, 'V2', merchant);
    if (!outcome.answer.Success) return docsError('A200', outcome.answer.Reason, id);

    const declared = ctx.orders.get(id)!.parcels.filter((p) => !codes.has(p.parcelCode));
    const issued: IssuedDocument[] = [];
    const documents: unknown[] = [];
    const tracking: Array<Record<string, string>> = [];
    for (const parcel of declared) {
      const trackingNumber = sandboxTrackingNumber(id, parcel.parcelCode);
      tracking.push({ ParcelCode: parcel.parcelCode, TrackingNumber: trackingNumber });
      for (const file of parcelFiles(id, parcel.parcelCode, parcel.products)) {
        const doc = issue(order, file, { parcelCode: parcel.parcelCode, trackingNumber });
        issued.push(doc);
        documents.push(orderDocument(file, doc.path, { ParcelCode: parcel.parcelCode, TrackingNumber: trackingNumber }));
      }
    }
    ctx.orders.update(id, 'shipping-documents', (o) => {
      o.shippingDocuments.push(...issued);
      for (const p of o.parcels) if (declared.some((d) => d.parcelCode === p.parcelCode)) p.trackingNumber = sandboxTrackingNumber(id, p.parcelCode);
      for (const t of tracking) if (!o.trackingNumbers.includes(t.TrackingNumber)) o.trackingNumbers.push(t.TrackingNumber);
    }, { detail: `${issued.length} document(s) for ${declared.length} parcel(s)`, links: issued.map((d) => ({ label: d.name, href: d.path })) });
    return json('getShippingDocuments', 200, { IsSuccess: true, ErrorText: null, Documents: documents, ParcelsTracking: tracking }, id);
  }

  function dispatchOrders(body: unknown, merchant: string): FulfilmentReply {
    const b = isObject(body) ? body : {};
    // What the request names, orders or parcels, and the documented refusals (manifest-request.ts).
    const parcelDispatch = ctx.seed.merchants.find((m) => m.id === merchant)?.parcelDispatch !== false;
    const read = readManifestRequest(ctx.orders, merchant, parcelDispatch, body);
    if ('error' in read) return manifestError(read.error.code, read.error.text, read.error.orderId);
    const entries = read.entries;
    const orders = entries.map((e) => e.order);
    const parcelCount = entries.reduce((n, e) => n + e.parcels.length, 0);
    const boxes = b.OuterBoxesAmount;
    if (typeof boxes === 'number' && boxes > parcelCount) {
      return manifestError('B300', `${B_TEXT.B300} The total number of parcels is ${parcelCount} and the number of outer boxes is ${boxes}.`);
    }
    const manifest = manifestFile(`manifest-${++manifests}.pdf`, entries.map((e) => ({ orderId: e.order.orderId, parcels: e.parcels.map((p) => p.parcelCode) })));
    const documents: unknown[] = [];
    for (const { order, parcels } of entries) {
      const doc = issue(order, manifest, {});
      if (documents.length === 0) documents.push(orderDocument(manifest, doc.path, { ShippingServiceName: 'Sandbox Express' }));
      const partial = parcels.length < order.parcels.length;
      ctx.orders.update(order.orderId, 'manifested', (o) => {
        o.shippingDocuments.push(doc);
        for (const p of o.parcels) if (parcels.includes(p)) p.manifested = true;
        o.manifested = o.parcels.every((p) => p.manifested === true);
      }, {
        detail: `${partial ? `parcel(s) ${parcels.map((p) => p.parcelCode).join(', ')} ` : ''}on ${manifest.name} with ${orders.length} order(s)${nonEmpty(b.HubCode) ? ` from hub ${b.HubCode}` : ''}`,
        links: [{ label: manifest.name, href: doc.path }],
      });
    }
    for (const order of orders) ctx.shipped?.(order.orderId);
    const tracking = entries.flatMap((e) => e.parcels.map((p) => ({ OrderId: e.order.orderId, ParcelCode: p.parcelCode, TrackingNumber: p.trackingNumber ?? '' })));
    return json('dispatchOrders', 200, { IsSuccess: true, ErrorText: null, Documents: documents, ShipperManifests: documents, ParcelsTracking: tracking }, orders.length === 1 ? orders[0].orderId : undefined);
  }

  function ordersDetails(body: unknown, merchant: string): FulfilmentReply {
    const ids = isObject(body) && Array.isArray(body.OrderIds) ? body.OrderIds.filter(nonEmpty) : [];
    if (ids.length === 0) return json('getOrdersDetails', 400, { Code: 'INVALID_REQUEST', Error: 'Invalid request', Description: 'The body must be { "OrderIds": [string] } with at least one id.' });
    const guid = ctx.seed.merchants.find((m) => m.id === merchant)?.guid;
    const found = ids.map((id) => ctx.orders.find({ orderId: id }, merchant)).filter((o): o is OrderState => o !== undefined);
    const orders = found.map((o) => ({
      OrderId: o.orderId,
      ...(o.merchantOrderId ?? o.internalOrderId ? { MerchantOrderId: o.merchantOrderId ?? o.internalOrderId } : {}),
      ...(guid ? { MerchantGUID: guid } : {}),
      ...(o.cancelled ? { StatusCode: 'canceled' } : {}),
      Products: o.lines.map((l) => ({ Sku: l.sku, Quantity: l.ordered, ...(l.cartItemId ? { CartItemId: l.cartItemId } : {}), ...(l.name ? { Name: l.name } : {}) })),
      Parcels: o.parcels.map((p) => ({ Code: p.parcelCode, Products: p.products.map((x) => ({ Sku: x.sku, Quantity: x.quantity, ...(x.cartItemId ? { CartItemId: x.cartItemId } : {}) })) })),
      OrderDocuments: o.shippingDocuments.map((d) => ({
        DocumentTypeCode: d.typeCode, DocumentExtension: d.extension, URL: absolute(d.path), ...(d.trackingNumber ? { TrackingNumber: d.trackingNumber } : {}),
      })),
    }));
    return json('getOrdersDetails', 200, orders, found.length === 1 ? found[0].orderId : undefined);
  }

  function voidParcel(body: unknown, merchant: string): FulfilmentReply {
    const kind: ExchangeKind = 'voidParcel';
    const refuse = (Code: string, Message: string, orderId?: string) => json(kind, 400, { IsSuccess: false, Errors: [{ Code, Message }] }, orderId);
    const b = isObject(body) ? body : {};
    const order = ctx.orders.find({ orderId: nonEmpty(b.OrderId) ? b.OrderId : undefined, merchantOrderId: nonEmpty(b.MerchantOrderId) ? b.MerchantOrderId : undefined }, merchant);
    const code = b.ParcelCode;
    const parcel = order?.parcels.find((p) => p.parcelCode === code);
    if (!order || !parcel) return refuse('C104', 'The parcel code was not found, or the parcel was already voided', order?.orderId);
    if (order.manifested || parcel.manifested) return refuse('C101', 'The parcel cannot be voided due to the status of the parcel (already dispatched on a manifest)', order.orderId);
    const voided = order.shippingDocuments.filter((d) => d.parcelCode === parcel.parcelCode);
    for (const d of voided) files.delete(`${order.orderId}/${d.name}`);
    ctx.orders.update(order.orderId, 'parcel-voided', (o) => {
      o.parcels = o.parcels.filter((p) => p !== parcel);
      for (const product of parcel.products) {
        const line = o.lines.find((l) => l.sku === product.sku);
        if (line) line.dispatched = Math.max(0, line.dispatched - product.quantity);
      }
      o.shippingDocuments = o.shippingDocuments.filter((d) => d.parcelCode !== parcel.parcelCode);
    }, { detail: `${parcel.parcelCode}: ${voided.length} document(s) void` });
    return json(kind, 200, { IsSuccess: true, Errors: [] }, order.orderId);
  }

  function download(path: string): FulfilmentReply | undefined {
    const m = /^\/shipping-documents\/([^/]+)\/([^/]+)$/.exec(path);
    if (!m) return undefined;
    let orderId: string; let name: string;
    try { orderId = decodeURIComponent(m[1]); name = decodeURIComponent(m[2]); } catch { return undefined; }
    const file = files.get(`${orderId}/${name}`);
    if (!file) return json('documentDownload', 404, { Code: 'NOT_FOUND', Error: 'No such document' }, orderId);
    return {
      kind: 'documentDownload', status: 200, body: undefined, raw: file.bytes, orderId,
      headers: { 'content-type': file.contentType, 'content-disposition': `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"` },
    };
  }

  return {
    async verify(req) {
      const userName = req.headers.username;
      if (typeof userName !== 'string') return undefined;
      const auth = req.headers.authorization ?? '';
      const bearer = /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1];
      const token = bearer ?? auth.trim();
      if (token === '') return { jwt: 'invalid', reason: 'The Authorization header with the JWT is missing' };
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], subject: userName });
        return typeof payload.sub === 'string' ? { jwt: 'valid', userName, scheme: bearer !== undefined ? 'Bearer' : 'raw' } : { jwt: 'invalid', reason: 'The token has no subject' };
      } catch (err) {
        return { jwt: 'invalid', reason: (err as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'The token has expired' : 'The token is not valid for this user' };
      }
    },
    async route(method, path, body, merchant, refusal) {
      if (method === 'GET') return download(path);
      const kinds: Record<string, ExchangeKind> = {
        '/Authentication/GetAuthenticationToken': 'getAuthenticationToken', '/Order/GetShippingDocuments': 'getShippingDocuments',
        '/Order/DispatchOrders': 'dispatchOrders', '/Order/GetOrdersDetails': 'getOrdersDetails', '/Parcel/VoidParcel': 'voidParcel',
      };
      const kind = kinds[path];
      if (!kind) return undefined;
      if (method !== 'POST') return { ...json(kind, 405, { Code: 'METHOD_NOT_ALLOWED', Message: `Use POST for ${path}` }), headers: { allow: 'POST' } };
      if (kind === 'getAuthenticationToken') return token(body);
      if (merchant === undefined) return json(kind, 401, { Code: 'UNAUTHORIZED', Error: 'Unauthorized', Description: refusal ?? 'The JWT or access token is missing or invalid.' });
      if (kind === 'getShippingDocuments') return shippingDocuments(body, merchant);
      if (kind === 'dispatchOrders') return dispatchOrders(body, merchant);
      if (kind === 'voidParcel') return voidParcel(body, merchant);
      return ordersDetails(body, merchant);
    },
  };
}
