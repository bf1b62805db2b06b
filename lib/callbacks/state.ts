/** The state one callback delivery carries through the step chain. */
import type { SafeLogger } from '../shared/logger.js';
import type { CardMask } from './steps/card-mask.js';
import type { ResolvedOptions } from './options.js';
import type { CallbackContext, CallbackName, CallbackRequest, CallbackResponse } from './types.js';

export interface PipelineState {
  callback: CallbackName;
  request: CallbackRequest;
  requestId: string;
  startedAt: number;
  log: SafeLogger;
  /** Parsed JSON body of a POST. */
  payload?: Record<string, unknown>;
  /** What the adapter receives: the plain order, the cart-info request, or the documents delivery. */
  input?: unknown;
  /** OrderId of the delivery, when it has one (for logs and idempotency). */
  orderId?: string;
  /** CardNumber values of the payload (8+ characters), masked in any reply text; set by parse. */
  cardNumbers?: string[];
  /** Masks the request's card numbers (any spelling) and CVV in a text; set by parse when the payload has any. */
  cardMask?: CardMask;
  context: CallbackContext;
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

export const ORDER_CALLBACKS: readonly CallbackName[] = ['sendOrderToMerchant', 'updateOrderStatus', 'performOrderPayment'];
export const isOrderCallback = (name: CallbackName) => ORDER_CALLBACKS.includes(name);
