/**
 * The reply of a delivery, whatever happened: a refusal (PipelineFailure) or a failure inside the
 * kit becomes a ResponseInfo with `Success: false`; every reply gets the JSON, no-store and helmet
 * headers; the one `callback handled` log line of the delivery.
 */
import { cutText, MAX_LOGGED_ID, MAX_LOGGED_REASON } from '../../shared/bounded.js';
import { PipelineFailure, wireErrorBody } from '../../shared/errors.js';
import { JSON_NO_STORE } from '../../shared/http.js';
import type { SafeLogger } from '../../shared/logger.js';
import { computeHelmetHeaders } from '../helmet-headers.js';
import type { ResolvedOptions } from '../options.js';
import type { CallbackResponse } from '../types.js';
import type { Reply } from './types.js';

export function failureBody(f: PipelineFailure) {
  return wireErrorBody(f.errorCode, f.description);
}

/** The reply of a refusal (the `Success: false` body of its wire error, its headers), logged as a warning. */
export function refusal(log: SafeLogger, err: PipelineFailure, outcome?: string): Reply {
  // A reason may quote what the request sent (a header, a strategy's words): bounded, marked.
  log.warn({ reason: cutText(err.logReason, MAX_LOGGED_REASON), status: err.status }, 'callback refused');
  return { status: err.status, headers: { ...err.extraHeaders }, body: failureBody(err), ...(outcome ? { outcome } : {}) };
}

/** The reply to what a stage threw: its refusal, or (anything else, a kit bug) a logged generic 500. */
export function failureReply(log: SafeLogger, err: unknown): Reply {
  if (err instanceof PipelineFailure) return refusal(log, err);
  log.error({ err }, 'callback failed inside the kit');
  return { status: 500, headers: {}, body: wireErrorBody('INTERNAL_ERROR') };
}

const outcomeOf = (status: number) => (status < 400 ? 'success' : status < 500 ? 'rejected' : 'error');

/** The headers every reply of a kit carries (helmet's, JSON, no-store), computed once. */
export function replyHeaders(options: ResolvedOptions): Readonly<Record<string, string>> {
  return Object.freeze({ ...computeHelmetHeaders(options.helmet), ...JSON_NO_STORE });
}

/** Logs the one `callback handled` line of a delivery and gives the reply as sent (with the kit's headers). */
export function sent(log: SafeLogger, headers: Readonly<Record<string, string>>, reply: Reply, orderId: string | undefined, startedAt: number): CallbackResponse {
  log.info({
    orderId: orderId === undefined ? undefined : cutText(orderId, MAX_LOGGED_ID),
    outcome: reply.outcome ?? outcomeOf(reply.status),
    status: reply.status,
    durationMs: Math.round((performance.now() - startedAt) * 100) / 100,
  }, 'callback handled');
  return { status: reply.status, headers: { ...headers, ...reply.headers }, body: reply.body };
}
