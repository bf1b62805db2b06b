/**
 * The service's parcel dispatch notification (docs.global-e.com "Dispatch Notifications (from
 * Global-e)": sent "when the prepared Orders/Parcels reach a status of 'Dispatched to Customer' upon
 * running the Carrier end-of-day manifest"): after DispatchOrders puts an order on a manifest, the
 * sandbox sends UpdateParcelDispatch for each of its parcels not notified yet, one after another, in
 * the form of the page's request table. Each outcome lands on the order's timeline
 * (`parcel-dispatch-sent`, `-refused`, or `-not-mounted` when the merchant answers 404: the callback is
 * optional). Nothing without a merchant URL.
 */
import { accepted, sendCallback, type MerchantTarget } from './callbacks.js';
import type { ExchangeLog } from './exchange-log.js';
import type { ResolvedSandboxOptions } from './options.js';
import type { DispatchedParcel, OrderBook, OrderState } from './orders.js';

export interface ParcelDispatchEnv {
  resolved: ResolvedSandboxOptions;
  log: ExchangeLog;
  orders: OrderBook;
  target(): MerchantTarget;
  track<T>(p: Promise<T>): Promise<T>;
}

/** The parcel status the notification reports (the page's trigger). */
export const DISPATCHED_TO_CUSTOMER = { Code: 'DispatchedToCustomer', StatusName: 'Dispatched to Customer' } as const;

/** The notification of one parcel, as the page's request table describes it. */
export function parcelDispatchBody(order: OrderState, parcel: DispatchedParcel, merchantGuid: string): Record<string, unknown> {
  const merchantOrderId = order.internalOrderId ?? order.merchantOrderId;
  const tracking = parcel.trackingNumber;
  return {
    OrderId: order.orderId, MerchantGUID: merchantGuid, ...(merchantOrderId ? { MerchantOrderId: merchantOrderId } : {}),
    DispatchedParcel: {
      ParcelCode: parcel.parcelCode, ...DISPATCHED_TO_CUSTOMER,
      ...(tracking ? { ParcelTracking: { ParcelTrackingNumber: tracking, ParcelTrackingUrl: `https://tracking.sandbox.invalid/${encodeURIComponent(tracking)}` } } : {}),
      Products: parcel.products.map((p) => {
        const cartItemId = p.cartItemId ?? order.lines.find((l) => l.sku === p.sku)?.cartItemId;
        return { SKU: p.sku, ...(cartItemId ? { CartItemId: cartItemId } : {}), Quantity: p.quantity };
      }),
    },
  };
}

/** A notifier of dispatched parcels: sends UpdateParcelDispatch for each parcel of `orderId` it has not sent yet. */
export function createParcelDispatchNotifier(env: ParcelDispatchEnv): (orderId: string) => void {
  const sent = new Set<string>();
  return (orderId) => {
    const order = env.orders.get(orderId);
    if (!env.resolved.merchantUrl || !order) return;
    const parcels = order.parcels.filter((p) => !sent.has(`${orderId}\n${p.parcelCode}`));
    for (const p of parcels) sent.add(`${orderId}\n${p.parcelCode}`);
    if (parcels.length === 0) return;
    void env.track((async () => {
      for (const parcel of parcels) {
        const e = await sendCallback(env.target(), env.log, {
          kind: 'receiveParcelDispatch', label: `UpdateParcelDispatch (parcel ${parcel.parcelCode} dispatched to the customer)`, orderId,
          body: parcelDispatchBody(order, parcel, env.resolved.merchantGuid),
        });
        const event = accepted(e) ? 'parcel-dispatch-sent' : e.response?.status === 404 ? 'parcel-dispatch-not-mounted' : 'parcel-dispatch-refused';
        env.orders.update(orderId, event, () => undefined, { exchangeId: e.id, detail: `parcel ${parcel.parcelCode}${parcel.trackingNumber ? `, tracking ${parcel.trackingNumber}` : ''}` });
      }
    })()).catch(() => undefined);
  };
}
