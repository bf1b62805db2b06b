/**
 * Outermost step: turns failures into a ResponseInfo with `Success: false`, adds the JSON,
 * no-store and helmet headers, and writes the one log line of the callback.
 */
import { cutText, MAX_LOGGED_ID, MAX_LOGGED_REASON } from '../../shared/bounded.js';
import { PipelineFailure, wireErrorBody } from '../../shared/errors.js';
import { JSON_NO_STORE } from '../../shared/http.js';
import { computeHelmetHeaders } from '../helmet-headers.js';
import type { PipelineState, StepFactory, StepReply } from '../state.js';

export function failureBody(f: PipelineFailure) {
  return wireErrorBody(f.errorCode, f.description);
}

/** The reply of a refusal (the `Success: false` body of its wire error, its headers), logged as a warning. */
export function refusal(state: PipelineState, err: PipelineFailure, outcome?: string): StepReply {
  // A reason may quote what the request sent (a header, a strategy's words): bounded, marked.
  state.log.warn({ reason: cutText(err.logReason, MAX_LOGGED_REASON), status: err.status }, 'callback refused');
  return { status: err.status, headers: { ...err.extraHeaders }, body: failureBody(err), ...(outcome ? { outcome } : {}) };
}

const outcomeOf = (status: number) => (status < 400 ? 'success' : status < 500 ? 'rejected' : 'error');

export const respondStep: StepFactory = (options) => {
  const staticHeaders: Record<string, string> = {
    ...computeHelmetHeaders(options.helmet),
    ...JSON_NO_STORE,
  };
  return async (state, next) => {
    let res: StepReply;
    try {
      res = await next();
    } catch (err) {
      if (err instanceof PipelineFailure) res = refusal(state, err);
      else {
        res = { status: 500, headers: {}, body: wireErrorBody('INTERNAL_ERROR') };
        state.log.error({ err }, 'callback failed inside the kit');
      }
    }
    const status = res.status;
    state.log.info({
      orderId: state.orderId === undefined ? undefined : cutText(state.orderId, MAX_LOGGED_ID),
      outcome: res.outcome ?? outcomeOf(status),
      status,
      durationMs: Math.round((performance.now() - state.startedAt) * 100) / 100,
    }, 'callback handled');
    // `outcome` is for kit.handle's telemetry; kit.handle answers status, headers and body only.
    return { status, headers: { ...staticHeaders, ...res.headers }, body: res.body, outcome: res.outcome };
  };
};
