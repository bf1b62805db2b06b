/**
 * Orders the conformance checker creates, in the sandbox's order book (issue 41, item 3): a check
 * run from the console or through a running sandbox (`check --sandbox`) shows its orders under
 * Orders — created, paid, cancelled, documents delivered — like a scenario's. Deliberate refusals
 * (wrong GUID, broken JSON) and replies that were not accepted leave no order.
 */
import { accepted } from './callbacks.js';
import type { Exchange } from './exchange-log.js';
import type { OrderBook } from './orders.js';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Json : undefined);

function linesOf(order: Json): Array<{ sku: string; quantity: number; cartItemId?: string }> {
  const products = Array.isArray(order.Products) ? order.Products : [];
  return products.map(obj).filter((p): p is Json => p !== undefined).map((p) => ({
    sku: String(p.Sku ?? p.ProductCode ?? '?'), quantity: Number(p.Quantity ?? 1) || 1,
    ...(typeof p.CartItemId === 'string' ? { cartItemId: p.CartItemId } : {}),
  }));
}

/** Records what one exchange of a check means for its order (called for each exchange the check logs). */
export function recordCheckOrder(orders: OrderBook, e: Exchange): void {
  if (e.direction !== 'to-merchant' || e.expected === 'refusal' || !e.orderId || !accepted(e)) return;
  const body = obj(e.request.body) ?? {};
  const order = obj(body.order) ?? body;
  const ri = e.responseInfo ?? {};
  const label = e.label ?? e.kind;
  const at = { exchangeId: e.id };
  switch (e.kind) {
    case 'sendOrderToMerchant': {
      const tracking = obj(order.InternationalDetails)?.OrderTrackingNumber;
      orders.add({ orderId: e.orderId, lines: linesOf(order), trackingNumbers: typeof tracking === 'string' ? [tracking] : [], source: 'check' });
      const event = orders.get(e.orderId)?.created ? 'delivered-again' : 'created';
      orders.update(e.orderId, event, (o) => {
        o.created = true;
        if (typeof ri.InternalOrderId === 'string') o.internalOrderId = ri.InternalOrderId;
        if (typeof ri.OrderId === 'string') o.merchantOrderId = ri.OrderId;
        if (Array.isArray(order.AdditionalRequiredDocuments) && order.AdditionalRequiredDocuments.length > 0) o.holdAnnounced = true;
        if (typeof ri.PaymentAmount === 'string') o.paid = { amount: ri.PaymentAmount, currency: String(ri.PaymentCurrencyCode ?? '') };
      }, { ...at, detail: label });
      return;
    }
    case 'performOrderPayment':
      if (typeof ri.PaymentAmount !== 'string') return;
      orders.update(e.orderId, 'paid', (o) => { o.paid = { amount: ri.PaymentAmount as string, currency: String(ri.PaymentCurrencyCode ?? '') }; },
        { ...at, detail: `${ri.PaymentAmount} ${String(ri.PaymentCurrencyCode ?? '')}`.trim() });
      return;
    case 'updateOrderStatus':
      if (/cancel/i.test(String(body.StatusCode ?? ''))) orders.update(e.orderId, 'cancelled', (o) => { o.cancelled = true; }, at);
      return;
    case 'receiveAdditionalRequiredDocuments':
      orders.update(e.orderId, 'documents-delivered', (o) => { o.documentsDelivered = true; }, { ...at, detail: label });
      return;
    default:
  }
}
