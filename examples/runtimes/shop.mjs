// The merchant side every runtime recipe shares: a tiny in-memory shop as the kit's adapter.
// Plain JavaScript, so Deno, Bun, workerd and Node load it as it is.
import { CallbackError } from 'crossborder-merchant-kit';

export const MERCHANT_GUID = '3f2c9a1e-7b4d-4e8a-9c61-2d5f0b8e4a17';

const CARTS = new Map([
  ['demo-cart', [{ CartItemId: 'demo-cart-1', ProductCode: 'MUG-1', Name: 'Mug', OrderedQuantity: 2, SalePrice: 12.5, OriginalSalePrice: 12.5 }]],
]);
let nextOrder = 1;
const total = (order) => (Array.isArray(order.Products) ? order.Products : [])
  .reduce((sum, p) => sum + Number(p.Price ?? 0) * Number(p.Quantity ?? 1), 0).toFixed(2);

export const adapter = {
  async getCheckoutCartInfo(request) {
    const lines = CARTS.get(request.merchantCartToken);
    if (!lines) throw new CallbackError('No such cart', { errorCode: 'CART_NOT_FOUND', status: 404 });
    return { productsList: lines, currencyCode: 'EUR', originalCurrencyCode: 'EUR', cultureCode: 'en-GB' };
  },
  async sendOrderToMerchant(order) {
    // Runs once per OrderId: the kit replays the stored reply to a redelivery.
    const internal = { InternalOrderId: `SHOP-${nextOrder++}` };
    return order.PaymentDetails ? { ...internal, PaymentAmount: total(order), PaymentCurrencyCode: order.CurrencyCode ?? 'EUR' } : internal;
  },
  async performOrderPayment(order) {
    return { PaymentAmount: total(order), PaymentCurrencyCode: order.CurrencyCode ?? 'EUR' };
  },
  async updateOrderStatus() {
    return {};
  },
  async receiveAdditionalRequiredDocuments() {},
  async receiveRmaInfo() {},   // a return: once per OrderId + RMANumber
  async receiveParcelDispatch() {},   // a parcel dispatched: once per OrderId + parcel + status
};
