/**
 * The telemetry of one callback delivery (kit.handle) and of one adapter call (the function that
 * calls the adapter method): the `callback <WireName>` and `adapter <method>` spans, the
 * `cbk.callback.duration`, `cbk.adapter.duration` and `cbk.spec_deviations` metrics and the
 * `crossborder-merchant-kit:callback` TracingChannel. When nothing listens (no provider registered,
 * no channel subscriber) both wrappers call through after three checks.
 */
import diagnostics from 'node:diagnostics_channel';
import { WIRE_ERRORS } from '../shared/errors.js';
import { classifyDelivery, currentDelivery, deliveries, type Delivery } from './delivery.js';
import { ATTR, CALLBACK_CHANNEL, type CallbackOutcome } from './names.js';
import { errorType, instruments, otelApi, otelPending, tracer, type Span } from './otel.js';

/** What the delivery wrapper reads of the pipeline's state (structural: telemetry never imports the pipeline). */
export interface DeliveryFacts {
  callback: string;
  /** The registry entry: its default path is the wire name (`/SendOrderToMerchant`). */
  entry: { defaultPath: string };
  orderId?: string;
  context: { attempt?: number; specDeviations?: readonly unknown[] };
}

/** The reply of the pipeline's outermost step; `outcome`: what the pipeline learnt (replayed, in_flight, declined, ...). */
interface Reply { status: number; body: unknown; outcome?: string }

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

/** Runs one delivery (`work` is the pipeline) under its span, metrics and channel events. */
export function observeDelivery<R extends Reply>(state: DeliveryFacts, work: () => Promise<R>): Promise<R> {
  const waiting = otelPending();
  if (waiting) return waiting.then(() => observeDelivery(state, work));
  const t = tracer();
  const m = instruments();
  if (!t && !m && !callbackChannel.hasSubscribers) return work();
  const api = otelApi();
  const started = performance.now();
  const callback = state.entry.defaultPath.replace(/^\//, '');
  const delivery: Delivery = { callback, adapterRan: false };
  if (t && api) {
    const span = t.startSpan(`callback ${callback}`, { kind: api.SpanKind.INTERNAL, attributes: { [ATTR.callback]: callback } }, api.context.active());
    if (span.isRecording()) {
      delivery.span = span;
      delivery.context = api.trace.setSpan(api.context.active(), span);
    }
  }
  const message: CallbackChannelMessage = { callback };
  const finish = (status: number, body: unknown, thrown?: unknown, learnt?: string) => {
    const outcome = classifyDelivery(status, learnt);
    message.orderId = state.orderId;
    message.outcome = outcome;
    message.status = status;
    m?.callbackDuration.record((performance.now() - started) / 1000, { [ATTR.callback]: callback, [ATTR.outcome]: outcome });
    if (m && state.context.specDeviations && state.context.specDeviations.length > 0) m.specDeviations.add(1, { [ATTR.callback]: callback });
    if (delivery.span) endDeliverySpan(delivery.span, state, outcome, status, body, delivery.adapterRan, thrown);
  };
  const observed = async () => {
    try {
      const res = await work();
      finish(res.status, res.body, undefined, res.outcome);
      return res;
    } catch (err) {
      finish(500, undefined, err);
      throw err;
    }
  };
  // The delivery span is the active context of the pipeline (log lines correlate when a context manager is registered).
  const parent = delivery.context;
  const run = () => deliveries.run(delivery, parent ? () => api!.context.with(parent, observed) : observed);
  return callbackChannel.hasSubscribers ? callbackChannel.tracePromise(run, message) : run();
}

function endDeliverySpan(span: Span, state: DeliveryFacts, outcome: CallbackOutcome, status: number, body: unknown, adapterRan: boolean, thrown: unknown): void {
  span.setAttribute(ATTR.outcome, outcome);
  span.setAttribute(ATTR.status, status);
  if (state.orderId !== undefined) span.setAttribute(ATTR.orderId, state.orderId);
  if (adapterRan && state.context.attempt !== undefined) span.setAttribute(ATTR.attempt, state.context.attempt);
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
