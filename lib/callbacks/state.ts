/** The state one callback delivery carries through the step chain. */
import type { SafeLogger } from '../shared/logger.js';
import type { CardMask } from './delivery/card-mask.js';
import type { CallbackTypes } from './adapter-types.js';
import type { FulfilmentHold } from '../store/types.js';
import type { ResolvedOptions } from './options.js';
import type { CallbackEntry, CallbackName } from './registry.js';
import type { CallbackContext, CallbackRequest, CallbackResponse } from './types.js';

/** The state of one delivery of callback N (steps that serve every callback take the union). */
export interface PipelineState<N extends CallbackName = CallbackName> {
  callback: N;
  /** The registry entry of the callback: what the steps ask instead of comparing names. */
  entry: CallbackEntry<N>;
  request: CallbackRequest;
  requestId: string;
  startedAt: number;
  log: SafeLogger;
  /** Parsed JSON body of a POST. */
  payload?: Record<string, unknown>;
  /** What the adapter receives (built by the entry's `input`, set by the parse step). */
  input?: CallbackTypes[N]['input'];
  /** OrderId of the delivery, when it has one (for logs and idempotency). */
  orderId?: string;
  /** CardNumber values of the payload (8+ characters), masked in any reply text; set by parse. */
  cardNumbers?: string[];
  /** Masks the request's card numbers (any spelling) and CVV in a text; set by parse when the payload has any. */
  cardMask?: CardMask;
  context: CallbackContext;
  /** The payload hash (fingerprint step; order callbacks and documents only): read it with fingerprintOf. */
  fingerprint?: string;
  /** The order's fulfilment hold as the store read it with the OrderId lock (idempotency step), for the holds step. */
  prefetchedHold?: FulfilmentHold | null;
  /** Set by a step that answers for a reason worth logging, e.g. 'replayed'. */
  outcome?: string;
  /** Set by the adapter step when the adapter's result was refused (a merchant bug): the attempt's outcome is unknown. */
  invalidResult?: boolean;
  /**
   * Set by the adapter step when the adapter timed out: the reply its late settlement would have
   * given (rejects when it fails). The idempotency step keeps the OrderId lock until it settles.
   */
  lateReply?: Promise<CallbackResponse>;
}

export type Next = () => Promise<CallbackResponse>;
/** One pipeline step: may answer itself, or call `next()` and post-process. */
export type Step = (state: PipelineState, next: Next) => Promise<CallbackResponse>;
/** A step factory receives the resolved options once, at construction. */
export type StepFactory = (options: ResolvedOptions) => Step;

export function compose(steps: readonly Step[]): (state: PipelineState) => Promise<CallbackResponse> {
  return (state) => {
    const run = (i: number): Promise<CallbackResponse> => {
      const step = steps[i];
      if (!step) return Promise.reject(new Error('pipeline ended without a response'));
      return step(state, () => run(i + 1));
    };
    return run(0);
  };
}
