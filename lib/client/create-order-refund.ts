/**
 * CreateOrderRefund: POST {base_url}/Order/CreateOrderRefund?merchantGUID=…&orderRefund=<JSON of the
 * OrderRefund> with the JSON array of RefundProducts as the body (`[]` for none) — the form the
 * service's own commerce-cloud cartridge sends (link_globale `OrderRefundUpdateOperation.js`: the
 * header in the `orderRefund` query parameter, `JSON.stringify(payload.body)` as the body), matching
 * the two parameters of docs.global-e.com "Implementation" ("OrderRefund" and "RefundProduct list body
 * [array]"); docs/compatibility.md OL-2. A refund is money: the client never sends one twice.
 * - Not resent once the request may have reached the service (a time-out after sending, a reset
 *   connection, a 5xx, 408 or 429): REFUND_OUTCOME_UNKNOWN — unless the refund carries an
 *   ExternalReference; then the client asks GetRefundDetails first: listed → the refund happened
 *   (resolved, `confirmedBy: 'getRefundDetails'`), absent → sent again (at most `retry.retries`
 *   times). A refused connection (nothing sent) is retried as usual.
 * - With the kit's `store`: a reference already accepted is refused (DUPLICATE_REFUND); a refund
 *   that, with the refunds already accepted, is more than the order's paid total (the payment reply
 *   the callbacks stored) is refused (REFUND_EXCEEDS_PAID) unless forced; an accepted refund is
 *   recorded, so that the NotifyOrderRefunded callback that follows is matched to it.
 * - Amounts go out as decimal text ("170.10"), a number given turned into the text it prints as.
 * Refunds of one order by this client run one at a time (the guard's sum stays true).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Decimal } from '../shared/decimal.js';
import type { RefundDetailsResponse } from '../payloads.js';
import { isObject } from '../shared/options.js';
import { paymentKey } from '../store/capabilities.js';
import { normaliseAmountText, orderAction, orderActions } from '../store/order-actions.js';
import { amountText, moreThan, readAmount, sumAmounts } from './amount.js';
import { checkSchema, knownFields, orderIdOf } from './check-input.js';
import { invalidArgument, ServiceError } from './errors.js';
import type { ResolvedClientOptions } from './options.js';
import { OrderQueue } from './order-queue.js';
import { remember } from './order-record.js';
import { getRefundDetails } from './refund-details.js';
import { backoffMs, send, type Outcome } from './request.js';
import { errorFromAnswer, errorShaped, isSuccess, parseJson } from './response.js';

const OPERATION = 'createOrderRefund';

/**
 * An amount as the refund takes it: decimal text (`'10.50'`, exact) or a number (converted to its shortest decimal text).
 */
export type Amount = string | number;

/**
 * The reason of a refund (or of one product's refund): your reason code, mapped on the service's side, and its name.
 */
export interface RefundReasonInput {
  OrderRefundReasonCode: string;
  Name?: string;
}

/**
 * One product of a partial refund: the line (`CartItemId` or `ProductCode`), the quantity and/or the
 * amount refunded, and an optional reason and comment.
 */
export interface RefundProductInput {
  CartItemId?: string | number;
  ProductCode?: string;
  RefundQuantity?: string | number;
  RefundAmount?: Amount;
  OriginalRefundAmount?: Amount;
  RefundReason?: RefundReasonInput;
  RefundComments?: string;
}

/** A refund, full (FullRefund: true, no Products) or partial (Products with quantities, and/or amounts). */
export interface OrderRefundInput {
  /** The service's order id. */
  OrderId: string;
  FullRefund?: boolean;
  /** Total in the customer's currency (preferred by the service). */
  TotalRefundAmount?: Amount;
  OriginalTotalRefundAmount?: Amount;
  ProductsDutiesRefund?: boolean;
  ShippingRefund?: boolean;
  RefundReason?: RefundReasonInput;
  ServiceGestureAmount?: Amount;
  ShippingAmount?: Amount;
  DutiesAmount?: Amount;
  RefundComments?: string;
  /** Your reference (≤ 255 characters): lets the client confirm a refund's absence before sending it again. */
  ExternalReference?: string;
  /** The same, in the spelling of the page's description. */
  externalReference?: string;
  /** The refunded lines (sent as the body: the JSON array of RefundProducts). */
  Products?: RefundProductInput[];
}

/**
 * Options of {@link ServiceClient.createOrderRefund}. A refund is never resent automatically: see docs/client.md#refunds.
 */
export interface CreateOrderRefundOptions {
  /** Send even when the refund exceeds the paid total the store knows (logged as a warning). */
  force?: boolean;
}

/** The service's answer (Success true), or, when the refund was confirmed through GetRefundDetails, that refund. */
export interface OrderRefundCreated {
  Success: true;
  /** Set when the answer was lost and GetRefundDetails showed the refund (by its ExternalReference). */
  confirmedBy?: 'getRefundDetails';
  /** That refund, as GetRefundDetails lists it. */
  refund?: RefundDetailsResponse['Refunds'][number];
  [k: string]: unknown;
}

const DETAIL_FIELDS = ['OrderId', 'FullRefund', 'TotalRefundAmount', 'OriginalTotalRefundAmount', 'ProductsDutiesRefund', 'ShippingRefund', 'RefundReason',
  'ServiceGestureAmount', 'ShippingAmount', 'DutiesAmount', 'RefundComments', 'ExternalReference'];
const AMOUNTS = ['TotalRefundAmount', 'OriginalTotalRefundAmount', 'ServiceGestureAmount', 'ShippingAmount', 'DutiesAmount'];
const PRODUCT_FIELDS = ['CartItemId', 'ProductCode', 'RefundQuantity', 'RefundAmount', 'OriginalRefundAmount', 'RefundReason', 'RefundComments'];

interface Checked {
  orderId: string;
  /** The OrderRefund, sent as JSON in the `orderRefund` query parameter. */
  details: Record<string, unknown>;
  /** The RefundProducts, sent as the JSON body (`[]` when none). */
  products: Record<string, unknown>[];
  reference?: string;
  /** The refund's total in the customer's currency, when it can be known before the service computes it. */
  amount?: Decimal;
}

function asAmountText(value: unknown, name: string): string {
  const d = readAmount(value);
  if (!d) throw invalidArgument(OPERATION, `${name} must be a non-negative decimal amount ("170.10" or a number)`);
  return typeof value === 'string' ? value.trim() : amountText(d);
}

function checkRefund(input: unknown): Checked {
  const all = knownFields(OPERATION, input, 'the refund', [...DETAIL_FIELDS, 'externalReference', 'Products']);
  const { Products, externalReference, ...details } = all;
  if (externalReference !== undefined && details.ExternalReference !== undefined && externalReference !== details.ExternalReference) {
    throw invalidArgument(OPERATION, 'ExternalReference and externalReference differ: give one');
  }
  if (externalReference !== undefined) details.ExternalReference = externalReference;
  const orderId = orderIdOf(OPERATION, details.OrderId);
  for (const name of AMOUNTS) if (details[name] !== undefined) details[name] = asAmountText(details[name], name);
  if (Products !== undefined && !Array.isArray(Products)) throw invalidArgument(OPERATION, 'Products must be an array of refunded lines');
  const list = (Products as unknown[] | undefined)?.map((p, i) => {
    const line = knownFields(OPERATION, p, `Products[${i}]`, PRODUCT_FIELDS);
    for (const name of ['RefundAmount', 'OriginalRefundAmount']) if (line[name] !== undefined) line[name] = asAmountText(line[name], `Products[${i}].${name}`);
    if (line.RefundQuantity !== undefined) {
      const q = Number(line.RefundQuantity);
      if (!Number.isInteger(q) || q <= 0) throw invalidArgument(OPERATION, `Products[${i}].RefundQuantity must be a whole number > 0`);
    }
    if (line.CartItemId === undefined && line.ProductCode === undefined) throw invalidArgument(OPERATION, `Products[${i}] needs CartItemId or ProductCode`);
    return line;
  });
  if (details.FullRefund === true && list !== undefined && list.length > 0) {
    throw invalidArgument(OPERATION, 'a FullRefund takes no Products (the service refuses "Full refund requested but list of RefundProduct is not empty")');
  }
  if (details.FullRefund !== true && (list === undefined || list.length === 0) && !AMOUNTS.some((n) => details[n] !== undefined)) {
    throw invalidArgument(OPERATION, 'a partial refund needs Products or an amount (TotalRefundAmount, ServiceGestureAmount, ShippingAmount, DutiesAmount)');
  }
  const products = list ?? [];
  // The two parameters checked together (the schema names them as the service's integrations do).
  checkSchema(OPERATION, { orderRefund: details, ...(products.length > 0 ? { refundProductsList: products } : {}) }, 'service/order-refund-request.schema.json', 'the refund');
  const reference = typeof details.ExternalReference === 'string' ? details.ExternalReference : undefined;
  if (reference !== undefined && reference.trim() === '') throw invalidArgument(OPERATION, 'ExternalReference must not be empty');
  return { orderId, details, products, reference, amount: refundTotal(details, list) };
}

/** TotalRefundAmount, else the sum of the lines' RefundAmount and the components; undefined for a full refund or unknown line amounts. */
function refundTotal(details: Record<string, unknown>, lines: Record<string, unknown>[] | undefined): Decimal | undefined {
  if (details.FullRefund === true) return undefined;
  if (details.TotalRefundAmount !== undefined) return readAmount(details.TotalRefundAmount);
  const parts: Decimal[] = [];
  for (const line of lines ?? []) {
    if (line.RefundAmount === undefined) return undefined; // the service computes it from the order: not known here
    parts.push(readAmount(line.RefundAmount)!);
  }
  for (const name of ['ServiceGestureAmount', 'ShippingAmount', 'DutiesAmount']) if (details[name] !== undefined) parts.push(readAmount(details[name])!);
  return sumAmounts(parts);
}

/** Refunds of one order by this client, one at a time (one queue per client). */
const queues = new WeakMap<ResolvedClientOptions, OrderQueue>();
function queueOf(o: ResolvedClientOptions): OrderQueue {
  let queue = queues.get(o);
  if (!queue) queues.set(o, queue = new OrderQueue());
  return queue;
}

const storeUnavailable = (err: unknown) => new ServiceError({
  code: 'STORE_UNAVAILABLE', operation: OPERATION, retryable: true, cause: err, description: 'the refund guard could not read the store; nothing was sent',
});

/** DUPLICATE_REFUND and REFUND_EXCEEDS_PAID, from what the store records. */
async function guard(o: ResolvedClientOptions, c: Checked, force: boolean): Promise<void> {
  const store = o.store;
  if (!store) return;
  try {
    if (c.reference !== undefined && await orderAction(store, 'refundRef', c.orderId, c.reference)) {
      throw new ServiceError({ code: 'DUPLICATE_REFUND', operation: OPERATION, description: `a refund with this ExternalReference was already accepted for order ${c.orderId}; nothing was sent` });
    }
    const accepted = await orderActions(store, 'refund', c.orderId);
    // A full refund accepted before left nothing to refund (whatever its amount, which the service computed).
    const full = accepted.find((a) => a.details.FullRefund === true);
    let what: string;
    if (full) {
      what = `order ${c.orderId} was fully refunded (accepted at ${full.at.toISOString()})`;
    } else {
      if (c.amount === undefined) return; // a full refund, or lines whose amounts the service computes
      const paid = await (store.getPayment ? store.getPayment(c.orderId) : store.getRecord(paymentKey(c.orderId)));
      const total = paid ? readAmount(paid.response.PaymentAmount) : undefined;
      if (!total) return;
      const earlier = accepted.map((a) => readAmount(a.details.amount)).filter((d): d is Decimal => d !== undefined);
      if (!moreThan(sumAmounts([...earlier, c.amount]), total)) return;
      const currency = typeof paid!.response.PaymentCurrencyCode === 'string' ? ` ${paid!.response.PaymentCurrencyCode}` : '';
      what = `the refund (${amountText(c.amount)}) with the ${earlier.length} accepted before (${amountText(sumAmounts(earlier))}) is more than the paid total ${amountText(total)}${currency}`;
    }
    if (force) {
      o.log.warn({ operation: OPERATION }, `${what}; sending anyway (force: true)`);
      return;
    }
    throw new ServiceError({ code: 'REFUND_EXCEEDS_PAID', operation: OPERATION, description: `${what}; nothing was sent (pass { force: true } to override)` });
  } catch (err) {
    if (err instanceof ServiceError) throw err;
    if (force) {
      o.log.warn({ operation: OPERATION }, 'the refund guard could not read the store; sending anyway (force: true)');
      return;
    }
    throw storeUnavailable(err);
  }
}

/**
 * An error status after which the refund may have been made: every 5xx (500 included: a service may
 * fail after its commit, and the answer says nothing of that), 408 and 429 (a proxy's or gateway's
 * answer, whatever the service did behind it). Never resent blindly: REFUND_OUTCOME_UNKNOWN. Any
 * other 4xx is a refusal (nothing refunded); 3xx is a redirect, not followed.
 */
const mayHaveBeenMade = (status: number): boolean => status >= 500 || status === 408 || status === 429;

/** An answer that could not be read (larger than maxResponseBytes): a 2xx is most likely the refund made; else as mayHaveBeenMade. */
const unreadableMayHaveBeenMade = (status: number): boolean => isSuccess(status) || mayHaveBeenMade(status);

type Sent = { ok: true; answer: Record<string, unknown> } | { ok: false; unknown: ServiceError };

const successOf = (v: unknown): boolean | undefined => (v === true || (typeof v === 'string' && v.trim().toLowerCase() === 'true')
  ? true : v === false || (typeof v === 'string' && v.trim().toLowerCase() === 'false') ? false : undefined);

/** One request (a refused connection retried by send); a definitive refusal throws; a lost answer comes back as `unknown`. */
async function sendOnce(o: ResolvedClientOptions, c: Checked): Promise<Sent> {
  let outcome: Outcome;
  try {
    outcome = await send(o, {
      operation: OPERATION, method: 'POST', host: 'base', path: '/Order/CreateOrderRefund',
      query: { orderRefund: JSON.stringify(c.details) }, body: c.products, resend: false,
    });
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    // Lost: no answer after the request may have left, or an answer that could not be read whose
    // status says the refund may have been made (a 2xx, a 5xx, 408, 429).
    const lost = ((err.code === 'TIMEOUT' || err.code === 'NETWORK') && err.mayHaveReached !== false)
      || (err.code === 'INVALID_RESPONSE' && unreadableMayHaveBeenMade(err.status ?? 0));
    if (lost) return { ok: false, unknown: err };
    throw err; // nothing sent (a refused connection after retries, no access token) or a redirect (not followed, not made)
  }
  if (!isSuccess(outcome.status)) {
    const error = errorFromAnswer(OPERATION, outcome);
    if (mayHaveBeenMade(outcome.status)) return { ok: false, unknown: error };
    throw error;
  }
  const parsed = parseJson(outcome.text);
  // An empty 2xx is the refund made; a 2xx body that is not a JSON object (a proxy's page) says nothing: lost.
  if (outcome.text.trim() !== '' && !(parsed.ok && isObject(parsed.value))) {
    return { ok: false, unknown: new ServiceError({ code: 'INVALID_RESPONSE', operation: OPERATION, status: outcome.status, attempts: outcome.attempts, description: 'the 2xx answer is not a JSON object' }) };
  }
  const body = parsed.ok && isObject(parsed.value) ? parsed.value : {};
  const shaped = errorShaped(OPERATION, outcome, body, ['RefundId', 'RefundID']);
  const success = successOf(body.Success);
  if (success === false || (shaped && success !== true)) throw shaped ?? errorFromAnswer(OPERATION, outcome, 'the service answered Success: false');
  return { ok: true, answer: { ...body, Success: true } };
}

const unknownOutcome = (c: Checked, cause: ServiceError, note: string) => new ServiceError({
  code: 'REFUND_OUTCOME_UNKNOWN', operation: OPERATION, status: cause.status, attempts: cause.attempts, retryable: false, cause,
  description: `${cause.code}: ${cause.description}; the refund of order ${c.orderId} may have been made and was not sent again. ${note}`,
});

async function record(o: ResolvedClientOptions, c: Checked, answer: Record<string, unknown>): Promise<void> {
  const refundId = answer.RefundId ?? answer.RefundID;
  // The refund's amount: as sent, else the total the service computed (text or a number in its answer).
  const computed = readAmount(answer.TotalRefundAmount);
  const amount = c.amount !== undefined ? amountText(c.amount) : computed !== undefined ? amountText(computed) : undefined;
  await remember(o, OPERATION, 'refund', c.orderId, {
    ...(amount !== undefined ? { amount, amountKey: normaliseAmountText(amount) } : {}),
    ...(refundId !== undefined && refundId !== null ? { RefundId: String(refundId) } : {}),
    ...(c.reference !== undefined ? { ExternalReference: c.reference } : {}),
    FullRefund: c.details.FullRefund === true,
  });
  if (c.reference !== undefined) await remember(o, OPERATION, 'refundRef', c.orderId, { ExternalReference: c.reference }, c.reference);
}

async function refundOnce(o: ResolvedClientOptions, c: Checked): Promise<OrderRefundCreated> {
  for (let attempt = 0; ; attempt++) {
    const sent = await sendOnce(o, c);
    if (sent.ok) {
      await record(o, c, sent.answer);
      return sent.answer as OrderRefundCreated;
    }
    if (c.reference === undefined) {
      throw unknownOutcome(c, sent.unknown, 'Look it up with getRefundDetails before refunding again (give the refund an ExternalReference and the client does this itself).');
    }
    // The lost request may still be running on the service: before looking, give it at least as long
    // again as the client waited for it (timeoutMs), never just a retry's back-off.
    await sleep(Math.max(backoffMs(o, attempt), o.timeoutMs));
    let details: RefundDetailsResponse;
    try {
      details = await getRefundDetails(o, c.orderId);
    } catch (err) {
      throw unknownOutcome(c, sent.unknown, `GetRefundDetails could not confirm it either (${err instanceof ServiceError ? err.code : 'error'}): look the ExternalReference up before refunding again.`);
    }
    const found = details.Refunds.find((r) => r.ExternalReference === c.reference);
    if (found) {
      o.log.warn({ operation: OPERATION }, 'the answer to the refund was lost; GetRefundDetails lists it: the refund was made once');
      const answer: OrderRefundCreated = { Success: true, confirmedBy: 'getRefundDetails', refund: found, ...(found.RefundID !== undefined ? { RefundId: found.RefundID } : {}) };
      await record(o, c, { ...answer, TotalRefundAmount: found.TotalRefundAmount });
      return answer;
    }
    if (attempt >= o.retries) {
      throw unknownOutcome(c, sent.unknown, `GetRefundDetails does not list it (after ${attempt + 1} attempt(s), each looked up at least timeoutMs after the request); look the ExternalReference up again before refunding again.`);
    }
    o.log.warn({ operation: OPERATION, attempt: attempt + 1 }, 'the refund failed before an answer; GetRefundDetails confirms it was not made: sending it again');
    await sleep(backoffMs(o, attempt));
  }
}

export async function createOrderRefund(o: ResolvedClientOptions, refund: OrderRefundInput, options: CreateOrderRefundOptions = {}): Promise<OrderRefundCreated> {
  const c = checkRefund(refund);
  return queueOf(o).run(c.orderId, async () => {
    await guard(o, c, options.force === true);
    return refundOnce(o, c);
  });
}
