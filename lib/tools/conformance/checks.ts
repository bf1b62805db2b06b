/**
 * The fixed list of conformance checks, in the order they run. Ids are stable (docs/conformance.md
 * says what each sends and what passes). A check fails only on what the spec makes mandatory and
 * the checker can observe; one that needs something the merchant did not give is `skip`.
 */
import { CheckContext, describe, isAccepted, type CheckExchange } from './context.js';
import { findLeaks } from './leaks.js';
import { missingCartFields } from '../../validation/cart-product.js';
import { isRefusal, notRefusedBecause, type RefusalKind } from './refusal.js';
import { documentsDelivery, eadDocument, malformedEncodedCustomer, paymentDetails, trackingNumberFor, type Json } from './payloads.js';

/** The status of one conformance check: passed, failed, or skipped (with the reason in its detail). */
export type CheckStatus = 'pass' | 'fail' | 'skip';
/** What a check found: its status and a one-line detail (what was sent and answered, or why it failed). */
export interface CheckOutcome { status: CheckStatus; detail: string }
/** A conformance check: its stable `id` (as `check --only` takes it), a title, and what it runs. */
export interface CheckDefinition {
  id: string;
  title: string;
  /** Runs the check against the merchant (the context sends and records the requests). */
  run(ctx: CheckContext): Promise<CheckOutcome>;
}

const pass = (detail: string): CheckOutcome => ({ status: 'pass', detail });
const fail = (detail: string): CheckOutcome => ({ status: 'fail', detail });
const skip = (detail: string): CheckOutcome => ({ status: 'skip', detail });
const NO_TOKEN = 'no cart token given (--cart-token)';
const internalId = (e: CheckExchange) => e.responseInfo?.InternalOrderId;

function productsListed(e: CheckExchange): CheckOutcome {
  const list = (e.body as { productsList?: unknown } | undefined)?.productsList;
  if (e.status !== 200 || !Array.isArray(list)) return fail(`expected HTTP 200 with a productsList array; got ${describe(e)}`);
  // The service orders what the interface fields say: a product without them would be ordered wrong (issue 34 item 6).
  const gaps = list.flatMap((p, i) => missingCartFields(p).map((f) => `product ${i + 1} has no ${f}`));
  if (gaps.length > 0) return fail(`HTTP 200, ${list.length} product(s), but ${gaps.join('; ')} (the service reads OrderedQuantity and SalePrice)`);
  return pass(`HTTP 200, ${list.length} product(s)`);
}

const accepted = (e: CheckExchange, what: string): CheckOutcome | undefined =>
  (isAccepted(e) ? undefined : fail(`${what}: expected 2xx with Success true; got ${describe(e)}`));

async function createOrder(ctx: CheckContext, label: string, extra: Json = {}, primary?: Json) {
  const order = await ctx.order(extra, primary);
  const e = await ctx.send({ kind: 'sendOrderToMerchant', label, body: order, orderId: order.OrderId as string });
  return { order, e };
}

/** Pass on a refusal of `kind` as the interface defines it; otherwise fail saying what came instead. */
const refused = (e: CheckExchange, kind: RefusalKind, what = 'not refused'): CheckOutcome =>
  (isRefusal(e, kind) ? pass(describe(e)) : fail(`${what}: ${describe(e)}; ${notRefusedBecause(e, kind)}`));

/** Exchanges a reply came back for (or whose reply did not come in time): no-leak and response-time judge only these. */
const arrived = (e: CheckExchange) => e.status !== undefined;

const ORDER_REPLY_KINDS = new Set(['sendOrderToMerchant', 'updateOrderStatus', 'performOrderPayment', 'getCheckoutCartInfo']);

/**
 * Every conformance check, in the order they run (docs/conformance.md describes each id: what it sends, what passes).
 */
export const CHECKS: readonly CheckDefinition[] = [
  {
    id: 'cart-info-get', title: 'GetCheckoutCartInfo by GET answers the cart',
    async run(ctx) {
      if (!ctx.options.cartToken) return skip(NO_TOKEN);
      return productsListed(await ctx.send({ kind: 'getCheckoutCartInfo', method: 'GET', label: 'GET with the cart token', query: { merchantCartToken: ctx.options.cartToken, countryCode: 'IL', currencyCode: 'ILS' } }));
    },
  },
  {
    id: 'cart-info-post', title: 'GetCheckoutCartInfo by POST (OrderID, MerchantGUID in the payload) answers the cart',
    async run(ctx) {
      if (!ctx.options.cartToken) return skip(NO_TOKEN);
      return productsListed(await ctx.send({
        kind: 'getCheckoutCartInfo', method: 'POST', label: 'POST with the cart token',
        query: { merchantCartToken: ctx.options.cartToken, countryCode: 'IL' }, body: { OrderID: 'GE000000001SB', MerchantGUID: ctx.options.merchantGuid },
      }));
    },
  },
  {
    id: 'cart-info-token-required', title: 'GetCheckoutCartInfo refuses a missing and an unknown cart token',
    async run(ctx) {
      const none = await ctx.send({ kind: 'getCheckoutCartInfo', method: 'GET', label: 'GET without a cart token', expect: 'refusal', query: { countryCode: 'IL' } });
      const random = `sbx-unknown-${Math.random().toString(36).slice(2, 12)}`;
      const unknown = await ctx.send({ kind: 'getCheckoutCartInfo', method: 'GET', label: 'GET with an unknown cart token', expect: 'refusal', query: { merchantCartToken: random, countryCode: 'IL' } });
      const bad = [['no token', none], ['an unknown token', unknown]].filter(([, e]) => !isRefusal(e as CheckExchange, 'cart')) as Array<[string, CheckExchange]>;
      if (bad.length) return fail(bad.map(([what, e]) => `${what} was not refused (${describe(e)}; ${notRefusedBecause(e, 'cart')})`).join('; '));
      return pass(`no token: ${describe(none)}; unknown token: ${describe(unknown)}`);
    },
  },
  {
    id: 'order-create', title: 'SendOrderToMerchant creates the order and answers its InternalOrderId',
    async run(ctx) {
      const { e } = await createOrder(ctx, 'a new order');
      const problem = accepted(e, 'the order');
      if (problem) return problem;
      const id = internalId(e);
      return typeof id === 'string' && id.length > 0 ? pass(`InternalOrderId ${id}`) : fail('the reply has no InternalOrderId');
    },
  },
  {
    id: 'order-replay-same-reply', title: 'The same order delivered twice gets the same InternalOrderId',
    async run(ctx) {
      const { order, e } = await createOrder(ctx, 'delivery 1');
      const first = accepted(e, 'delivery 1');
      if (first) return first;
      const again = await ctx.send({ kind: 'sendOrderToMerchant', label: 'delivery 2 (same body)', body: order, orderId: order.OrderId as string });
      const second = accepted(again, 'delivery 2');
      if (second) return second;
      return internalId(again) === internalId(e) ? pass(`both InternalOrderId ${String(internalId(e))}`)
        : fail(`delivery 1 got InternalOrderId ${String(internalId(e))}, delivery 2 ${String(internalId(again))}`);
    },
  },
  {
    id: 'order-concurrent-duplicates', title: '20 concurrent deliveries of one order give one InternalOrderId',
    async run(ctx) {
      const order = await ctx.order();
      const replies = await Promise.all(Array.from({ length: 20 }, (_, i) =>
        ctx.send({ kind: 'sendOrderToMerchant', label: `concurrent delivery ${i + 1}/20`, body: order, orderId: order.OrderId as string })));
      const ok = replies.filter(isAccepted);
      const ids = new Set(ok.map((e) => String(internalId(e))));
      if (ok.length === 0) return fail(`none of the 20 deliveries was accepted (first: ${describe(replies[0])})`);
      if (ids.size > 1) return fail(`${ids.size} different InternalOrderIds for one order: ${[...ids].join(', ')}`);
      const retryable = replies.length - ok.length;
      return pass(`${ok.length} accepted with InternalOrderId ${[...ids][0]}${retryable ? `, ${retryable} not accepted (${describe(replies.find((e) => !isAccepted(e))!)})` : ''}`);
    },
  },
  {
    id: 'payment-amount-reported', title: 'An order with PaymentDetails reports PaymentAmount (decimal string) and PaymentCurrencyCode',
    async run(ctx) {
      const { e } = await createOrder(ctx, 'an order with PaymentDetails (test card)', { PaymentDetails: paymentDetails() });
      const problem = accepted(e, 'the paying order');
      if (problem) return problem;
      const ri = e.responseInfo ?? {};
      if (typeof ri.PaymentAmount !== 'string' || !/^\d+(\.\d+)?$/.test(ri.PaymentAmount)) return fail(`PaymentAmount must be a decimal string; got ${JSON.stringify(ri.PaymentAmount)}`);
      if (typeof ri.PaymentCurrencyCode !== 'string' || !/^[A-Z]{3}$/.test(ri.PaymentCurrencyCode)) return fail(`PaymentCurrencyCode must be 3 capital letters; got ${JSON.stringify(ri.PaymentCurrencyCode)}`);
      return pass(`PaymentAmount ${ri.PaymentAmount} ${ri.PaymentCurrencyCode}`);
    },
  },
  {
    id: 'payment-replay', title: 'PerformOrderPayment delivered twice gets the same reply (no second charge visible)',
    async run(ctx) {
      const { order, e } = await createOrder(ctx, 'the order to pay');
      const created = accepted(e, 'the order');
      if (created) return created;
      const body = { order: { ...order, PaymentDetails: paymentDetails() } };
      const first = await ctx.send({ kind: 'performOrderPayment', label: 'payment 1', body, orderId: order.OrderId as string });
      const p1 = accepted(first, 'payment 1');
      if (p1) return p1;
      const second = await ctx.send({ kind: 'performOrderPayment', label: 'payment 2 (same body)', body, orderId: order.OrderId as string });
      const p2 = accepted(second, 'payment 2');
      if (p2) return p2;
      const keys = ['Success', 'InternalOrderId', 'OrderId', 'PaymentAmount', 'PaymentCurrencyCode'];
      const differs = keys.filter((k) => JSON.stringify(first.responseInfo?.[k]) !== JSON.stringify(second.responseInfo?.[k]));
      return differs.length ? fail(`the replay's reply differs in ${differs.join(', ')}`) : pass(`same reply: ${String(first.responseInfo?.PaymentAmount)} ${String(first.responseInfo?.PaymentCurrencyCode)}`);
    },
  },
  {
    id: 'status-cancel', title: 'UpdateOrderStatus with StatusCode canceled is accepted',
    async run(ctx) {
      const { order, e } = await createOrder(ctx, 'the order to cancel');
      const created = accepted(e, 'the order');
      if (created) return created;
      const c = await ctx.send({ kind: 'updateOrderStatus', label: 'canceled', orderId: order.OrderId as string, body: { OrderId: order.OrderId, StatusCode: 'canceled', MerchantGUID: ctx.options.merchantGuid } });
      return accepted(c, 'the cancellation') ?? pass(describe(c));
    },
  },
  {
    id: 'guid-wrong-refused', title: 'An order with a wrong MerchantGUID is refused',
    async run(ctx) {
      const order = await ctx.order({ MerchantGUID: '00000000-0000-4000-8000-000000000000' });
      const e = await ctx.send({ kind: 'sendOrderToMerchant', label: 'wrong MerchantGUID', expect: 'refusal', body: order, orderId: order.OrderId as string });
      return refused(e, 'auth');
    },
  },
  {
    id: 'guid-missing-refused', title: 'An order without MerchantGUID is refused',
    async run(ctx) {
      const { MerchantGUID: _omitted, ...order } = await ctx.order();
      const e = await ctx.send({ kind: 'sendOrderToMerchant', label: 'no MerchantGUID', expect: 'refusal', body: order, orderId: order.OrderId as string });
      return refused(e, 'auth');
    },
  },
  {
    id: 'malformed-json-refused', title: 'A body that is not JSON is refused with a 4xx, not a 5xx',
    async run(ctx) {
      const e = await ctx.send({ kind: 'sendOrderToMerchant', label: 'truncated JSON', expect: 'refusal', body: `{"MerchantGUID":"${ctx.options.merchantGuid}","OrderId":"GE0` });
      return refused(e, 'input', 'not refused as malformed');
    },
  },
  {
    id: 'encoded-fields-accepted', title: "Personal fields with '+', percent-escapes and malformed escapes are accepted",
    async run(ctx) {
      const { e } = await createOrder(ctx, "an order with '+', %40, %zz and a cut %E2%82", {}, malformedEncodedCustomer());
      return accepted(e, 'the order') ?? pass(describe(e));
    },
  },
  {
    id: 'documents-webhook', title: 'An order announcing AdditionalRequiredDocuments, then the documents webhook, are accepted',
    async run(ctx) {
      const draft = await ctx.order();
      const orderId = draft.OrderId as string;
      const tn = trackingNumberFor(orderId);
      const e = await ctx.send({ kind: 'sendOrderToMerchant', label: 'order with AdditionalRequiredDocuments', orderId, body: { ...draft, AdditionalRequiredDocuments: [eadDocument(orderId, tn)] } });
      const created = accepted(e, 'the order');
      if (created) return created;
      const d = await ctx.send({ kind: 'receiveAdditionalRequiredDocuments', label: 'documents webhook (EAD)', orderId, body: documentsDelivery(ctx.options.merchantGuid, orderId, [eadDocument(orderId, tn, { withData: true })]) });
      return accepted(d, 'the documents webhook') ?? pass(describe(d));
    },
  },
  {
    id: 'return-exactly-once', title: 'SendRMAInfoToMerchant (a return) is accepted, its redelivery too, and a second return of the order (skipped when not mounted)',
    async run(ctx) {
      const { order, e } = await createOrder(ctx, 'the order to return');
      const created = accepted(e, 'the order');
      if (created) return created;
      const orderId = order.OrderId as string;
      const line = (order.Products as Json[])[0] ?? {};
      const rma = (n: number): Json => ({
        MerchantGUID: ctx.options.merchantGuid, OrderId: orderId, RMANumber: `RMA-${orderId}-${n}`, ShipperName: 'DHL', ReturnTrackingNumber: `RT-${n}`,
        TrackingURL: 'www.dhl.com%2fTracking%3fTrackingNumber%3dRT', CreatedBy: 'Customer', CurrencyCode: 'EUR', ReturnShippingCost: 10,
        ReturnedProducts: [{ SKU: line.SKU ?? line.ProductCode, Name: 'Product', CartItemId: line.CartItemId, ReturnQuantity: 1, ReturnReasonName: 'Arrived too late', MerchantReturnReasonCode: null }],
      });
      const first = await ctx.send({ kind: 'receiveRmaInfo', label: 'return 1', orderId, body: rma(1) });
      if (first.status === 404) return skip('SendRMAInfoToMerchant is not mounted (optional: receiveRmaInfo)');
      const again = await ctx.send({ kind: 'receiveRmaInfo', label: 'return 1 again (redelivery)', orderId, body: rma(1) });
      const second = await ctx.send({ kind: 'receiveRmaInfo', label: 'return 2 of the same order', orderId, body: rma(2) });
      return accepted(first, 'the return') ?? accepted(again, 'the redelivered return') ?? accepted(second, 'a second return') ?? pass(describe(first));
    },
  },
  {
    id: 'parcel-dispatch-exactly-once',
    title: 'UpdateParcelDispatch (a parcel dispatched) is accepted, its redelivery too, and a second parcel of the order (skipped when not mounted)',
    async run(ctx) {
      const { order, e } = await createOrder(ctx, 'the order to dispatch');
      const created = accepted(e, 'the order');
      if (created) return created;
      const orderId = order.OrderId as string;
      const line = (order.Products as Json[])[0] ?? {};
      // The page's request table (docs.global-e.com "Dispatch Notifications (from Global-e)"); the URL encoded as the service encodes its URLs.
      const dispatch = (n: number): Json => ({
        MerchantGUID: ctx.options.merchantGuid, OrderId: orderId, StatusCode: 'Dispatched',
        DispatchedParcel: {
          ParcelCode: `${orderId}-${n}`, Code: 'DispatchedToCustomer', StatusName: 'Dispatched to Customer',
          ParcelTracking: { ParcelTrackingNumber: `TN${n}${orderId.replace(/\W/g, '')}`, ParcelTrackingUrl: `https%3a%2f%2ftracking.example%2f%3fn%3dTN${n}` },
          Products: [{ SKU: line.Sku ?? line.SKU ?? line.ProductCode, CartItemId: line.CartItemId, Quantity: 1 }],
        },
      });
      const first = await ctx.send({ kind: 'receiveParcelDispatch', label: 'parcel 1 dispatched', orderId, body: dispatch(1) });
      if (first.status === 404) return skip('UpdateParcelDispatch is not mounted (optional: receiveParcelDispatch)');
      const again = await ctx.send({ kind: 'receiveParcelDispatch', label: 'parcel 1 dispatched again (redelivery)', orderId, body: dispatch(1) });
      const second = await ctx.send({ kind: 'receiveParcelDispatch', label: 'parcel 2 of the same order dispatched', orderId, body: dispatch(2) });
      return accepted(first, 'the parcel dispatch') ?? accepted(again, 'the redelivered parcel dispatch') ?? accepted(second, 'a second parcel dispatch') ?? pass(describe(first));
    },
  },
  {
    id: 'no-store', title: 'Replies carrying order data have Cache-Control: no-store',
    async run(ctx) {
      const carrying = ctx.exchanges.filter((e) => ORDER_REPLY_KINDS.has(e.kind) && isAccepted(e) && e.bodyText.length > 0);
      if (carrying.length === 0) return skip('no reply carrying order data was received');
      const missing = carrying.filter((e) => !/(^|,)\s*no-store\s*(,|$)/i.test(e.headers['cache-control'] ?? ''));
      if (missing.length) return fail(`${missing.length} of ${carrying.length} replies lack no-store, e.g. ${missing[0].check}: ${missing[0].label} (Cache-Control: ${missing[0].headers['cache-control'] ?? 'absent'})`);
      return pass(`${carrying.length} replies checked`);
    },
  },
  {
    id: 'no-leak', title: 'No reply shows a stack trace, a file path, the card number or the CVV',
    async run(ctx) {
      // Error replies too: a payment for an order the merchant never saw, with the test card.
      if (ctx.isMounted('performOrderPayment')) {
        const unknown = await ctx.order({ PaymentDetails: paymentDetails() });
        await ctx.send({ kind: 'performOrderPayment', label: 'payment for an unknown order', body: unknown, orderId: unknown.OrderId as string });
      }
      await ctx.send({ kind: 'sendOrderToMerchant', label: 'a body of the wrong type', expect: 'refusal', body: '[1,2,3' });
      const replies = ctx.exchanges.filter(arrived);
      if (replies.length === 0) return skip(`no reply arrived (of ${ctx.exchanges.length} requests): nothing to judge`);
      for (const e of replies) {
        const leaks = findLeaks(`${e.bodyText}\n${Object.entries(e.headers).map(([k, v]) => `${k}: ${v}`).join('\n')}`);
        if (leaks.length) return fail(`${leaks.join(' and ')} in the reply to ${e.check}: ${e.label} (${describe(e)})`);
      }
      return pass(`${replies.length} replies checked${replies.length < ctx.exchanges.length ? ` (${ctx.exchanges.length - replies.length} requests got no reply)` : ''}`);
    },
  },
  {
    id: 'response-time', title: 'Every reply arrives within the budget (--timeout-ms)',
    async run(ctx) {
      const budget = ctx.options.timeoutMs;
      // A refused connection is no reply, not a slow one; a time-out is the budget missed.
      const judged = ctx.exchanges.filter((e) => arrived(e) || e.timedOut);
      if (judged.length === 0) return skip(`no reply arrived (of ${ctx.exchanges.length} requests): nothing to time`);
      const slow = judged.filter((e) => e.timedOut || e.durationMs > budget);
      if (slow.length) return fail(`${slow.length} of ${judged.length} replies missed ${budget} ms, e.g. ${slow[0].check}: ${slow[0].label} (${slow[0].timedOut ? (slow[0].error ?? 'time-out') : `${slow[0].durationMs} ms`})`);
      const max = Math.max(0, ...judged.map((e) => e.durationMs));
      return pass(`${judged.length} replies, slowest ${Math.round(max)} ms (budget ${budget} ms)`);
    },
  },
];

/** The ids of {@link CHECKS}, in order (what `only` and `check --only` accept). */
export const CHECK_IDS: readonly string[] = CHECKS.map((c) => c.id);
