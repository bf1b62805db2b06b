/**
 * The context of one delivery: what the adapter receives as its second argument (CallbackContext).
 * It is built once, just before the adapter runs (stages/adapter.ts, `new DeliveryContext`),
 * from the stages' results and what the exactly-once module learnt under the lock (ContextFacts);
 * the kit writes nothing into it afterwards (its type is Readonly; the object is not frozen, so an
 * adapter that writes to its context still may, as before).
 *
 * One class, so every context has the same hidden class. `signal` is a getter on the prototype (one
 * shared getter: a getter defined on each object gave every context its own hidden class and cost
 * far more than it saved) that makes the delivery's AbortController on its first read: most
 * adapters never read it, and an AbortController per request costs objects and microseconds. When
 * the adapter's time-out fires, a signal already read is aborted; a signal first read after the
 * time-out is created aborted, with the same reason.
 */
import type { HeaderMap } from '../shared/http.js';
import type { SafeLogger } from '../shared/logger.js';
import type { FulfilmentHold, PreviousAttempt } from '../store/types.js';
import type { ResponseInfo } from '../payloads.js';
import type { CallbackContext, CallbackName, MerchantInitiated } from './types.js';
import type { Validated } from './stages/types.js';

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
