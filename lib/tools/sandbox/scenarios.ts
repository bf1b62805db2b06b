/**
 * Scenarios: sequences of callbacks the sandbox sends to the merchant as the service would, each
 * step checked against what the service expects back. Callable as functions (the CLI's `trigger`
 * and the sandbox's `runScenario` are thin shells over `runScenario`).
 */
import { cartLines } from '../conformance/cart-lines.js';
import {
  DEFAULT_LINES, documentsDelivery, eadDocument, malformedEncodedCustomer, newServiceOrderId,
  paymentDetails, serviceOrder, trackingNumberFor, type Json, type OrderLineInput,
} from '../conformance/payloads.js';
import { accepted, sendCallback, type CallbackCall, type MerchantTarget } from './callbacks.js';
import type { Exchange, ExchangeLog } from './exchange-log.js';
import type { OrderBook } from './orders.js';
import { ORDER_LIFE_DESCRIPTIONS, ORDER_LIFE_SCENARIOS } from './scenarios-order-life.js';
import { HOLD_PAYMENT_DESCRIPTIONS, HOLD_PAYMENT_SCENARIOS } from './scenarios-holds-payments.js';
import type { MerchantHoldReader } from './options.js';

/**
 * The scenarios `trigger <name>` and {@link runScenario} run (docs/sandbox.md describes each). The scenario
 * registry: every list of scenarios (trigger --help, the banners, the console, the docs' tests) is read from here.
 */
export const SCENARIO_NAMES = [
  'cart-info', 'order', 'order-with-payment', 'order-update', 'cancel', 'payment', 'payment-declined', 'documents', 'hold',
  'redelivery', 'return', 'merchant-cancel', 'refund', 'service-refund', 'address-change', 'full',
] as const;
/** The name of a scenario: one of {@link SCENARIO_NAMES}. */
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

/** The scenarios as the banners list them (npm start's, the sandbox command's): generated, never written by hand. */
export const SCENARIO_LIST_LINE = `(scenarios: ${SCENARIO_NAMES.join(', ')}; docs/sandbox.md)`;

/** A one-line description of each scenario, as `trigger --help` and the console list them. */
export const SCENARIO_DESCRIPTIONS: Readonly<Record<ScenarioName, string>> = {
  'cart-info': 'GetCheckoutCartInfo by GET, then by POST (needs a cart token)',
  order: 'SendOrderToMerchant, top-level body, URL-encoded personal fields',
  'order-with-payment': 'SendOrderToMerchant in the { order } envelope with PaymentDetails (test card): pays and reports the amount',
  'order-update': 'SendOrderToMerchant, then the same OrderId again with another quantity and malformed escapes (%zz, a cut %E2%82)',
  cancel: 'SendOrderToMerchant, then UpdateOrderStatus with StatusCode canceled',
  payment: 'a mixed order (Subs) by SendOrderToMerchant, then PerformOrderPayment with PaymentDetails and Subs',
  documents: 'SendOrderToMerchant with AdditionalRequiredDocuments (EAD), then the documents webhook',
  redelivery: 'the same SendOrderToMerchant delivered twice, then 20 times concurrently: one InternalOrderId',
  ...ORDER_LIFE_DESCRIPTIONS,
  ...HOLD_PAYMENT_DESCRIPTIONS,
  full: 'every scenario above, in order',
};

/**
 * What a scenario runs with: the log, the orders, the merchant to call back, a cart token, and where documents are served.
 */
export interface ScenarioEnv {
  log: ExchangeLog;
  orders: OrderBook;
  target: MerchantTarget;
  /** The merchant's cart token: cart-info needs one; orders then carry the cart's products. */
  cartToken?: string;
  /** Where delivered documents can be downloaded (the sandbox's URL); default an .invalid host. */
  documentsBaseUrl?: string;
  /** Hears each order a scenario creates (the sandbox adds its shipment to the service API). */
  onNewOrder?: (order: { orderId: string; trackingNumber: string; lines: OrderLineInput[] }) => void;
  /** The merchant's store: the `hold` scenario reads the order's fulfilment hold there (skipped without it). */
  merchantStore?: MerchantHoldReader;
}

/** One step of a scenario run: what it checked, its status and detail, and the exchanges it made. */
export interface ScenarioStep {
  scenario: ScenarioName;
  label: string;
  status: 'pass' | 'fail' | 'skip';
  detail: string;
  /** Exchange ids in the log (one step can be several deliveries). */
  exchangeIds: number[];
}

/**
 * What {@link runScenario} answers: the run's number, whether every step passed, the steps and the orders it created.
 */
export interface ScenarioResult {
  name: ScenarioName;
  runId: number;
  ok: boolean;
  steps: ScenarioStep[];
  orderIds: string[];
}

/**
 * Thrown by {@link runScenario} for a name that is no scenario (`code` `UNKNOWN_SCENARIO`; the message lists the known ones).
 */
export class ScenarioError extends Error {
  readonly code = 'UNKNOWN_SCENARIO';
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioError';
  }
}

const infoText = (e: Exchange): string => {
  if (e.error) return `no reply: ${e.error}`;
  const ri = e.responseInfo;
  const parts = [`HTTP ${e.response?.status}`];
  if (ri) {
    parts.push(`Success ${String(ri.Success)}`);
    for (const k of ['InternalOrderId', 'OrderId', 'StatusCode', 'PaymentAmount', 'PaymentCurrencyCode', 'ErrorCode', 'Message']) {
      if (ri[k] !== undefined && ri[k] !== null) parts.push(`${k} ${String(ri[k])}`);
    }
  }
  return parts.join(', ');
};

class Run {
  readonly steps: ScenarioStep[] = [];
  readonly orderIds: string[] = [];
  private cartLines: OrderLineInput[] | undefined;
  constructor(readonly env: ScenarioEnv, readonly runName: ScenarioName) {}

  async send(scenario: ScenarioName, call: Omit<CallbackCall, 'scenario'>): Promise<Exchange> {
    return sendCallback(this.env.target, this.env.log, { ...call, scenario });
  }

  step(scenario: ScenarioName, label: string, exchanges: Exchange[], problem: string | undefined, detail?: string): boolean {
    this.steps.push({
      scenario, label, status: problem ? 'fail' : 'pass', detail: problem ?? detail ?? (exchanges[0] ? infoText(exchanges[0]) : ''),
      exchangeIds: exchanges.map((e) => e.id),
    });
    return !problem;
  }

  skip(scenario: ScenarioName, label: string, reason: string): void {
    this.steps.push({ scenario, label, status: 'skip', detail: reason, exchangeIds: [] });
  }

  /** The products to order: the merchant's cart (via cart info) when there is a token, else the default lines. */
  async lines(scenario: ScenarioName): Promise<OrderLineInput[]> {
    if (this.cartLines) return this.cartLines;
    this.cartLines = [...DEFAULT_LINES];
    if (!this.env.cartToken) return this.cartLines;
    const e = await this.send(scenario, {
      kind: 'getCheckoutCartInfo', method: 'GET', label: 'GetCheckoutCartInfo (the products to order)',
      query: { merchantCartToken: this.env.cartToken, countryCode: 'IL', currencyCode: 'ILS' },
    });
    const list = (e.response?.body as { productsList?: unknown } | undefined)?.productsList;
    if (e.response?.status === 200 && Array.isArray(list) && list.length > 0) {
      const { lines, notes } = cartLines(list as Json[]);
      if (lines.length > 0) this.cartLines = lines;
      // Which fields of the cart were read, and where a default stood in (cart-lines.ts).
      this.step(scenario, 'cart products read', [e], undefined, notes.join(' | ') || 'no product with a ProductCode: the default products are ordered');
    }
    return this.cartLines;
  }

  /** A new order, registered in the order book. */
  async newOrder(scenario: ScenarioName, extra: Json = {}, primary?: Json): Promise<Json> {
    const lines = await this.lines(scenario);
    const orderId = newServiceOrderId();
    const trackingNumber = trackingNumberFor(orderId);
    this.orderIds.push(orderId);
    this.env.orders.add({ orderId, lines, trackingNumbers: [trackingNumber], source: 'scenario' });
    this.env.onNewOrder?.({ orderId, trackingNumber, lines });
    return serviceOrder({
      merchantGuid: this.env.target.merchantGuid, orderId, lines, trackingNumber,
      ...(this.env.cartToken ? { cartId: this.env.cartToken } : {}), ...(primary ? { primary } : {}), extra,
    });
  }

  /** Sends SendOrderToMerchant and records what the merchant's reply means for the order. */
  async sendOrder(scenario: ScenarioName, order: Json, label: string, envelope = false): Promise<Exchange> {
    const orderId = order.OrderId as string;
    const e = await this.send(scenario, { kind: 'sendOrderToMerchant', label, orderId, body: envelope ? { order } : order });
    if (accepted(e)) {
      const ri = e.responseInfo ?? {};
      const event = this.env.orders.get(orderId)?.created ? 'delivered-again' : 'created';
      this.env.orders.update(orderId, event, (o) => {
        o.created = true;
        if (typeof ri.InternalOrderId === 'string') o.internalOrderId = ri.InternalOrderId;
        if (typeof ri.OrderId === 'string') o.merchantOrderId = ri.OrderId;
        if (Array.isArray(order.AdditionalRequiredDocuments) && order.AdditionalRequiredDocuments.length > 0) o.holdAnnounced = true;
        if (typeof ri.PaymentAmount === 'string') o.paid = { amount: ri.PaymentAmount, currency: String(ri.PaymentCurrencyCode ?? '') };
      }, { detail: label, exchangeId: e.id });
      // The timeline says it in its own entries: paid (amount currency) and the fulfilment hold the documents put on.
      if (typeof ri.PaymentAmount === 'string') {
        this.env.orders.update(orderId, 'paid', () => undefined, { detail: `${ri.PaymentAmount} ${String(ri.PaymentCurrencyCode ?? '')}`.trim(), exchangeId: e.id });
      }
      const documents = Array.isArray(order.AdditionalRequiredDocuments) ? (order.AdditionalRequiredDocuments as Json[]) : [];
      if (event === 'created' && documents.length > 0) {
        const types = documents.map((d) => String(d.DocumentTypeName ?? d.DocumentTypeCode ?? 'document')).join(', ');
        this.env.orders.update(orderId, 'hold-announced', () => undefined, { detail: `documents announced: ${types}`, exchangeId: e.id });
      }
    }
    return e;
  }
}

const expectAccepted = (e: Exchange): string | undefined =>
  (accepted(e) ? undefined : `expected HTTP 2xx with Success true; got ${infoText(e)}`);

function expectPayment(e: Exchange): string | undefined {
  const problem = expectAccepted(e);
  if (problem) return problem;
  const ri = e.responseInfo ?? {};
  if (typeof ri.PaymentAmount !== 'string' || !/^\d+(\.\d+)?$/.test(ri.PaymentAmount)) return `PaymentAmount must be a decimal string; got ${JSON.stringify(ri.PaymentAmount)}`;
  if (typeof ri.PaymentCurrencyCode !== 'string' || !/^[A-Z]{3}$/.test(ri.PaymentCurrencyCode)) return `PaymentCurrencyCode must be 3 capital letters; got ${JSON.stringify(ri.PaymentCurrencyCode)}`;
  return undefined;
}

type ScenarioFn = (run: Run) => Promise<void>;

const SCENARIOS: Record<Exclude<ScenarioName, 'full'>, ScenarioFn> = {
  async 'cart-info'(run) {
    const name = 'cart-info';
    const token = run.env.cartToken;
    if (!token) { run.skip(name, 'GetCheckoutCartInfo', 'no cart token given (--cart-token): the merchant must validate it, so there is nothing to ask for'); return; }
    const hasProducts = (e: Exchange) => {
      const list = (e.response?.body as { productsList?: unknown } | undefined)?.productsList;
      return e.response?.status === 200 && Array.isArray(list) ? undefined : `expected HTTP 200 with a productsList; got ${infoText(e)}`;
    };
    const get = await run.send(name, { kind: 'getCheckoutCartInfo', method: 'GET', label: 'GetCheckoutCartInfo (GET)', query: { merchantCartToken: token, countryCode: 'IL', currencyCode: 'ILS' } });
    run.step(name, 'GetCheckoutCartInfo (GET)', [get], hasProducts(get), `HTTP ${get.response?.status}, ${((get.response?.body as Json)?.productsList as unknown[] | undefined)?.length ?? 0} product(s)`);
    const post = await run.send(name, {
      kind: 'getCheckoutCartInfo', method: 'POST', label: 'GetCheckoutCartInfo (POST)', query: { merchantCartToken: token, countryCode: 'IL', currencyCode: 'ILS' },
      body: { OrderID: newServiceOrderId(), MerchantGUID: run.env.target.merchantGuid },
    });
    run.step(name, 'GetCheckoutCartInfo (POST)', [post], hasProducts(post), `HTTP ${post.response?.status}, ${((post.response?.body as Json)?.productsList as unknown[] | undefined)?.length ?? 0} product(s)`);
  },

  async order(run) {
    const order = await run.newOrder('order');
    const e = await run.sendOrder('order', order, 'SendOrderToMerchant (top-level body)');
    run.step('order', 'SendOrderToMerchant', [e], expectAccepted(e) ?? (typeof e.responseInfo?.InternalOrderId === 'string' ? undefined : 'the reply has no InternalOrderId'));
  },

  async 'order-with-payment'(run) {
    const order = await run.newOrder('order-with-payment', { PaymentDetails: paymentDetails() });
    const e = await run.sendOrder('order-with-payment', order, 'SendOrderToMerchant with PaymentDetails ({ order } envelope)', true);
    run.step('order-with-payment', 'SendOrderToMerchant with PaymentDetails', [e], expectPayment(e));
  },

  async 'order-update'(run) {
    const order = await run.newOrder('order-update');
    const first = await run.sendOrder('order-update', order, 'SendOrderToMerchant (create)');
    if (!run.step('order-update', 'SendOrderToMerchant (create)', [first], expectAccepted(first))) return;
    const products = (order.Products as Json[]).map((p, i) => (i === 0 ? { ...p, Quantity: Number(p.Quantity) + 1 } : p));
    const customer = malformedEncodedCustomer();
    const updated = { ...order, Products: products, PrimaryBilling: customer, PrimaryShipping: customer, MerchantOrderId: first.responseInfo?.OrderId ?? null };
    const second = await run.sendOrder('order-update', updated, 'SendOrderToMerchant (update: quantity, malformed escapes)', true);
    const sameId = second.responseInfo?.InternalOrderId === first.responseInfo?.InternalOrderId;
    run.step('order-update', 'SendOrderToMerchant (update)', [second], expectAccepted(second)
      ?? (sameId ? undefined : `the update got InternalOrderId ${String(second.responseInfo?.InternalOrderId)}, the create ${String(first.responseInfo?.InternalOrderId)}`));
  },

  async cancel(run) {
    const order = await run.newOrder('cancel');
    const created = await run.sendOrder('cancel', order, 'SendOrderToMerchant');
    if (!run.step('cancel', 'SendOrderToMerchant', [created], expectAccepted(created))) return;
    const orderId = order.OrderId as string;
    const e = await run.send('cancel', { kind: 'updateOrderStatus', label: 'UpdateOrderStatus (canceled)', orderId, body: { OrderId: orderId, StatusCode: 'canceled', MerchantGUID: run.env.target.merchantGuid } });
    if (accepted(e)) run.env.orders.update(orderId, 'cancelled', (o) => { o.cancelled = true; }, { exchangeId: e.id });
    run.step('cancel', 'UpdateOrderStatus (canceled)', [e], expectAccepted(e));
  },

  async payment(run) {
    const lines = await run.lines('payment');
    const order = await run.newOrder('payment');
    const orderId = order.OrderId as string;
    const subs = lines.map((l, i) => ({
      OrderId: `${orderId}-${i + 1}`, MerchantGUID: run.env.target.merchantGuid, CurrencyCode: order.CurrencyCode,
      Products: [(order.Products as Json[])[i]],
    }));
    const mixed = { ...order, Subs: subs };
    const created = await run.sendOrder('payment', mixed, 'SendOrderToMerchant (mixed order with Subs)');
    if (!run.step('payment', 'SendOrderToMerchant (mixed order)', [created], expectAccepted(created))) return;
    const e = await run.send('payment', { kind: 'performOrderPayment', label: 'PerformOrderPayment', orderId, body: { order: { ...mixed, PaymentDetails: paymentDetails() } } });
    if (accepted(e) && typeof e.responseInfo?.PaymentAmount === 'string') {
      const ri = e.responseInfo;
      run.env.orders.update(orderId, 'paid', (o) => { o.paid = { amount: ri.PaymentAmount as string, currency: String(ri.PaymentCurrencyCode ?? '') }; },
        { detail: `${ri.PaymentAmount as string} ${String(ri.PaymentCurrencyCode ?? '')}`.trim(), exchangeId: e.id });
    }
    run.step('payment', 'PerformOrderPayment', [e], expectPayment(e));
  },

  async documents(run) {
    const draft = await run.newOrder('documents');
    const orderId = draft.OrderId as string;
    const trackingNumber = trackingNumberFor(orderId);
    const order = { ...draft, AdditionalRequiredDocuments: [eadDocument(orderId, trackingNumber)] };
    const created = await run.sendOrder('documents', order, 'SendOrderToMerchant with AdditionalRequiredDocuments');
    if (!run.step('documents', 'SendOrderToMerchant with AdditionalRequiredDocuments', [created], expectAccepted(created))) return;
    const delivery = documentsDelivery(run.env.target.merchantGuid, orderId, [eadDocument(orderId, trackingNumber, { withData: true, baseUrl: run.env.documentsBaseUrl })]);
    const e = await run.send('documents', { kind: 'receiveAdditionalRequiredDocuments', label: 'SendAdditionalRequiredDocumentsToMerchant (EAD)', orderId, body: delivery });
    if (accepted(e)) run.env.orders.update(orderId, 'documents-delivered', (o) => { o.documentsDelivered = true; }, { exchangeId: e.id, detail: 'EAD' });
    run.step('documents', 'documents webhook (EAD)', [e], expectAccepted(e));
  },

  async redelivery(run) {
    const order = await run.newOrder('redelivery');
    const first = await run.sendOrder('redelivery', order, 'SendOrderToMerchant (delivery 1)');
    if (!run.step('redelivery', 'SendOrderToMerchant', [first], expectAccepted(first))) return;
    const id = first.responseInfo?.InternalOrderId;
    const again = await run.sendOrder('redelivery', order, 'SendOrderToMerchant (delivery 2, same body)');
    run.step('redelivery', 'the same order again', [again], expectAccepted(again)
      ?? (again.responseInfo?.InternalOrderId === id ? undefined : `InternalOrderId ${String(again.responseInfo?.InternalOrderId)} differs from the first ${String(id)}`));
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => run.sendOrder('redelivery', order, `SendOrderToMerchant (concurrent ${i + 1}/20)`)));
    const refused = burst.filter((e) => !accepted(e));
    const ids = new Set(burst.filter(accepted).map((e) => String(e.responseInfo?.InternalOrderId)));
    ids.add(String(id));
    const problem = refused.length > 0
      ? `${refused.length} of 20 concurrent deliveries were not accepted (first: ${infoText(refused[0])})`
      : ids.size > 1 ? `20 concurrent deliveries produced ${ids.size} different InternalOrderIds: ${[...ids].join(', ')}` : undefined;
    run.step('redelivery', '20 concurrent deliveries', burst, problem, `20 accepted, one InternalOrderId ${String(id)}`);
  },

  ...ORDER_LIFE_SCENARIOS,
  ...HOLD_PAYMENT_SCENARIOS,
};

/** Runs a scenario by name against `env.target`; never throws for what the merchant answers. */
export async function runScenario(env: ScenarioEnv, name: string): Promise<ScenarioResult> {
  if (!(SCENARIO_NAMES as readonly string[]).includes(name)) {
    throw new ScenarioError(`unknown scenario "${name}" (known: ${SCENARIO_NAMES.join(', ')})`);
  }
  const scenario = name as ScenarioName;
  const event = env.log.startRun(scenario);
  const run = new Run(env, scenario);
  const parts = scenario === 'full' ? SCENARIO_NAMES.filter((n) => n !== 'full') : [scenario];
  for (const part of parts) await SCENARIOS[part as Exclude<ScenarioName, 'full'>](run);
  const ok = run.steps.every((s) => s.status !== 'fail');
  const failed = run.steps.filter((s) => s.status === 'fail').length;
  env.log.finishRun(event, ok, ok ? `${run.steps.length} step(s) passed` : `${failed} of ${run.steps.length} step(s) failed`);
  return { name: scenario, runId: event.runId, ok, steps: run.steps, orderIds: run.orderIds };
}
