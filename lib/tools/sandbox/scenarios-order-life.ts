/**
 * The order-life scenarios (issue 38): a return (SendRMAInfoToMerchant), and the merchant's own
 * cancellation, refund and address change — which the sandbox runs as the merchant's service client
 * would call it (recorded in the log as calls from the merchant, made by the sandbox), followed by
 * the callback the service then sends. The optional callbacks (the return, the refund notification)
 * are skipped when the merchant does not mount them (404).
 */
import { randomUUID } from 'node:crypto';
import { paymentDetails, type Json } from '../conformance/payloads.js';
import { accepted, type CallbackCall, type MerchantTarget } from './callbacks.js';
import type { Exchange, ExchangeKind, ExchangeLog } from './exchange-log.js';
import { sendFollowUp } from './follow-ups.js';
import { changeAddress, createRefund, merchantUpdateStatus, type LifeReply, type SeenKeys } from './order-life.js';
import type { OrderBook } from './orders.js';

export const ORDER_LIFE_SCENARIO_NAMES = ['return', 'merchant-cancel', 'refund', 'address-change'] as const;
export type OrderLifeScenario = (typeof ORDER_LIFE_SCENARIO_NAMES)[number];

export const ORDER_LIFE_DESCRIPTIONS: Readonly<Record<OrderLifeScenario, string>> = {
  return: 'SendOrderToMerchant, then SendRMAInfoToMerchant (a return), delivered twice: one return (skipped when not mounted)',
  'merchant-cancel': 'SendOrderToMerchant, the merchant cancels (UpdateOrderStatus to the service, run by the sandbox), then the UpdateOrderStatus callback confirming it',
  refund: 'SendOrderToMerchant with payment, the merchant refunds part of it (CreateOrderRefund, run by the sandbox), then NotifyOrderRefunded; a second refund with the same ExternalReference is refused',
  'address-change': 'SendOrderToMerchant, then the merchant changes the shipping address (run by the sandbox; 202, Idempotency-Key): the order shows it, a repeated key changes nothing',
};

/** What the scenarios of scenarios.ts give these (their Run). */
export interface LifeRun {
  readonly env: { log: ExchangeLog; orders: OrderBook; target: MerchantTarget };
  send(scenario: string, call: Omit<CallbackCall, 'scenario'>): Promise<Exchange>;
  step(scenario: string, label: string, exchanges: Exchange[], problem: string | undefined, detail?: string): boolean;
  skip(scenario: string, label: string, reason: string): void;
  newOrder(scenario: string, extra?: Json): Promise<Json>;
  sendOrder(scenario: string, order: Json, label: string, envelope?: boolean): Promise<Exchange>;
}

const problemOf = (e: Exchange): string | undefined => (accepted(e) ? undefined
  : `expected HTTP 2xx with Success true; got ${e.error ? `no reply: ${e.error}` : `HTTP ${e.response?.status}${e.responseInfo ? `, Success ${String(e.responseInfo.Success)}` : ''}`}`);
const notMounted = (e: Exchange) => e.response?.status === 404;

/** A call the sandbox makes to itself as the merchant's client, and how long it took (ms, µs steps: it runs in-process). */
interface TimedReply { reply: LifeReply; durationMs: number }
function timed(call: () => LifeReply): TimedReply {
  const started = performance.now();
  const reply = call();
  return { reply, durationMs: Math.round((performance.now() - started) * 1000) / 1000 };
}

/** Records a call the sandbox made as the merchant's client (in the log as `from-merchant`, labelled so). */
function ownCall(run: LifeRun, scenario: string, kind: ExchangeKind, method: string, url: string, body: unknown, { reply, durationMs }: TimedReply, label: string, headers: Record<string, string> = {}, expected?: 'refusal'): Exchange {
  return run.env.log.record({
    at: new Date().toISOString(), direction: 'from-merchant', kind, scenario, label: `${label} (run by the sandbox as your service client)`,
    ...(expected ? { expected } : {}), // a refusal the scenario means to show: not red in the console
    ...(reply.orderId ? { orderId: reply.orderId } : {}),
    request: { method, url, headers: { 'content-type': 'application/json', ...headers }, ...(body !== undefined ? { body } : {}) },
    response: { status: reply.status, headers: { 'content-type': 'application/json' }, ...(reply.body !== undefined ? { body: reply.body } : {}) },
    durationMs,
  });
}

/** A created order, or undefined when the merchant refused it (the step says so). */
async function createdOrder(run: LifeRun, scenario: string, extra: Json = {}, envelope = false): Promise<Json | undefined> {
  const order = await run.newOrder(scenario, extra);
  const e = await run.sendOrder(scenario, order, 'SendOrderToMerchant', envelope);
  return run.step(scenario, 'SendOrderToMerchant', [e], problemOf(e)) ? order : undefined;
}

export const ORDER_LIFE_SCENARIOS: Record<OrderLifeScenario, (run: LifeRun) => Promise<void>> = {
  async return(run) {
    const name = 'return';
    const order = await createdOrder(run, name);
    if (!order) return;
    const orderId = order.OrderId as string;
    const line = (order.Products as Json[])[0] ?? {};
    const rma = {
      MerchantGUID: run.env.target.merchantGuid, OrderId: orderId, ...(order.MerchantOrderId ? { MerchantOrderId: order.MerchantOrderId } : {}),
      RMANumber: `RMA-${orderId}`, ShipperName: 'DHL', ReturnTrackingNumber: `RT${orderId.replace(/\D/g, '')}`,
      TrackingURL: `www.dhl.com%2fTracking%3fTrackingNumber%3dRT${orderId.replace(/\D/g, '')}`, CreatedBy: 'Customer',
      ReturnedProducts: [{ SKU: line.SKU ?? line.ProductCode, Name: line.Name ?? 'Product', CartItemId: line.CartItemId, ReturnQuantity: 1, ReturnReasonName: 'Arrived too late', MerchantReturnReasonCode: null, MerchantReturnReasonName: null }],
      CurrencyCode: order.CurrencyCode ?? 'EUR', ReturnShippingCost: 10.0,
    };
    const first = await run.send(name, { kind: 'receiveRmaInfo', label: 'SendRMAInfoToMerchant', orderId, body: rma });
    if (notMounted(first)) { run.skip(name, 'SendRMAInfoToMerchant', 'the merchant does not mount SendRMAInfoToMerchant (optional: receiveRmaInfo)'); return; }
    if (accepted(first)) run.env.orders.update(orderId, 'return', () => undefined, { exchangeId: first.id, detail: `${rma.RMANumber}: 1 x ${String(rma.ReturnedProducts[0].SKU)}` });
    if (!run.step(name, 'SendRMAInfoToMerchant', [first], problemOf(first))) return;
    const again = await run.send(name, { kind: 'receiveRmaInfo', label: 'SendRMAInfoToMerchant (the same return again)', orderId, body: rma });
    run.step(name, 'the same return again (exactly once: answered, not a second return)', [again], problemOf(again));
  },

  async 'merchant-cancel'(run) {
    const name = 'merchant-cancel';
    const order = await createdOrder(run, name);
    if (!order) return;
    const orderId = order.OrderId as string;
    const status = { OrderId: orderId, OrderStatus: { OrderStatusCode: 'cancelled', Name: 'cancelled' }, OrderStatusReason: { OrderStatusReasonCode: '1010', Name: 'CustomerCancel' } };
    const query = new URLSearchParams({ orderStatus: JSON.stringify(status) });
    const own = timed(() => merchantUpdateStatus(run.env.orders, 'default', run.env.target.merchantGuid, query, undefined));
    const { reply } = own;
    const call = ownCall(run, name, 'updateOrderStatusFromMerchant', 'POST', `/Order/UpdateOrderStatus?${query}`, undefined, own, 'UpdateOrderStatus (cancelled, reason 1010)');
    if (!run.step(name, 'the merchant cancels (UpdateOrderStatus to the service)', [call], reply.status === 200 && reply.followUp ? undefined : `the sandbox refused the cancellation: HTTP ${reply.status}`)) return;
    const e = await sendFollowUp(run.env, run.env.target, reply.followUp!, name);
    run.step(name, 'UpdateOrderStatus callback (the cancellation, confirmed)', [e], problemOf(e));
  },

  async refund(run) {
    const name = 'refund';
    const order = await createdOrder(run, name, { PaymentDetails: paymentDetails() }, true);
    if (!order) return;
    const orderId = order.OrderId as string;
    const line = (order.Products as Json[])[0] ?? {};
    // The cartridge's form (link_globale OrderRefundUpdateOperation.js): the OrderRefund in the query, the RefundProducts as the body.
    const details = { OrderId: orderId, TotalRefundAmount: '1.00', ExternalReference: `sbx-refund-${orderId}`, RefundReason: { OrderRefundReasonCode: 'DAMAGED', Name: 'Damaged Item' } };
    const query = new URLSearchParams({ orderRefund: JSON.stringify(details) });
    const body = [{ CartItemId: line.CartItemId, RefundQuantity: '1', RefundAmount: '1.00' }];
    const path = `/Order/CreateOrderRefund?${query}`;
    const own = timed(() => createRefund(run.env.orders, 'default', run.env.target.merchantGuid, query, body));
    const { reply } = own;
    const call = ownCall(run, name, 'createOrderRefund', 'POST', path, body, own, 'CreateOrderRefund (1.00, with an ExternalReference)');
    if (!run.step(name, 'the merchant refunds (CreateOrderRefund)', [call], reply.status === 200 && reply.followUp ? undefined : `the sandbox refused the refund: HTTP ${reply.status} ${JSON.stringify(reply.body)}`)) return;
    const e = await sendFollowUp(run.env, run.env.target, reply.followUp!, name);
    if (notMounted(e)) run.skip(name, 'NotifyOrderRefunded', 'the merchant does not mount NotifyOrderRefunded (optional: notifyOrderRefunded)');
    else run.step(name, 'NotifyOrderRefunded (the refund, notified)', [e], problemOf(e));
    const ownTwice = timed(() => createRefund(run.env.orders, 'default', run.env.target.merchantGuid, query, body));
    const twice = ownTwice.reply;
    const again = ownCall(run, name, 'createOrderRefund', 'POST', path, body, ownTwice, 'CreateOrderRefund (the same ExternalReference again)', {}, 'refusal');
    run.step(name, 'the same ExternalReference again is refused by the service', [again], twice.status === 400 ? undefined : `expected 400, got ${twice.status}`, 'HTTP 400 DUPLICATE_EXTERNAL_REFERENCE, no second refund');
  },

  async 'address-change'(run) {
    const name = 'address-change';
    const order = await createdOrder(run, name);
    if (!order) return;
    const orderId = order.OrderId as string;
    const body = { orderId, primaryShipping: { firstName: 'Dana', lastName: 'Levi', shippingAddress1: '12 Herzl St', city: 'Tel Aviv', zipCode: '6688312', countryName: 'Israel', countryCode: 'IL' } };
    const key = randomUUID();
    const seen: SeenKeys = new Map();
    const own = timed(() => changeAddress(run.env.orders, 'default', body, key, seen));
    const { reply } = own;
    const call = ownCall(run, name, 'updateShippingAddress', 'PUT', '/api/v1/orders/shipping-address', body, own, 'shipping address change', { 'idempotency-key': key });
    if (!run.step(name, 'the merchant changes the shipping address (202)', [call], reply.status === 202 ? undefined : `expected 202, got ${reply.status}`)) return;
    const ownRepeat = timed(() => changeAddress(run.env.orders, 'default', body, key, seen));
    const repeat = ownRepeat.reply;
    const changes = run.env.orders.get(orderId)?.timeline.filter((t) => t.event === 'address-changed').length ?? 0;
    const again = ownCall(run, name, 'updateShippingAddress', 'PUT', '/api/v1/orders/shipping-address', body, ownRepeat, 'shipping address change (the same Idempotency-Key again)', { 'idempotency-key': key });
    run.step(name, 'the same Idempotency-Key again: 202, applied once', [again], repeat.status === 202 && changes === 1 ? undefined : `got ${repeat.status}, ${changes} change(s)`,
      `the order shows ${String(run.env.orders.get(orderId)?.shippingAddress?.city)}`);
  },
};
