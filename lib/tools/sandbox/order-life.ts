/**
 * The order-life operations of the sandbox, as the service would run them, with state on the order
 * (orders.ts) and the follow-up callback the service then sends to the merchant:
 * - UpdateOrderStatus from the merchant (the `orderStatus` query parameter, or the older body form):
 *   a cancellation cancels the order (refused once dispatched) → UpdateOrderStatus callback;
 * - CreateOrderRefund: recorded with its RefundID (a duplicate ExternalReference, more than the paid
 *   total, or a refund of an unknown order are refused) → NotifyOrderRefunded callback;
 * - GetRefundDetails: the order's refunds;
 * - the address change: an Idempotency-Key (UUID v4) is required; a key seen before answers 202 again
 *   without applying twice; refused once dispatched or cancelled.
 * The service API (service-api.ts) and the scenarios (scenarios.ts) both call these.
 */
import { isObject } from '../../shared/options.js';
import type { CallbackPathName } from '../conformance/paths.js';
import type { OrderBook, OrderState, SandboxRefund } from './orders.js';

type Json = Record<string, unknown>;

/** The callback the service sends after the operation. */
export interface FollowUp {
  kind: CallbackPathName;
  orderId: string;
  label: string;
  body: Json;
  /** What the order's timeline says when the merchant accepted it. */
  event: string;
}

export interface LifeReply {
  status: number;
  /** Undefined: no body (the address change's 202). */
  body?: unknown;
  orderId?: string;
  followUp?: FollowUp;
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const DECIMAL = /^\d{1,15}(\.\d{1,6})?$/;
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined);
const failure = (status: number, Message: string, Description: string, orderId?: string): LifeReply =>
  ({ status, body: { Success: false, Message, Description }, ...(orderId ? { orderId } : {}) });
const notFound = (orderId: string | undefined) => ({ status: 400, body: { Code: 'B001', Message: 'Order ID not found', Description: `The order ${orderId ?? '(none)'} provided by the merchant does not exist.` } });

/** Hundredths of a decimal text (amounts rounded down to cents are enough for the sandbox's comparisons). */
function cents(value: unknown): bigint | undefined {
  const t = typeof value === 'number' && Number.isFinite(value) ? value.toFixed(2) : typeof value === 'string' ? value.trim() : '';
  if (!DECIMAL.test(t)) return undefined;
  const [int, frac = ''] = t.split('.');
  return BigInt(int) * 100n + BigInt((frac + '00').slice(0, 2));
}
const centsText = (c: bigint) => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;

const isDispatched = (o: OrderState) => o.parcels.length > 0 || o.completed;

/** UpdateOrderStatus, merchant → service: `orderStatus` (JSON text) from the query, else the body (either form). */
export function merchantUpdateStatus(orders: OrderBook, merchant: string, merchantGuid: string, query: URLSearchParams, body: unknown): LifeReply {
  let details: unknown = body;
  const param = query.get('orderStatus');
  if (param !== null) {
    try { details = JSON.parse(param); } catch { return failure(400, 'Invalid request', 'orderStatus must be the JSON of OrderStatusDetails'); }
  }
  if (!isObject(details)) return failure(400, 'Invalid request', 'give the status as the orderStatus query parameter (JSON) or as the body');
  const orderId = text(details.OrderId);
  const status = isObject(details.OrderStatus) ? text(details.OrderStatus.OrderStatusCode) : text(details.StatusCode);
  if (!orderId || !status) return failure(400, 'Invalid request', 'OrderId and OrderStatus.OrderStatusCode (or StatusCode) are required');
  const order = orders.find({ orderId }, merchant);
  if (!order) return notFound(orderId);
  const reason = isObject(details.OrderStatusReason) ? details.OrderStatusReason : undefined;
  const reasonText = reason ? `${String(reason.OrderStatusReasonCode ?? '')} ${String(reason.Name ?? '')}`.trim() : '';
  if (!/^cancell?ed$/i.test(status)) {
    orders.update(orderId, 'status-from-merchant', () => undefined, { detail: status });
    return { status: 200, body: { Success: true }, orderId };
  }
  if (order.cancelled) return { status: 200, body: { Success: true, Message: 'The order is already cancelled' }, orderId };
  if (isDispatched(order)) return failure(400, 'Order cannot be cancelled', `The order ${orderId} was dispatched; refund it instead`, orderId);
  orders.update(orderId, 'cancelled', (o) => { o.cancelled = true; }, { detail: `by the merchant${reasonText ? `: ${reasonText}` : ''}` });
  return {
    status: 200, body: { Success: true }, orderId,
    followUp: {
      kind: 'updateOrderStatus', orderId, label: 'UpdateOrderStatus (the merchant\'s cancellation, confirmed)', event: 'cancellation-confirmed',
      body: {
        MerchantGUID: merchantGuid, OrderId: orderId, ...(order.merchantOrderId ? { MerchantOrderId: order.merchantOrderId } : {}), StatusCode: 'canceled',
        ...(reason ? { OrderStatusReason: { OrderStatusReasonCode: String(reason.OrderStatusReasonCode ?? ''), Name: String(reason.Name ?? '') } } : {}),
      },
    },
  };
}

/** Where the sandbox reads a refund (docs/compatibility.md OL-2): the form the service's own cartridge sends. */
export const REFUND_FORM = 'the OrderRefund as JSON in the orderRefund query parameter, the JSON array of RefundProducts as the body (empty or [] for none): link_globale OrderRefundUpdateOperation.js';

/**
 * The two documented parameters as the service's own cartridge sends them (link_globale
 * `OrderRefundUpdateOperation.js`): `orderRefund` (JSON) in the query, the RefundProduct array (or
 * nothing) as the body. Any other form — the kit's old `{ orderRefund, refundProductsList }` body
 * included — is refused: the sandbox cannot agree with a form the service does not read.
 */
function refundParts(query: URLSearchParams, body: unknown): { details: Json; products: Json[] } | undefined {
  const param = query.get('orderRefund');
  if (param === null) return undefined;
  let details: unknown;
  try { details = JSON.parse(param); } catch { return undefined; }
  const list = body === undefined ? [] : body;
  if (!isObject(details) || !Array.isArray(list) || !list.every(isObject)) return undefined;
  return { details, products: list as Json[] };
}

/** The refund's total in cents: TotalRefundAmount, else lines + components; the paid rest for a full refund. */
function refundCents(order: OrderState, details: Json, products: Json[], refunded: bigint): bigint | undefined | 'invalid' {
  if (details.FullRefund === true) {
    const paid = order.paid ? cents(order.paid.amount) : undefined;
    return paid === undefined ? 0n : paid - refunded;
  }
  if (details.TotalRefundAmount !== undefined) return cents(details.TotalRefundAmount) ?? 'invalid';
  let sum = 0n;
  for (const amount of [...products.map((p) => p.RefundAmount), details.ShippingAmount, details.DutiesAmount, details.ServiceGestureAmount]) {
    if (amount === undefined || amount === null) continue;
    const c = cents(amount);
    if (c === undefined) return 'invalid';
    sum += c;
  }
  return sum;
}

let refundSequence = 7000;

/** The documented refusals of CreateOrderRefund (ErrorInfo: a numeric code; docs.global-e.com "Order Methods"). */
const refundRefusal = (code: 1001 | 1002, Description: string, orderId: string): LifeReply => ({
  status: 400, orderId,
  body: { Code: code, Error: code === 1001 ? 'Order already fully refunded or cancelled' : 'Requested refund amount is greater than the remaining amount available', Description },
});

export function createRefund(orders: OrderBook, merchant: string, merchantGuid: string, query: URLSearchParams, body: unknown): LifeReply {
  const parts = refundParts(query, body);
  if (!parts) return failure(400, 'Invalid request', `give ${REFUND_FORM}`);
  const { details, products } = parts;
  const orderId = text(details.OrderId);
  const order = orderId ? orders.find({ orderId }, merchant) : undefined;
  if (!orderId || !order) return notFound(orderId);
  if (details.FullRefund === true && products.length > 0) return failure(400, 'Invalid request', 'Full refund requested but list of RefundProduct is not empty.', orderId);
  const reference = text(details.ExternalReference ?? details.externalReference);
  if (reference !== undefined && order.refunds.some((r) => r.ExternalReference === reference)) {
    return { status: 400, orderId, body: { Code: 'DUPLICATE_EXTERNAL_REFERENCE', Message: 'Duplicate refund', Description: `A refund with this externalReference already exists for order ${orderId}.` } };
  }
  const refunded = order.refunds.reduce((sum, r) => sum + (cents(r.TotalRefundAmount) ?? 0n), 0n);
  if (order.cancelled || order.refunds.some((r) => r.FullRefund)) return refundRefusal(1001, `The order ${orderId} is ${order.cancelled ? 'cancelled' : 'fully refunded'}.`, orderId);
  const amount = refundCents(order, details, products, refunded);
  if (amount === 'invalid') return failure(400, 'Invalid request', 'amounts must be non-negative decimals ("170.10")', orderId);
  const paid = order.paid ? cents(order.paid.amount) : undefined;
  if (amount !== undefined && paid !== undefined && refunded + amount > paid) {
    return refundRefusal(1002, `${centsText(refunded + amount)} would be refunded of ${centsText(paid)} paid`, orderId);
  }
  const refund: SandboxRefund = {
    RefundID: String(++refundSequence), at: new Date().toISOString(), FullRefund: details.FullRefund === true,
    TotalRefundAmount: centsText(amount ?? 0n), ExternalReference: reference ?? null, InitiatedBy: 'Merchant',
    RefundReason: isObject(details.RefundReason) ? details.RefundReason : null, RefundComments: text(details.RefundComments) ?? null,
    RefundProducts: products.map((p) => ({ CartItemId: text(p.CartItemId) ?? null, RefundQuantity: text(p.RefundQuantity) ?? null, RefundAmount: text(p.RefundAmount) ?? null })),
  };
  orders.update(orderId, 'refunded', (o) => { o.refunds.push(refund); }, { detail: `${refund.TotalRefundAmount}${order.paid ? ` ${order.paid.currency}` : ''} (refund ${refund.RefundID}${reference ? `, ${reference}` : ''})` });
  return {
    status: 200, body: { Success: true, RefundId: refund.RefundID }, orderId,
    followUp: {
      kind: 'notifyOrderRefunded', orderId, label: `NotifyOrderRefunded (refund ${refund.RefundID})`, event: 'refund-notified',
      body: {
        MerchantGUID: merchantGuid, OrderId: orderId, ...(order.merchantOrderId ? { MerchantOrderId: order.merchantOrderId } : {}),
        RefundId: refund.RefundID, TotalRefundAmount: refund.TotalRefundAmount, ...(order.paid ? { CurrencyCode: order.paid.currency } : {}),
        ...(refund.RefundReason ? { RefundReason: refund.RefundReason } : {}), ...(refund.RefundComments ? { RefundComments: refund.RefundComments } : {}),
        Products: refund.RefundProducts.filter((p) => p.CartItemId !== null).map((p) => ({
          CartItemId: p.CartItemId, ...(p.RefundQuantity !== null ? { RefundQuantity: p.RefundQuantity } : {}), ...(p.RefundAmount !== null ? { RefundAmount: p.RefundAmount } : {}),
        })),
      },
    },
  };
}

export function refundDetails(orders: OrderBook, merchant: string, orderId: string): LifeReply {
  const order = orders.find({ orderId }, merchant);
  if (!order) return notFound(orderId);
  return {
    status: 200, orderId,
    body: {
      OrderId: order.orderId, MerchantOrderId: order.merchantOrderId ?? null, MerchantInternalOrderId: order.internalOrderId ?? null,
      WebStoreCode: null, WebStoreInstanceCode: null,
      Refunds: order.refunds.map(({ at: _at, ...r }) => ({ ...r, RMANumber: null, CurrencyCode: order.paid?.currency ?? null })),
    },
  };
}

/** Idempotency keys seen, per merchant: a repeated key is answered again without applying twice. */
export type SeenKeys = Map<string, string>;

export function changeAddress(orders: OrderBook, merchant: string, body: unknown, key: string | undefined, seen: SeenKeys): LifeReply {
  if (key === undefined || !UUID_V4.test(key)) return failure(400, 'Invalid request', 'the Idempotency-Key header must be a UUID v4');
  const scoped = `${merchant}:${key}`;
  const before = seen.get(scoped);
  if (before !== undefined) return { status: 202, orderId: before };
  if (!isObject(body) || !isObject(body.primaryShipping)) return failure(400, 'Invalid request', 'the body must be { orderId, primaryShipping: { … }, extraDetails? }');
  const orderId = text(body.orderId);
  const order = orderId ? orders.find({ orderId }, merchant) : undefined;
  if (!orderId || !order) return notFound(orderId);
  if (isDispatched(order) || order.cancelled) {
    return { status: 409, orderId, body: { Code: 'ORDER_NOT_UPDATABLE', Message: 'The order cannot be updated', Description: `The order ${orderId} is ${order.cancelled ? 'cancelled' : 'shipped'}.` } };
  }
  seen.set(scoped, orderId);
  const address = body.primaryShipping;
  const where = [address.city, address.countryName ?? address.countryCode].filter((v) => typeof v === 'string').join(', ');
  orders.update(orderId, 'address-changed', (o) => { o.shippingAddress = { ...address }; }, { detail: where || 'new shipping address' });
  return { status: 202, orderId };
}
