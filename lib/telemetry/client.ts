/**
 * The telemetry of one service operation (lib/client/request.ts `send`, retries included): a CLIENT
 * span `service <operation>`, an event `retry` per retry, the W3C `traceparent` (through the
 * registered propagator) on every attempt, the `cbk.client.duration` metric and the
 * `crossborder-merchant-kit:client` TracingChannel. Never the URL (its query holds the MerchantGUID),
 * a header or a body.
 */
import diagnostics from 'node:diagnostics_channel';
import { ATTR, CLIENT_CHANNEL, type ClientOutcome } from './names.js';
import { errorType, instruments, otelApi, otelPending, tracer, type Span } from './otel.js';

export interface ServiceCallInfo {
  operation: string;
  method: string;
  /** The request URL: only its host name and port are reported. */
  url: string;
}

/** What `send` tells the observer while it runs. */
export interface ServiceCallObserver {
  /** Adds the trace context headers of the operation's span to an attempt's headers. */
  inject(headers: Record<string, string>): void;
  /** Another attempt follows the failed one (`attempt` counts from 1), after `delayMs`. */
  retry(attempt: number, delayMs: number, why: { status?: number; error?: string }): void;
}

/** The message of the client TracingChannel; status, attempts and outcome are filled in before asyncStart. */
export interface ClientChannelMessage {
  operation: string;
  method: string;
  status?: number;
  attempts?: number;
  outcome?: ClientOutcome;
  result?: unknown;
  error?: unknown;
}

export const clientChannel = diagnostics.tracingChannel<object, ClientChannelMessage>(CLIENT_CHANNEL);

const NOOP: ServiceCallObserver = { inject() {}, retry() {} };

export function clientOutcome(status: number | undefined, err?: unknown): ClientOutcome {
  if (status === undefined) {
    const code = (err as { code?: unknown } | null)?.code;
    return code === 'TIMEOUT' ? 'timeout' : code === 'NETWORK' ? 'network' : 'error';
  }
  return status < 400 ? 'ok' : status < 500 ? 'client_error' : 'server_error';
}

/** Runs one service operation (`work`: all its attempts) under its span, metric and channel events. */
export function observeServiceCall<R extends { status: number; attempts: number }>(info: ServiceCallInfo, work: (observer: ServiceCallObserver) => Promise<R>): Promise<R> {
  const waiting = otelPending();
  if (waiting) return waiting.then(() => observeServiceCall(info, work));
  const t = tracer();
  const m = instruments();
  if (!t && !m && !clientChannel.hasSubscribers) return work(NOOP);
  const api = otelApi();
  const started = performance.now();
  let span: Span | undefined;
  let retries = 0;
  if (t && api) {
    const url = new URL(info.url);
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    span = t.startSpan(`service ${info.operation}`, {
      kind: api.SpanKind.CLIENT,
      attributes: { [ATTR.operation]: info.operation, [ATTR.method]: info.method, [ATTR.serverAddress]: url.hostname, [ATTR.serverPort]: port },
    }, api.context.active());
  }
  const spanContext = span && api ? api.trace.setSpan(api.context.active(), span) : undefined;
  const observer: ServiceCallObserver = {
    inject(headers) {
      if (spanContext) api!.propagation.inject(spanContext, headers);
    },
    retry(attempt, delayMs, why) {
      retries++;
      span?.addEvent('retry', {
        [ATTR.attempt]: attempt,
        [ATTR.retryDelayMs]: Math.round(delayMs),
        ...(why.status !== undefined ? { [ATTR.status]: why.status } : {}),
        ...(why.error !== undefined ? { [ATTR.errorType]: why.error } : {}),
      });
    },
  };
  const message: ClientChannelMessage = { operation: info.operation, method: info.method };
  const finish = (status: number | undefined, attempts: number, err?: unknown) => {
    const outcome = clientOutcome(status, err);
    Object.assign(message, { status, attempts, outcome });
    m?.clientDuration.record((performance.now() - started) / 1000, { [ATTR.operation]: info.operation, [ATTR.outcome]: outcome });
    if (!span) return;
    span.setAttribute(ATTR.outcome, outcome);
    span.setAttribute(ATTR.retries, retries);
    if (status !== undefined) span.setAttribute(ATTR.status, status);
    if (outcome !== 'ok') {
      span.setAttribute(ATTR.errorType, status !== undefined ? String(status) : errorType(err));
      span.setStatus({ code: api!.SpanStatusCode.ERROR });
    }
    span.end();
  };
  const run = () => work(observer).then((res) => {
    finish(res.status, res.attempts);
    return res;
  }, (err: unknown) => {
    finish(undefined, (err as { attempts?: number } | null)?.attempts ?? retries + 1, err);
    throw err;
  });
  return clientChannel.hasSubscribers ? clientChannel.tracePromise(run, message) : run();
}
