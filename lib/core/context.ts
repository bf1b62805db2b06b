/**
 * The context of one delivery: what the adapter receives as its second argument (CallbackContext).
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

export class DeliveryContext implements CallbackContext {
  callback: CallbackName;
  requestId: string;
  log: SafeLogger;
  headers: HeaderMap;
  remoteAddress?: string;
  auth: Record<string, unknown> = {};
  // Set by later stages, absent until then (declared only: no own property is created here).
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

  constructor(callback: CallbackName, requestId: string, log: SafeLogger, headers: HeaderMap, remoteAddress: string | undefined) {
    this.callback = callback;
    this.requestId = requestId;
    this.log = log;
    this.headers = headers;
    this.remoteAddress = remoteAddress;
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
  static abort(context: CallbackContext, reason: unknown): void {
    if (!(context instanceof DeliveryContext)) return;
    if (context.#aborted) return;
    context.#aborted = true;
    context.#reason = reason;
    context.#controller?.abort(reason);
  }
}
