/// <reference types="node" preserve="true" />
/**
 * The telemetry of one callback delivery (kit.handle) and of one adapter call (the function that
 * calls the adapter method): the `callback <WireName>` and `adapter <method>` spans, the
 * `cbk.callback.duration`, `cbk.adapter.duration` and `cbk.spec_deviations` metrics and the
 * `crossborder-merchant-kit:callback` TracingChannel. When nothing listens (no provider registered,
 * no channel subscriber) both wrappers call through after three checks.
 */
import diagnostics from 'node:diagnostics_channel';
import { cutText, MAX_LOGGED_ID } from '../shared/bounded.js';
import { WIRE_ERRORS } from '../shared/errors.js';
import { classifyDelivery, currentDelivery, deliveries, type Delivery } from './delivery.js';
import { ATTR, CALLBACK_CHANNEL, type CallbackOutcome } from './names.js';
import { errorType, instruments, otelApi, otelPending, tracer, type Span } from './otel.js';

/**
 * What the delivery wrapper reads of a delivery's result (structural: telemetry never imports the
 * core): the reply, and what the delivery learnt (deliver() in lib/core/deliver.ts returns it).
 */
export interface ObservedDelivery {
  readonly reply: { readonly status: number; readonly body: unknown };
  /** What the delivery learnt (replayed, in_flight, declined, ...); undefined: from the status. */
  readonly outcome: string | undefined;
  readonly orderId: string | undefined;
  /** The attempt number the adapter was told, if any. */
  readonly attempt: number | undefined;
  /** How many deviations from the specification were tolerated. */
  readonly deviationCount: number;
}

/** The message of the callback TracingChannel; orderId, outcome and status are filled in before asyncStart. */
export interface CallbackChannelMessage {
  callback: string;
  orderId?: string;
  outcome?: CallbackOutcome;
  status?: number;
  result?: unknown;
  error?: unknown;
}

export const callbackChannel = diagnostics.tracingChannel<object, CallbackChannelMessage>(CALLBACK_CHANNEL);

/**
 * Runs one delivery (`work`: deliver()) of the callback at `defaultPath` (its wire name:
 * `/SendOrderToMerchant`) under its span, metrics and channel events, read from its result.
 */
export function observeDelivery<R extends ObservedDelivery>(defaultPath: string, work: () => Promise<R>): Promise<R> {
  const waiting = otelPending();
  if (waiting) return waiting.then(() => observeDelivery(defaultPath, work));
  const t = tracer();
  const m = instruments();
  if (!t && !m && !callbackChannel.hasSubscribers) return work();
  const api = otelApi();
  const started = performance.now();
  const callback = defaultPath.replace(/^\//, '');
  const delivery: Delivery = { callback, adapterRan: false };
  if (t && api) {
    const span = t.startSpan(`callback ${callback}`, { kind: api.SpanKind.INTERNAL, attributes: { [ATTR.callback]: callback } }, api.context.active());
    if (span.isRecording()) {
      delivery.span = span;
      delivery.context = api.trace.setSpan(api.context.active(), span);
    }
  }
  const message: CallbackChannelMessage = { callback };
  const finish = (result: ObservedDelivery | undefined, thrown?: unknown) => {
    const status = result?.reply.status ?? 500;
    const outcome = classifyDelivery(status, result?.outcome);
    const orderId = result?.orderId === undefined ? undefined : cutText(result.orderId, MAX_LOGGED_ID);
    message.orderId = orderId;
    message.outcome = outcome;
    message.status = status;
    m?.callbackDuration.record((performance.now() - started) / 1000, { [ATTR.callback]: callback, [ATTR.outcome]: outcome });
    if (m && result !== undefined && result.deviationCount > 0) m.specDeviations.add(1, { [ATTR.callback]: callback });
    if (delivery.span) {
      endDeliverySpan(delivery.span, { outcome, status, body: result?.reply.body, orderId, attempt: delivery.adapterRan ? result?.attempt : undefined }, thrown);
    }
  };
  const observed = async () => {
    try {
      const result = await work();
      finish(result);
      return result;
    } catch (err) {
      finish(undefined, err);
      throw err;
    }
  };
  // The delivery span is the active context of the pipeline (log lines correlate when a context manager is registered).
  const parent = delivery.context;
  const run = () => deliveries.run(delivery, parent ? () => api!.context.with(parent, observed) : observed);
  return callbackChannel.hasSubscribers ? callbackChannel.tracePromise(run, message) : run();
}

/** What the delivery span ends with (orderId cut; attempt only when the adapter ran). */
interface SpanEnd { outcome: CallbackOutcome; status: number; body: unknown; orderId: string | undefined; attempt: number | undefined }

function endDeliverySpan(span: Span, { outcome, status, body, orderId, attempt }: SpanEnd, thrown: unknown): void {
  span.setAttribute(ATTR.outcome, outcome);
  span.setAttribute(ATTR.status, status);
  if (orderId !== undefined) span.setAttribute(ATTR.orderId, orderId);
  if (attempt !== undefined) span.setAttribute(ATTR.attempt, attempt);
  if (status >= 500) {
    const code = (body as { ErrorCode?: unknown } | null)?.ErrorCode;
    // The kit's own wire codes only: an adapter's CallbackError carries the merchant's texts.
    const type = thrown !== undefined ? errorType(thrown)
      : outcome === 'declined' ? 'CallbackError'
        : typeof code === 'string' && Object.hasOwn(WIRE_ERRORS, code) ? code : String(status);
    span.setAttribute(ATTR.errorType, type);
    span.setStatus({ code: otelApi()!.SpanStatusCode.ERROR });
  }
  span.end();
}

/**
 * Runs one call of adapter method `method` (`work` calls it) under an `adapter <method>` span, child
 * of the delivery span, and the `cbk.adapter.duration` metric (`cbk.result`: ok, error, or timeout
 * when `work` rejects with an error named AdapterTimeout). The adapter runs with its span as the
 * active context, so spans it makes itself nest under it when the merchant registered a context manager.
 */
export function observeAdapter<T>(method: string, work: () => Promise<T>): Promise<T> {
  const delivery = currentDelivery();
  if (delivery) delivery.adapterRan = true;
  const m = instruments();
  const parent = delivery?.context;
  if (!m && !parent) return work();
  const api = otelApi()!;
  const started = performance.now();
  const callback = delivery?.callback ?? method;
  const span = parent ? tracer()?.startSpan(`adapter ${method}`, { kind: api.SpanKind.INTERNAL, attributes: { [ATTR.callback]: callback } }, parent) : undefined;
  const done = (result: 'ok' | 'error' | 'timeout', err?: unknown) => {
    m?.adapterDuration.record((performance.now() - started) / 1000, { [ATTR.callback]: callback, [ATTR.result]: result });
    if (!span) return;
    span.setAttribute(ATTR.result, result);
    if (result !== 'ok') {
      span.setAttribute(ATTR.errorType, errorType(err));
      span.setStatus({ code: api.SpanStatusCode.ERROR });
    }
    span.end();
  };
  const call = span ? api.context.with(api.trace.setSpan(api.context.active(), span), work) : work();
  return call.then((value) => {
    done('ok');
    return value;
  }, (err: unknown) => {
    done((err as Error | null)?.name === 'AdapterTimeout' ? 'timeout' : 'error', err);
    throw err;
  });
}
