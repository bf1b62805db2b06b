/**
 * What the service tells the merchant once an order is shipped (docs.global-e.com
 * `global-e-notifications`: "Shipping creation: once the products are shipped to the customer, the
 * shipping call" to the order-shipping-info URL): after DispatchOrders puts an order on a manifest,
 * the sandbox sends UpdateOrderShippingInfo with the parcel's tracking number to the merchant (when
 * it has a merchant URL); the outcome lands on the order's timeline.
 */
import { accepted, sendCallback, type MerchantTarget } from './callbacks.js';
import type { ExchangeLog } from './exchange-log.js';
import type { ResolvedSandboxOptions } from './options.js';
import type { OrderBook } from './orders.js';

export interface ShippingInfoEnv {
  resolved: ResolvedSandboxOptions;
  log: ExchangeLog;
  orders: OrderBook;
  target(): MerchantTarget;
  track<T>(p: Promise<T>): Promise<T>;
}

/** A notifier of shipped orders: sends UpdateOrderShippingInfo for `orderId` (nothing without a merchant URL or a tracking number). */
export function createShippingInfoNotifier(env: ShippingInfoEnv): (orderId: string) => void {
  return (orderId) => {
    const order = env.orders.get(orderId);
    const tracking = order?.parcels.find((p) => p.trackingNumber)?.trackingNumber;
    if (!env.resolved.merchantUrl || !order || !tracking) return;
    const merchantOrderId = order.internalOrderId ?? order.merchantOrderId;
    const body = {
      OrderId: orderId, MerchantGUID: env.resolved.merchantGuid, ...(merchantOrderId ? { MerchantOrderId: merchantOrderId } : {}),
      InternationalDetails: { OrderTrackingNumber: tracking, OrderTrackingUrl: `https://tracking.sandbox.invalid/${encodeURIComponent(tracking)}` },
    };
    env.track(sendCallback(env.target(), env.log, { kind: 'updateOrderShippingInfo', label: 'UpdateOrderShippingInfo (dispatched on a manifest)', orderId, body })
      .then((e) => {
        env.orders.update(orderId, accepted(e) ? 'shipping-info-sent' : 'shipping-info-refused', () => undefined, { exchangeId: e.id, detail: tracking });
      }));
  };
}
