/**
 * The adapter stage: calls the adapter and says what came of it, as one AdapterOutcome (ok, declined,
 * failed, timed out, invalid result); stages/reply.ts (wireReply) alone turns it into the reply.
 * CallbackError declines with the adapter's own texts; a failure's detail goes only to the logger.
 *
 * The call (below, invokeAdapter) has a time limit. A throw, a rejection or a timeout never escapes
 * as an unhandled rejection. A timed-out call keeps running: AdapterTimeout carries it (`late`), so
 * the exactly-once module can hold the OrderId lock until it settles and store a late success. The
 * time-out aborts the context's signal (created only if the adapter reads it).
 *
 * The adapter's context (DeliveryContext, below) is what the adapter receives as its second argument
 * (CallbackContext). It is built once, just before the adapter runs (`new DeliveryContext`), from the
 * stages' results and what the exactly-once module learnt under the lock (ContextFacts); the kit
 * writes nothing into it afterwards (its type is Readonly; the object is not frozen, so an adapter
 * that writes to its context still may, as before).
 *
 * One class, so every context has the same hidden class. `signal` is a getter on the prototype (one
 * shared getter: a getter defined on each object gave every context its own hidden class and cost
 * far more than it saved) that makes the delivery's AbortController on its first read: most
 * adapters never read it, and an AbortController per request costs objects and microseconds. When
 * the adapter's time-out fires, a signal already read is aborted; a signal first read after the
 * time-out is created aborted, with the same reason.
 *
 * An adapter's reply is tidied and its values read the tolerant way before it is validated
 * (reply-tidy.ts: the reply as real adapters write it).
 */
import { CallbackError, PipelineFailure } from '../../shared/errors.js';
import { isObject } from '../../shared/options.js';
import { observeAdapter } from '../../telemetry/callback.js';
import type { ResolvedOptions } from '../options.js';
import type { HeaderMap } from '../../shared/http.js';
import type { SafeLogger } from '../../shared/logger.js';
import type { FulfilmentHold, PreviousAttempt } from '../../store/types.js';
import type { ResponseInfo } from '../../payloads.js';
import type { CallbackContext, CallbackName, MerchantInitiated } from '../types.js';
import type { Validated, Who } from './types.js';
import { stripCardData } from '../card-data.js';
import { paymentExpected } from '../payload-rules.js';
import { createReplyTidier, createReplyValueCheck, type ReplyTidier } from '../reply-tidy.js';

/** An accepted result: the reply's body (a ResponseInfo with `Success: true`, or a CheckoutCartInfo). */
export interface Accepted { readonly kind: 'ok'; readonly status: 200; readonly body: Record<string, unknown> }
/** A decline (a CallbackError thrown, or `Success: false` returned): its status and `Success: false` body, texts masked. */
export interface Declined { readonly kind: 'declined'; readonly status: number; readonly body: Record<string, unknown> }

/**
 * What calling the adapter came to. `failed`: it threw (not a CallbackError) — logged, a generic 500;
 * `timed-out`: it did not settle within `adapterTimeoutMs` — `late` is what it would have come to
 * (rejects when it fails or its result is invalid), which the exactly-once module awaits under the lock;
 * `invalid-result`: its result was refused (a merchant bug, logged), the attempt's outcome unknown.
 */
export type AdapterOutcome =
  | Accepted
  | Declined
  | { readonly kind: 'failed' }
  | { readonly kind: 'timed-out'; readonly late: Promise<Accepted | Declined> }
  | { readonly kind: 'invalid-result'; readonly failure: PipelineFailure };

const FAILED: AdapterOutcome = { kind: 'failed' };

/** Validates the adapter's output (filled by the schemas); returns the failing field or null. */
export type ResultValidator = (callback: CallbackName, result: unknown) => string | null;

// ── The adapter's context.

/** What the adapter's context holds beyond the stages' results: their authentication, and (exactly-once entries) what was learnt under the lock. */
export interface ContextFacts {
  /** Results of the authentication strategies (stages/auth.ts). */
  readonly auth: Record<string, unknown>;
  /** The idempotency key (stages/key.ts). */
  readonly idempotencyKey?: string;
  /** The created order's reply (exactly-once/index.ts, the attempt's start). */
  readonly previous?: ResponseInfo;
  /** The attempt number, when the store counts attempts. */
  readonly attempt?: number;
  /** The attempt before this one, when it ended without a known result. */
  readonly previousAttempt?: PreviousAttempt;
  /** The order's hold (exactly-once/holds.ts). */
  readonly fulfilmentHold?: FulfilmentHold;
  /** The merchant's own call this callback follows (exactly-once/merchant-action.ts). */
  readonly merchantInitiated?: MerchantInitiated;
}

export class DeliveryContext implements CallbackContext {
  callback: CallbackName;
  requestId: string;
  log: SafeLogger;
  headers: HeaderMap;
  remoteAddress?: string;
  auth: Record<string, unknown>;
  // Absent unless known (declared only: an own property only when set, in this order, by the constructor).
  declare idempotencyKey?: string;
  declare attempt?: number;
  declare previousAttempt?: PreviousAttempt;
  declare previous?: ResponseInfo;
  declare fulfilmentHold?: FulfilmentHold;
  declare specDeviations?: ReadonlyArray<{ pointer: string; rule: string }>;
  declare envelope?: Record<string, unknown>;
  declare merchantInitiated?: MerchantInitiated;
  #signal: AbortSignal | undefined = undefined;
  #controller: AbortController | undefined = undefined;
  #aborted = false;
  #reason: unknown = undefined;

  /** The context of a delivery, built once just before its adapter runs: the one place the kit writes a context. */
  constructor(d: Validated, facts: ContextFacts) {
    this.callback = d.callback;
    this.requestId = d.requestId;
    this.log = d.log;
    this.headers = d.request.headers;
    this.remoteAddress = d.request.remoteAddress;
    this.auth = facts.auth;
    if (d.envelope) this.envelope = d.envelope;
    if (d.deviations) this.specDeviations = d.deviations;
    if (facts.idempotencyKey !== undefined) this.idempotencyKey = facts.idempotencyKey;
    if (facts.previous) this.previous = facts.previous;
    if (facts.attempt !== undefined) this.attempt = facts.attempt;
    if (facts.previousAttempt) this.previousAttempt = facts.previousAttempt;
    if (facts.fulfilmentHold) this.fulfilmentHold = facts.fulfilmentHold;
    if (facts.merchantInitiated) this.merchantInitiated = facts.merchantInitiated;
  }

  /** Aborted when `adapterTimeoutMs` elapses: pass it to fetch/DB calls. Created on first read. */
  get signal(): AbortSignal {
    if (this.#signal === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
      this.#signal = this.#controller.signal;
    }
    return this.#signal;
  }

  /** A signal assigned by hand replaces the kit's (as on the plain object the context used to be). */
  set signal(value: AbortSignal) {
    this.#signal = value;
  }

  /**
   * Aborts the signal of a delivery's context (now, or when it is first read). Static, so the
   * adapter's context has no abort member of its own.
   */
  static abort(context: Readonly<CallbackContext>, reason: unknown): void {
    if (!(context instanceof DeliveryContext)) return;
    if (context.#aborted) return;
    context.#aborted = true;
    context.#reason = reason;
    context.#controller?.abort(reason);
  }
}

// ── The call, with its time-out.

export class AdapterTimeout extends Error {
  /** The adapter call, still running. */
  late: Promise<unknown> = Promise.resolve();
  constructor(ms: number) {
    super(`adapter did not settle within ${ms} ms`);
    this.name = 'AdapterTimeout';
  }
}

/**
 * Calls `fn` (a method of `self`) with the delivery's input and its context (built just before: DeliveryContext,
 * above), under the adapter's telemetry (docs/observability.md) and its time limit.
 */
export function invokeAdapter(delivery: Validated, context: Readonly<DeliveryContext>, fn: (input: unknown, ctx: unknown) => unknown, self: object, timeoutMs: number): Promise<unknown> {
  return observeAdapter(delivery.callback, () => {
    const call = Promise.resolve().then(() => fn.call(self, delivery.input, context));
    return new Promise((resolve, reject) => {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        const err = new AdapterTimeout(timeoutMs);
        err.late = call;
        DeliveryContext.abort(context, err);
        reject(err);
      }, timeoutMs); // kept referenced: whoever awaits the delivery gets its 500 even when nothing else runs (cleared when the adapter settles)
      call.then((value) => {
        if (timedOut) delivery.log.warn({}, 'adapter settled after its time-out');
        else {
          clearTimeout(timer);
          resolve(value);
        }
      }, (err: unknown) => {
        if (timedOut) delivery.log.warn({ err }, 'adapter failed after its time-out');
        else {
          clearTimeout(timer);
          reject(err);
        }
      });
    });
  });
}

// ── The reply.

const merchantBug = (reason: string) =>
  new PipelineFailure('INTERNAL_ERROR', `merchant adapter bug: ${reason}`);

function declined(state: Validated, err: CallbackError): Declined {
  // The texts of a thrown CallbackError are masked like those of a returned result.
  const text = (s: string) => (state.cardMask ? state.cardMask(s) : s);
  const body: Record<string, unknown> = { Success: false, Message: text(err.message) };
  if (err.description !== undefined) body.Description = text(err.description);
  if (err.errorCode !== undefined) body.ErrorCode = text(err.errorCode);
  state.log.info({ status: err.status, errorCode: err.errorCode }, 'adapter declined the callback');
  return { kind: 'declined', status: err.status, body };
}

/** Validates a reply body (values real integrations write read the tolerant way first: reply-tidy.ts, createReplyValueCheck); the failing field or null. */
type ReplyCheck = (state: Who, body: Record<string, unknown>) => string | null;

type ToReply = (state: Validated, result: unknown, check: ReplyCheck, tidy: ReplyTidier) => Accepted | Declined;

/** A cart-info result: the CheckoutCartInfo as returned (card data stripped, nulls dropped), validated. */
const cartInfoReply: ToReply = (state, result, check, tidy) => {
  if (!isObject(result) || !Array.isArray(result.productsList)) throw merchantBug(`${state.callback} returned no productsList array`);
  const body = stripCardData(result, state.cardMask) as Record<string, unknown>;
  tidy(state, body); // nulls dropped (a JSON copy: the adapter's object is not changed)
  const field = check(state, body);
  if (field) throw merchantBug(`${state.callback} result is invalid at ${field}`);
  return { kind: 'ok', status: 200, body };
};

/** A ResponseInfo result: `Success: true` set by the kit, `Success: false` a decline, the payment checked when one is expected. */
const responseInfoReply: ToReply = (state, result, check, tidy) => {
  if (result !== undefined && result !== null && !isObject(result)) throw merchantBug(`${state.callback} returned ${typeof result}, not an object`);
  const fields = stripCardData(result ?? {}, state.cardMask) as Record<string, unknown>;
  tidy(state, fields);
  if (fields.Success === false) {
    const msg = typeof fields.Message === 'string' ? fields.Message : 'Declined';
    return declined(state, new CallbackError(msg, {
      description: typeof fields.Description === 'string' ? fields.Description : undefined,
      errorCode: typeof fields.ErrorCode === 'string' ? fields.ErrorCode : undefined,
    }));
  }
  delete fields.Success;
  // An amount given as a number becomes its shortest exact decimal text (12.5 → "12.5").
  if (typeof fields.PaymentAmount === 'number' && Number.isFinite(fields.PaymentAmount) && !/e/i.test(String(fields.PaymentAmount))) {
    fields.PaymentAmount = String(fields.PaymentAmount);
  }
  if (paymentExpected(state)) {
    if (typeof fields.PaymentAmount !== 'string' || fields.PaymentAmount.trim() === '') throw merchantBug(`${state.callback} processed a payment but returned no PaymentAmount string`);
    if (typeof fields.PaymentCurrencyCode !== 'string' || !/^[A-Z]{3}$/.test(fields.PaymentCurrencyCode)) throw merchantBug(`${state.callback} processed a payment but returned no 3-letter PaymentCurrencyCode`);
  }
  const field = check(state, fields);
  if (field) throw merchantBug(`${state.callback} result is invalid at ${field}`);
  return { kind: 'ok', status: 200, body: { Success: true, ...fields } };
};

/**
 * Calls the adapter of a delivery and says what came of it (the one place the adapter is called:
 * invokeAdapter). Its context is built here, once, from the delivery and `facts`.
 */
export type AdapterCall = (delivery: Validated, facts: ContextFacts) => Promise<AdapterOutcome>;

/** The adapter stage of one kit: the delivery's registry entry says which kind of reply (`result`) its adapter method gives. */
export function createAdapterCall(options: ResolvedOptions, validateResult: ResultValidator): AdapterCall {
  const adapter = options.adapter as unknown as Record<string, (input: unknown, ctx: unknown) => unknown>;
  const tidy = createReplyTidier();
  const replyValues = createReplyValueCheck();
  const check: ReplyCheck = (state, body) => replyValues(state, body, validateResult);
  return async (delivery, facts) => {
    const toReply = delivery.entry.result === 'cartInfo' ? cartInfoReply : responseInfoReply;
    let result: unknown;
    try {
      result = await invokeAdapter(delivery, new DeliveryContext(delivery, facts) as Readonly<DeliveryContext>, adapter[delivery.callback], adapter, options.adapterTimeoutMs);
    } catch (err) {
      if (err instanceof CallbackError) return declined(delivery, err);
      delivery.log.error({ err }, `adapter ${delivery.callback} failed`);
      if (!(err instanceof AdapterTimeout)) return FAILED;
      // What the call would have come to; the exactly-once module stores a late success.
      const late = err.late.then((value) => toReply(delivery, value, check, tidy), (lateErr: unknown) => {
        if (lateErr instanceof CallbackError) return declined(delivery, lateErr);
        throw lateErr;
      });
      late.catch(() => { /* logged where it is awaited */ });
      return { kind: 'timed-out', late };
    }
    try {
      return toReply(delivery, result, check, tidy);
    } catch (err) {
      if (!(err instanceof PipelineFailure)) throw err;
      delivery.log.error({ reason: err.logReason }, 'adapter result rejected');
      return { kind: 'invalid-result', failure: err };
    }
  };
}
