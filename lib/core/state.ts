/** The state one callback delivery carries through the step chain. */
import type { SafeLogger } from '../shared/logger.js';
import type { CardMask } from './delivery/card-mask.js';
import type { CallbackTypes } from './adapter-types.js';
import type { FulfilmentHold } from '../store/types.js';
import type { ResolvedOptions } from './options.js';
import type { CallbackEntry, CallbackName } from './registry.js';
import type { CallbackContext, CallbackRequest, CallbackResponse } from './types.js';

/**
 * What one delivery of callback N carries forward through its chain (steps that serve every callback
 * take the union). Only forward: what a step produces for the steps before it travels back in its
 * reply (StepReply).
 */
export interface PipelineState<N extends CallbackName = CallbackName> {
  callback: N;
  /** The registry entry of the callback (its chain was built from it). */
  entry: CallbackEntry<N>;
  request: CallbackRequest;
  startedAt: number;
  log: SafeLogger;
  /** Parsed JSON body of a POST (parse step). */
  payload?: Record<string, unknown>;
  /** What the adapter receives (built by the entry's `input`, set by the parse step). */
  input?: CallbackTypes[N]['input'];
  /** OrderId of the delivery (parse step): always set for an exactly-once callback, which is refused without it. */
  orderId?: string;
  /** The adapter input is the payload and holds no null at any depth (parse step's walk): no null to remove. */
  nullFree?: true;
  /** Masks the request's card numbers (any spelling) and CVV in a text; set by parse when the payload has any. */
  cardMask?: CardMask;
  /** Keyed hash of the request's card numbers and CVVs (parse step; undefined without card data): part of an exactly-once fingerprint. */
  cardDigest?: string | undefined;
  context: CallbackContext;
  /** The payload hash (fingerprint step, exactly-once callbacks only). */
  fingerprint?: string;
  /** The order's fulfilment hold as the store read it with the OrderId lock (idempotency step), for the holds step. */
  prefetchedHold?: FulfilmentHold | null;
}

/** A step's reply: the response, and what the steps around it learn about the attempt (never sent). */
export interface StepReply extends CallbackResponse {
  /** Why it was answered, when worth logging (e.g. 'replayed', 'declined', 'in_flight'); else from the status. */
  outcome?: string;
  /** The adapter's result was refused (a merchant bug): the attempt's outcome is unknown. */
  invalidResult?: true;
  /**
   * The adapter timed out: the reply its late settlement would give (rejects when it fails). The
   * idempotency step keeps the OrderId lock until it settles.
   */
  late?: Promise<CallbackResponse>;
}

export type Next = () => Promise<StepReply>;
/** One pipeline step: may answer itself, or call `next()` and post-process. */
export type Step = (state: PipelineState, next: Next) => Promise<StepReply>;
/** A step factory receives the resolved options once, at construction. */
export type StepFactory = (options: ResolvedOptions) => Step;

/**
 * Runs step `i` of `steps`. A function of the module, not a closure made per delivery: the
 * benchmark runs the kit through tsx, whose transform names every closure bound to a name when it
 * is made (an Object.defineProperty, ~4,000 instructions each); the `next` closures passed inline
 * carry no name.
 */
function runStep(steps: readonly Step[], state: PipelineState, i: number): Promise<StepReply> {
  const step = steps[i];
  if (!step) return Promise.reject(new Error('pipeline ended without a response'));
  return step(state, () => runStep(steps, state, i + 1));
}

export function compose(steps: readonly Step[]): (state: PipelineState) => Promise<StepReply> {
  return (state) => runStep(steps, state, 0);
}
