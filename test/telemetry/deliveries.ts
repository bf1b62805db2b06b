/** One valid delivery of every callback of the registry (as a binding hands it to kit.handle), for the telemetry suites. */
import type { CallbackName, CallbackRequest } from 'crossborder-merchant-kit';
import { CALLBACK_ENTRIES } from '../../lib/core/registry.js';
import { CALLBACK_BUILDERS } from '../../lib/testing/builders.js';
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

/** The bodies these suites send where a callback's builder is not the one: helpers of the older tests, and real payloads. */
const BODIES: Partial<Record<CallbackName, () => Record<string, unknown>>> = {
  sendOrderToMerchant: order,
  updateOrderStatus: () => statusUpdate(),
  performOrderPayment: paymentOrder,
  receiveAdditionalRequiredDocuments: documentsDelivery,
  updateOrderShippingInfo: () => ours('workarea-updateordershippinginfo.json'),
  notifyOrderRefunded: () => ours('workarea-notifyorderrefunded.json'),
  receiveRmaInfo: () => rmaInfo(),
  receiveParcelDispatch: () => parcelDispatch(),
};

/** A callback's `/testing` builder, with this suite's MerchantGUID and one OrderId per callback (each request the same delivery). */
const built = (name: CallbackName) => {
  const body = CALLBACK_BUILDERS[name]({ MerchantGUID: MERCHANT_GUID, OrderId: `GE-TEL-${name}` }) as Record<string, unknown>;
  return () => structuredClone(body);
};

/** Every callback of the registry: the cart info by GET, each other callback's body at its default path. */
export const DELIVERIES: Delivery[] = CALLBACK_ENTRIES.map((e) => (e.result === 'cartInfo'
  ? {
    name: e.name, wire: e.defaultPath.slice(1),
    request: () => ({ method: 'GET', path: e.defaultPath, headers: {}, query: { merchantCartToken: 'cart-7f3a', countryCode: 'CH' } }),
    refused: () => ({ method: 'GET', path: e.defaultPath, headers: {}, query: { countryCode: 'CH' } }),
  }
  : orderCallback(e.name, e.defaultPath.slice(1), BODIES[e.name] ?? built(e.name))));

export const ORDER_DELIVERIES = DELIVERIES.filter((d) => d.orderId !== undefined);
