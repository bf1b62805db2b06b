/**
 * The reply of a delivery, whatever happened. What a delivery came to is one Answer (the adapter's
 * outcome, a stored reply replayed, a refusal, a failure inside the kit); wireReply() is the one place
 * an answer becomes a reply: a refusal (PipelineFailure) a ResponseInfo with `Success: false`, every
 * failure the one generic 500 (shared/http.ts `bindingFailure`, also the bindings' own). Every reply
 * gets the JSON, no-store and helmet headers; the one `callback handled` log line of the delivery.
 */
import { cutText, MAX_LOGGED_ID, MAX_LOGGED_REASON } from '../../shared/bounded.js';
import { PipelineFailure, wireErrorBody } from '../../shared/errors.js';
import { bindingFailure, JSON_NO_STORE } from '../../shared/http.js';
import type { SafeLogger } from '../../shared/logger.js';
import type { ResponseInfo } from '../../payloads.js';
import { computeHelmetHeaders } from '../helmet-headers.js';
import type { ResolvedOptions } from '../options.js';
import type { CallbackResponse } from '../types.js';
import type { AdapterOutcome } from './adapter.js';

/** The header marking a reply replayed from the store. */
export const REPLAY_HEADER = 'idempotency-replayed';

/**
 * What a delivery came to: the adapter's outcome, or (exactly-once) a stored reply replayed
 * (`replayed`: its own; `payment_replayed`: the order's earlier payment), or a refusal (a
 * PipelineFailure: thrown by a stage, or `in_flight` from the exactly-once module), or a failure
 * inside the kit (`error`: a kit bug).
 */
export type Answer =
  | AdapterOutcome
  | { readonly kind: 'replayed'; readonly response: ResponseInfo; readonly outcome: 'replayed' | 'payment_replayed' }
  | { readonly kind: 'refused'; readonly failure: PipelineFailure; readonly outcome: 'in_flight' | undefined }
  | { readonly kind: 'error'; readonly err: unknown };

/** A refusal as an answer (`outcome`: worth its own word in the log line, else from the status). */
export const refused = (failure: PipelineFailure, outcome?: 'in_flight'): Answer => ({ kind: 'refused', failure, outcome });

/** What a stage threw, as an answer: its refusal, or (anything else) a failure inside the kit. */
export const thrown = (err: unknown): Answer => (err instanceof PipelineFailure ? refused(err) : { kind: 'error', err });

function failureBody(f: PipelineFailure) {
  return wireErrorBody(f.errorCode, f.description);
}

/**
 * The one mapping of an answer to its reply (before the kit's headers). A refusal is logged as a
 * warning, a failure inside the kit as an error (the adapter's own failures were logged when they happened).
 */
export function wireReply(log: SafeLogger, answer: Answer): CallbackResponse {
  switch (answer.kind) {
    case 'ok':
    case 'declined':
      return { status: answer.status, headers: {}, body: answer.body };
    case 'replayed':
      return { status: 200, headers: { [REPLAY_HEADER]: 'true' }, body: answer.response };
    case 'refused':
    case 'invalid-result': {
      const err = answer.failure;
      // A reason may quote what the request sent (a header, a strategy's words): bounded, marked.
      log.warn({ reason: cutText(err.logReason, MAX_LOGGED_REASON), status: err.status }, 'callback refused');
      return { status: err.status, headers: { ...err.extraHeaders }, body: failureBody(err) };
    }
    case 'error':
      log.error({ err: answer.err }, 'callback failed inside the kit');
      return bindingFailure();
    case 'failed':
    case 'timed-out':
      return bindingFailure();
  }
}

/** What the log line and telemetry call an answer when its status does not say enough (replayed, declined, in_flight); else undefined. */
export function answerOutcome(answer: Answer): string | undefined {
  switch (answer.kind) {
    case 'replayed': return answer.outcome;
    case 'declined': return 'declined';
    case 'refused': return answer.outcome;
    default: return undefined;
  }
}

const outcomeOf = (status: number) => (status < 400 ? 'success' : status < 500 ? 'rejected' : 'error');

/** The headers every reply of a kit carries (helmet's, JSON, no-store), computed once. */
export function replyHeaders(options: ResolvedOptions): Readonly<Record<string, string>> {
  return Object.freeze({ ...computeHelmetHeaders(options.helmet), ...JSON_NO_STORE });
}

/** The reply of an answer as sent (with the kit's headers), and the one `callback handled` line of the delivery. */
export function sent(log: SafeLogger, headers: Readonly<Record<string, string>>, answer: Answer, orderId: string | undefined, startedAt: number): CallbackResponse {
  const reply = wireReply(log, answer);
  log.info({
    orderId: orderId === undefined ? undefined : cutText(orderId, MAX_LOGGED_ID),
    outcome: answerOutcome(answer) ?? outcomeOf(reply.status),
    status: reply.status,
    durationMs: Math.round((performance.now() - startedAt) * 100) / 100,
  }, 'callback handled');
  return { status: reply.status, headers: { ...headers, ...reply.headers }, body: reply.body };
}
