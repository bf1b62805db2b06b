/**
 * Merchant-initiated (entries with `merchantAction`; deliver() runs it under the OrderId lock, just
 * before the adapter): the service's callback that follows the merchant's own call through the service client
 * is recognised from the order's record in the store (store/order-actions.ts) and shown to the
 * adapter as `context.merchantInitiated`:
 * - 'cancel' (UpdateOrderStatus): a cancellation status, after a cancellation the client sent;
 * - 'refund' (NotifyOrderRefunded): a refund the client created, matched by its RefundId, else by its
 *   total (decimal text compared as numbers: "170.10" is 170.1), oldest first.
 * Nothing recorded (no client, another store, an order the merchant did not touch): no field.
 */
import { isObject } from '../../shared/options.js';
import { isCancellation, normaliseAmountText, ORDER_ACTION_OPERATIONS, orderAction, orderActions, type OrderAction } from '../../store/order-actions.js';
import type { KitStore } from '../../store/capabilities.js';
import type { Keyed } from '../stages/types.js';
import type { MerchantInitiated } from '../types.js';
import { fromStore } from './settle.js';

const text = (v: unknown): string | undefined => (typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** The recorded cancellation, when this status update cancels. */
async function cancelOf(store: KitStore, orderId: string, input: Record<string, unknown>): Promise<OrderAction | null> {
  const status = input.StatusCode ?? (isObject(input.OrderStatus) ? input.OrderStatus.OrderStatusCode : undefined);
  return isCancellation(status) ? orderAction(store, 'cancel', orderId) : null;
}

/** The recorded refund this notification is about. */
async function refundOf(store: KitStore, orderId: string, input: Record<string, unknown>): Promise<OrderAction | null> {
  const refunds = await orderActions(store, 'refund', orderId);
  if (refunds.length === 0) return null;
  const id = text(input.RefundId ?? input.RefundID);
  if (id !== undefined) {
    const byId = refunds.find((r) => r.details.RefundId === id);
    if (byId) return byId;
    if (refunds.some((r) => r.details.RefundId !== undefined)) return null; // the merchant's refunds have other ids
  }
  const amount = normaliseAmountText(input.TotalRefundAmount);
  return amount === undefined ? null : refunds.find((r) => r.details.amountKey === amount) ?? null;
}

/** What the adapter is told (`context.merchantInitiated`): the merchant's own call this callback follows; undefined: none recorded. */
export async function merchantInitiated(store: KitStore, d: Keyed): Promise<MerchantInitiated | undefined> {
  const kind = d.entry.merchantAction;
  const input = d.input;
  if (kind === undefined || !isObject(input)) return undefined;
  const found = await fromStore(d.log, 'order record store', () => (kind === 'cancel' ? cancelOf(store, d.orderId, input) : refundOf(store, d.orderId, input)));
  if (!found) return undefined;
  const { Success: _s, ...details } = found.details;
  return { operation: ORDER_ACTION_OPERATIONS[kind], at: found.at, details };
}
