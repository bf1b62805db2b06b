/** One valid delivery of every callback (as a binding hands it to kit.handle), for the telemetry suites. */
import type { CallbackName, CallbackRequest } from 'crossborder-merchant-kit';
import { fixture } from '../fixtures/index.js';
import { documentsDelivery, MERCHANT_GUID, order, paymentOrder, statusUpdate } from '../helpers/orders.js';
import { parcelDispatch, rmaInfo } from '../helpers/shipping-refund.js';

export interface Delivery { name: CallbackName; wire: string; orderId?: string; request(): CallbackRequest; refused(): CallbackRequest }

const json = { 'content-type': 'application/json' };
const post = (wire: string, body: unknown): CallbackRequest => ({ method: 'POST', path: `/${wire}`, headers: { ...json }, query: {}, body });
const ours = (file: string) => ({ ...fixture(`real-world/${file}`), MerchantGUID: MERCHANT_GUID });

function orderCallback(name: CallbackName, wire: string, body: () => Record<string, unknown>): Delivery {
  return { name, wire, orderId: body().OrderId as string, request: () => post(wire, body()), refused: () => post(wire, '{not json') };
}

export const DELIVERIES: Delivery[] = [
  {
    name: 'getCheckoutCartInfo', wire: 'GetCheckoutCartInfo',
    request: () => ({ method: 'GET', path: '/GetCheckoutCartInfo', headers: {}, query: { merchantCartToken: 'cart-7f3a', countryCode: 'CH' } }),
    refused: () => ({ method: 'GET', path: '/GetCheckoutCartInfo', headers: {}, query: { countryCode: 'CH' } }),
  },
  orderCallback('sendOrderToMerchant', 'SendOrderToMerchant', order),
  orderCallback('updateOrderStatus', 'UpdateOrderStatus', () => statusUpdate()),
  orderCallback('performOrderPayment', 'PerformOrderPayment', paymentOrder),
  orderCallback('receiveAdditionalRequiredDocuments', 'SendAdditionalRequiredDocumentsToMerchant', documentsDelivery),
  orderCallback('updateOrderShippingInfo', 'UpdateOrderShippingInfo', () => ours('workarea-updateordershippinginfo.json')),
  orderCallback('notifyOrderRefunded', 'NotifyOrderRefunded', () => ours('workarea-notifyorderrefunded.json')),
  orderCallback('receiveRmaInfo', 'SendRMAInfoToMerchant', () => rmaInfo()),
  orderCallback('receiveParcelDispatch', 'UpdateParcelDispatch', () => parcelDispatch()),
];

export const ORDER_DELIVERIES = DELIVERIES.filter((d) => d.orderId !== undefined);
