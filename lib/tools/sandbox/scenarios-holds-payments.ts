/**
 * The scenarios of issue 51 item 3: the fulfilment hold seen in the merchant's own store (`hold`),
 * a card the merchant declines and what follows (`payment-declined`), and a refund the service makes
 * on its own (`service-refund`: its customer service refunded; no call of the merchant's).
 */
import { documentsDelivery, eadDocument, paymentDetails, trackingNumberFor, type Json } from '../conformance/payloads.js';
import { accepted } from './callbacks.js';
import type { Exchange } from './exchange-log.js';
import { sendFollowUp } from './follow-ups.js';
import type { MerchantHoldReader } from './options.js';
import type { LifeRun } from './scenarios-order-life.js';

/** The names of these scenarios, in the order `full` runs them (each placed in SCENARIO_NAMES). */
export const HOLD_PAYMENT_SCENARIO_NAMES = ['payment-declined', 'hold', 'service-refund'] as const;
/** One of HOLD_PAYMENT_SCENARIO_NAMES. */
export type HoldPaymentScenario = (typeof HOLD_PAYMENT_SCENARIO_NAMES)[number];

/** A card number that fails the Luhn check: a payment gateway declines it before asking the bank. */
export const DECLINED_CARD_NUMBER = '4111111111111112';

/** What each scenario sends and expects, one line (trigger --help, the console's buttons). */
export const HOLD_PAYMENT_DESCRIPTIONS: Readonly<Record<HoldPaymentScenario, string>> = {
  'payment-declined': 'SendOrderToMerchant paying with a card that fails the Luhn check: declined; the same delivery again (a retry): declined again; then with another card: paid',
  hold: 'SendOrderToMerchant announcing an EAD: the hold in the merchant\'s store; the documents webhook: the hold released (needs the merchant\'s store: merchantStore)',
  'service-refund': 'SendOrderToMerchant with payment, then NotifyOrderRefunded for a refund the service made (no call of yours), delivered twice: one refund (skipped when not mounted)',
};

/** What these scenarios need of the run besides LifeRun's: the merchant's store, when the sandbox has it. */
export interface HoldPaymentRun extends LifeRun {
  readonly env: LifeRun['env'] & { merchantStore?: MerchantHoldReader };
}

const problemOf = (e: Exchange): string | undefined => (accepted(e) ? undefined
  : `expected HTTP 2xx with Success true; got ${e.error ? `no reply: ${e.error}` : `HTTP ${e.response?.status}${e.responseInfo ? `, Success ${String(e.responseInfo.Success)}` : ''}`}`);

/** A refusal: a 4xx, or a 2xx with Success false (a 5xx is a failure of the merchant, not a decline). */
function declineProblem(e: Exchange): string | undefined {
  if (e.error) return `expected a decline (4xx, or Success false); got no reply: ${e.error}`;
  const status = e.response?.status ?? 0;
  if (status >= 400 && status <= 499) return undefined;
  if (status >= 200 && status <= 299 && e.responseInfo?.Success === false) return undefined;
  if (status >= 200 && status <= 299) return 'the card was accepted: a card that fails the Luhn check must be declined (CallbackError, e.g. status 402, errorCode CARD_DECLINED)';
  return `expected a decline (4xx, or Success false); got HTTP ${status} (a 5xx tells the service your side failed, not that the card was declined)`;
}

const declineText = (e: Exchange): string => {
  const ri = e.responseInfo ?? {};
  return [`HTTP ${e.response?.status}`, ...['ErrorCode', 'Message'].filter((k) => typeof ri[k] === 'string').map((k) => `${k} ${String(ri[k])}`)].join(', ');
};

function holdText(hold: { awaiting: Array<{ DocumentTypeCode: string; TrackingNumber?: string }> }): string {
  return hold.awaiting.map((d) => `document type ${d.DocumentTypeCode}${d.TrackingNumber ? ` (${d.TrackingNumber})` : ''}`).join(', ') || 'nothing listed';
}

/** The scenarios themselves, run by scenarios.ts's runScenario. */
export const HOLD_PAYMENT_SCENARIOS: Record<HoldPaymentScenario, (run: HoldPaymentRun) => Promise<void>> = {
  async 'payment-declined'(run) {
    const name = 'payment-declined';
    const declined = { ...paymentDetails(), CardNumber: DECLINED_CARD_NUMBER };
    const order = await run.newOrder(name, { PaymentDetails: declined });
    const orderId = order.OrderId as string;
    const send = (label: string, body: Json) => run.send(name, { kind: 'sendOrderToMerchant', label, orderId, body: { order: body }, expected: 'refusal' });
    const first = await send('SendOrderToMerchant, the card fails the Luhn check (to be declined)', order);
    if (accepted(first)) {
      // A merchant whose test payment gateway charges any card has no decline to show: not a failure of the integration.
      run.skip(name, 'the merchant declines the card', 'the merchant accepted a card that fails the Luhn check (a test gateway that charges any card?): there is no decline to show; an adapter declines by throwing CallbackError, e.g. status 402, errorCode CARD_DECLINED');
      return;
    }
    if (!declineProblem(first)) run.env.orders.update(orderId, 'payment-declined', () => undefined, { exchangeId: first.id, detail: declineText(first) });
    if (!run.step(name, 'the merchant declines the card', [first], declineProblem(first), declineText(first))) return;
    // A decline is not stored (docs/idempotency.md): the same delivery again runs the adapter again.
    const again = await send('SendOrderToMerchant, the same delivery again (a retry, same card)', order);
    if (!declineProblem(again)) run.env.orders.update(orderId, 'payment-declined', () => undefined, { exchangeId: again.id, detail: `${declineText(again)} (the retry)` });
    run.step(name, 'the retry with the same card: declined again (a decline is never replayed as a success)', [again], declineProblem(again), declineText(again));
    // The customer pays with another card: another idempotencyKey, the adapter runs and charges.
    const paid = await run.sendOrder(name, { ...order, PaymentDetails: paymentDetails() }, 'SendOrderToMerchant, paid with another card', true);
    const ri = paid.responseInfo ?? {};
    const problem = problemOf(paid) ?? (typeof ri.PaymentAmount === 'string' ? undefined : 'the payment with a valid card reported no PaymentAmount string');
    run.step(name, 'another card: accepted, the amount reported', [paid], problem);
  },

  async hold(run) {
    const name = 'hold';
    const store = run.env.merchantStore;
    if (!store) {
      run.skip(name, 'the fulfilment hold', 'the sandbox was not given the merchant\'s store (createSandbox({ merchantStore }); npm start passes the example\'s): the hold lives there, so there is nothing to show; the documents scenario sends the same callbacks');
      return;
    }
    const draft = await run.newOrder(name);
    const orderId = draft.OrderId as string;
    const trackingNumber = trackingNumberFor(orderId);
    const order = { ...draft, AdditionalRequiredDocuments: [eadDocument(orderId, trackingNumber)] };
    const created = await run.sendOrder(name, order, 'SendOrderToMerchant announcing an EAD (AdditionalRequiredDocuments)');
    if (!run.step(name, 'SendOrderToMerchant announcing an EAD', [created], problemOf(created))) return;
    const held = await store.getFulfilmentHold(orderId);
    if (!run.step(name, 'the merchant\'s store holds the order (do not ship yet)', [], held ? undefined
      : 'the merchant accepted an order announcing documents but its store has no fulfilment hold for it (is merchantStore the store its router uses?)',
    held ? `on hold since ${held.since.toISOString()}, awaiting ${holdText(held)}` : undefined)) return;
    const delivery = documentsDelivery(run.env.target.merchantGuid, orderId, [eadDocument(orderId, trackingNumber, { withData: true })]);
    const e = await run.send(name, { kind: 'receiveAdditionalRequiredDocuments', label: 'SendAdditionalRequiredDocumentsToMerchant (the EAD)', orderId, body: delivery });
    if (accepted(e)) run.env.orders.update(orderId, 'documents-delivered', (o) => { o.documentsDelivered = true; }, { exchangeId: e.id, detail: 'EAD' });
    if (!run.step(name, 'the documents webhook (the EAD)', [e], problemOf(e))) return;
    const after = await store.getFulfilmentHold(orderId);
    run.step(name, 'the hold is released (the order may ship)', [], after ? `the documents were accepted but the order is still held, awaiting ${holdText(after)}` : undefined, 'no hold in the merchant\'s store');
  },

  async 'service-refund'(run) {
    const name = 'service-refund';
    const order = await run.newOrder(name, { PaymentDetails: paymentDetails() });
    const orderId = order.OrderId as string;
    const created = await run.sendOrder(name, order, 'SendOrderToMerchant with PaymentDetails', true);
    if (!run.step(name, 'SendOrderToMerchant with payment', [created], problemOf(created))) return;
    const line = (order.Products as Json[])[0] ?? {};
    const state = run.env.orders.get(orderId);
    const currency = state?.paid?.currency || String(order.CurrencyCode ?? 'EUR');
    const reason = { OrderRefundReasonCode: 'DAMAGED-ITEM-CODE', Name: 'Damaged Item' };
    const refundId = `SVC-${orderId}`;
    run.env.orders.update(orderId, 'refunded', (o) => {
      o.refunds.push({
        RefundID: refundId, at: new Date().toISOString(), FullRefund: false, TotalRefundAmount: '1.00', ExternalReference: null, InitiatedBy: 'Service',
        RefundReason: reason, RefundComments: 'Refunded by customer service', RefundProducts: [{ CartItemId: line.CartItemId ?? null, RefundQuantity: '1', RefundAmount: '1.00' }],
      });
    }, { detail: `1.00 ${currency} (refund ${refundId}, by the service's customer service)` });
    // The shape of a real notification (test/fixtures/real-world/workarea-notifyorderrefunded.json): amounts as text, no RefundId of the merchant's.
    const body = {
      MerchantGUID: run.env.target.merchantGuid, OrderId: orderId, ...(state?.merchantOrderId ? { MerchantOrderId: state.merchantOrderId } : {}),
      Products: [{ CartItemId: line.CartItemId, RefundQuantity: 1, OriginalRefundAmount: '1.0000', RefundAmount: '1.0000', RefundReason: reason, RefundComments: 'Refunded by customer service' }],
      TotalRefundAmount: '1.00', OriginalTotalRefundAmount: '1.00', ServiceGestureAmount: '0.00', RefundReason: reason, RefundComments: 'Refunded by customer service', WebStoreCode: null,
    };
    const followUp = { kind: 'notifyOrderRefunded' as const, orderId, label: `NotifyOrderRefunded (refund ${refundId}, made by the service)`, event: 'refund-notified', body };
    const first = await sendFollowUp(run.env, run.env.target, followUp, name);
    if (first.response?.status === 404) { run.skip(name, 'NotifyOrderRefunded', 'the merchant does not mount NotifyOrderRefunded (optional: notifyOrderRefunded)'); return; }
    if (!run.step(name, 'NotifyOrderRefunded (a refund you did not ask for: refund the customer in your shop)', [first], problemOf(first))) return;
    const again = await sendFollowUp(run.env, run.env.target, { ...followUp, label: `${followUp.label}, delivered again` }, name);
    run.step(name, 'the same notification again (exactly once: answered, not a second refund)', [again], problemOf(again));
  },
};
