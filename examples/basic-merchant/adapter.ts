/**
 * The merchant adapter: translates every callback (the eight of the registry) into calls on the in-memory shop.
 * Shop refusals become CallbackError (the service sees their texts); anything else the kit answers
 * with a generic 500 and logs.
 */
import { CallbackError, type CartInfoRequest, type CheckoutCartInfo, type MerchantAdapter, type MerchantOrder } from 'crossborder-merchant-kit';
import { ShopError, type OrderLine, type Shop } from './shop.js';

const STATUS_OF_ERROR: Record<ShopError['code'], number> = {
  CART_NOT_FOUND: 404, ORDER_NOT_FOUND: 404, UNKNOWN_SKU: 400, OUT_OF_STOCK: 409,
  ALREADY_SHIPPED: 409, ORDER_CANCELED: 409, CARD_DECLINED: 402,
};

/** Runs a shop operation; a ShopError declines the callback with its code and message. */
function declineOnShopError<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof ShopError) throw new CallbackError(err.message, { errorCode: err.code, status: STATUS_OF_ERROR[err.code] });
    throw err;
  }
}

type Loose = Record<string, unknown>;
const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : fallback);

function orderLines(order: MerchantOrder): OrderLine[] {
  const products = (Array.isArray(order.Products) ? order.Products : []) as Loose[];
  return products.map((p) => ({ sku: str(p.Sku), quantity: Number(p.Quantity), price: Number(p.Price) }));
}

function shipTo(order: MerchantOrder) {
  const s = (order.PrimaryShipping ?? order.PrimaryBilling ?? {}) as Loose;
  return {
    name: `${str(s.FirstName)} ${str(s.LastName)}`.trim(), address: str(s.Address1), city: str(s.City),
    countryCode: str(s.CountryCode), email: str(s.Email),
  };
}

/** The amount charged for an order: its lines plus any discounted shipping price, in the order currency. */
function orderTotal(order: MerchantOrder): number {
  const lines = orderLines(order).reduce((sum, l) => sum + l.price * l.quantity, 0);
  const shipping = Number((order as Loose).DiscountedShippingPrice ?? 0);
  return Math.round((lines + (Number.isFinite(shipping) ? shipping : 0)) * 100) / 100;
}

export function createShopAdapter(shop: Shop): MerchantAdapter {
  const chargeFor = (order: MerchantOrder) => {
    const card = str((order.PaymentDetails as Loose | undefined)?.CardNumber);
    const currency = str(order.CurrencyCode, shop.currency);
    const payment = shop.charge(str(order.OrderId), orderTotal(order), currency, card);
    return { PaymentAmount: payment.amount, PaymentCurrencyCode: payment.currency };
  };

  return {
    async getCheckoutCartInfo(request: CartInfoRequest): Promise<CheckoutCartInfo> {
      const lines = declineOnShopError(() => shop.inStockCart(request.merchantCartToken));
      const info = {
        productsList: lines.map((line, i) => ({
          CartItemId: `${request.merchantCartToken}-${i + 1}`, ProductCode: line.sku, Name: line.item.name,
          OrderedQuantity: line.quantity, SalePrice: line.item.price, OriginalSalePrice: line.item.price,
          Weight: line.item.weightGrams, ImageURL: line.item.imageUrl,
        })),
        currencyCode: shop.currency,
        originalCurrencyCode: shop.currency,
        cultureCode: 'en-GB',
        ...(request.countryCode ? { CountryCode: request.countryCode } : {}),
      };
      return info as CheckoutCartInfo;
    },

    async sendOrderToMerchant(order, context) {
      const awaitingDocuments = Array.isArray(order.AdditionalRequiredDocuments) && order.AdditionalRequiredDocuments.length > 0;
      const placed = declineOnShopError(() =>
        shop.placeOrder(str(order.OrderId), orderLines(order), str(order.CurrencyCode, shop.currency), shipTo(order), awaitingDocuments));
      if (awaitingDocuments) context.log.info({ orderId: order.OrderId }, 'order held until its additional documents arrive');
      // With PaymentDetails the same call also pays: report what was charged.
      const payment = order.PaymentDetails ? declineOnShopError(() => chargeFor(order)) : {};
      return { InternalOrderId: placed.internalId, OrderId: placed.displayId, StatusCode: placed.status, ...payment };
    },

    async updateOrderStatus(order) {
      const status = str(order.StatusCode).toLowerCase();
      const updated = declineOnShopError(() => {
        if (status === 'canceled' || status === 'cancelled') return shop.cancel(str(order.OrderId));
        if (status === 'shipped') return shop.setStatus(str(order.OrderId), 'shipped');
        return shop.order(str(order.OrderId)); // other service statuses: acknowledged, nothing to do
      });
      return { InternalOrderId: updated.internalId, OrderId: updated.displayId, StatusCode: updated.status };
    },

    async performOrderPayment(order) {
      const payment = declineOnShopError(() => chargeFor(order));
      const known = shop.orders.get(str(order.OrderId));
      return { ...(known ? { InternalOrderId: known.internalId, OrderId: known.displayId, StatusCode: known.status } : {}), ...payment };
    },

    async receiveAdditionalRequiredDocuments(delivery) {
      const documents = ((Array.isArray(delivery.Documents) ? delivery.Documents : []) as Loose[])
        .map((d) => ({ type: str(d.DocumentTypeName, str(d.DocumentTypeCode)), url: str(d.URL) }));
      const order = declineOnShopError(() => shop.attachDocuments(str(delivery.OrderId), documents));
      return { InternalOrderId: order.internalId, OrderId: order.displayId, StatusCode: order.status };
    },

    // Not in the interface specification; shapes from existing integrations (docs/callbacks.md).
    async updateOrderShippingInfo(info, context) {
      const order = declineOnShopError(() => shop.order(str(info.OrderId)));
      context.log.info({ trackingNumber: info.InternationalDetails?.OrderTrackingNumber }, 'tracking details received');
      return { InternalOrderId: order.internalId, OrderId: order.displayId, StatusCode: order.status };
    },

    async notifyOrderRefunded(refund, context) {
      const order = declineOnShopError(() => shop.order(str(refund.OrderId)));
      // merchantInitiated: a refund this shop made itself with the service client (docs/callbacks.md#merchant-initiated).
      context.log.info({ lines: refund.Products?.length ?? 0, total: refund.TotalRefundAmount, ours: context.merchantInitiated !== undefined }, 'refund notified');
      return { InternalOrderId: order.internalId, OrderId: order.displayId, StatusCode: order.status };
    },

    // A return (SendRMAInfoToMerchant), once per OrderId + RMANumber.
    async receiveRmaInfo(rma, context) {
      const order = declineOnShopError(() => shop.order(str(rma.OrderId)));
      context.log.info({ rma: rma.RMANumber, lines: rma.ReturnedProducts.length }, 'return announced');
      return { InternalOrderId: order.internalId, OrderId: order.displayId, StatusCode: order.status };
    },

    // A parcel dispatched to the customer (UpdateParcelDispatch), once per OrderId + parcel + status.
    async receiveParcelDispatch(dispatch, context) {
      const parcel = dispatch.DispatchedParcel;
      const id = str(dispatch.OrderId);
      const known = declineOnShopError(() => shop.order(id));
      // A cancelled order stays cancelled; any other is shipped once a parcel of it left the hub.
      const order = known.status === 'canceled' ? known : shop.setStatus(id, 'shipped');
      context.log.info({ parcel: parcel.ParcelCode, status: parcel.StatusName, tracking: parcel.ParcelTracking?.ParcelTrackingNumber, lines: parcel.Products?.length ?? 0 }, 'parcel dispatched');
      return { InternalOrderId: order.internalId, OrderId: order.displayId, StatusCode: order.status };
    },
  };
}
