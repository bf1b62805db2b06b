/**
 * `@opentelemetry/api` is an optional peer dependency. It is loaded once, synchronously, when this
 * module is first imported, through `createRequire` (a synchronous `require` from ESM: no top-level
 * await, so `require()` of the kit from CommonJS keeps working); when it is not installed the kit
 * records nothing and never tries again. The API keeps its global providers on `globalThis`, so an
 * SDK registered through the ESM build of the API is seen here too.
 *
 * Cost with no provider registered: `tracer()` and `instruments()` are one global lookup and one
 * identity comparison each; nothing is allocated per request.
 */
import { createRequire } from 'node:module';
import type * as Api from '@opentelemetry/api';
import { INSTRUMENTATION_NAME, METRIC } from './names.js';

export type OtelApi = typeof Api;
export type Span = Api.Span;
export type Context = Api.Context;
export type Tracer = Api.Tracer;

const requireHere = createRequire(import.meta.url);

/** The API, or null when it cannot be loaded (not installed). */
export function loadOtelApi(load: (id: string) => unknown = requireHere): OtelApi | null {
  try {
    const api = load('@opentelemetry/api') as OtelApi;
    return typeof api?.trace?.getTracerProvider === 'function' ? api : null;
  } catch {
    return null;
  }
}

function packageVersion(): string | undefined {
  try {
    return (requireHere('../../package.json') as { version?: string }).version;
  } catch {
    return undefined;
  }
}

export const VERSION = packageVersion();

export interface Instruments {
  callbackDuration: Api.Histogram;
  adapterDuration: Api.Histogram;
  storeDuration: Api.Histogram;
  specDeviations: Api.Counter;
  clientDuration: Api.Histogram;
}

let api: OtelApi | null = loadOtelApi();
let noopTracerProvider: unknown;
let noopMeter: unknown;
let lastTracerProvider: unknown;
let lastTracer: Tracer | null = null;
let lastMeterProvider: unknown;
let lastInstruments: Instruments | null = null;

function reset(): void {
  noopTracerProvider = api ? new api.ProxyTracerProvider().getDelegate() : undefined;
  noopMeter = api?.createNoopMeter();
  lastTracerProvider = lastMeterProvider = undefined;
  lastTracer = null;
  lastInstruments = null;
}
reset();

/** For tests: pretend the API is absent (null) or use another copy; returns the one used before. */
export function useOtelApi(next: OtelApi | null): OtelApi | null {
  const before = api;
  api = next;
  reset();
  return before;
}

export const otelApi = (): OtelApi | null => api;

/** The kit's tracer, or null when no tracer provider is registered (or the API is absent). */
export function tracer(): Tracer | null {
  if (!api) return null;
  const provider = api.trace.getTracerProvider();
  // Duck-typed: the registered proxy may come from another copy of the API (its ESM build).
  const proxy = provider as Partial<Api.ProxyTracerProvider>;
  const delegate = typeof proxy.getDelegate === 'function' ? proxy.getDelegate() : provider;
  if (delegate === noopTracerProvider) return null;
  if (delegate !== lastTracerProvider) {
    lastTracerProvider = delegate;
    lastTracer = provider.getTracer(INSTRUMENTATION_NAME, VERSION);
  }
  return lastTracer;
}

/** The kit's metric instruments, or null when no meter provider is registered (or the API is absent). */
export function instruments(): Instruments | null {
  if (!api) return null;
  const provider = api.metrics.getMeterProvider();
  if (provider === lastMeterProvider) return lastInstruments;
  lastMeterProvider = provider;
  const meter = provider.getMeter(INSTRUMENTATION_NAME, VERSION);
  lastInstruments = meter === noopMeter ? null : createInstruments(meter);
  if (lastInstruments) {
    for (const listener of meterListeners) {
      try {
        listener(meter);
      } catch { /* an observable instrument the meter refuses must not fail a delivery */ }
    }
  }
  return lastInstruments;
}

const meterListeners: Array<(meter: Api.Meter) => void> = [];

/** Called with each new meter of the kit (a meter provider registered or replaced), where observable instruments register their callbacks (holds.ts). */
export function onMeter(listener: (meter: Api.Meter) => void): void {
  meterListeners.push(listener);
}

/** Bucket boundaries (s) of the duration histograms: those of OpenTelemetry's HTTP semantic conventions. */
export const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

function createInstruments(meter: Api.Meter): Instruments {
  const seconds = (name: string, description: string) => meter.createHistogram(name, { unit: 's', description, advice: { explicitBucketBoundaries: SECONDS_BUCKETS } });
  return {
    callbackDuration: seconds(METRIC.callbackDuration, 'Duration of one callback delivery, from kit.handle to its reply'),
    adapterDuration: seconds(METRIC.adapterDuration, 'Duration of one call of a merchant adapter method'),
    storeDuration: seconds(METRIC.storeDuration, 'Duration of one store call'),
    specDeviations: meter.createCounter(METRIC.specDeviations, { unit: '{delivery}', description: 'Deliveries whose payload deviated from the interface specification (accepted in tolerant mode)' }),
    clientDuration: seconds(METRIC.clientDuration, 'Duration of one service operation, retries included'),
  };
}

/** A safe `error.type`: a code made of capitals/digits/underscores, else the error's class name; never a message. */
export function errorType(err: unknown): string {
  const e = err as { code?: unknown; name?: unknown } | null;
  if (typeof e?.code === 'string' && /^[A-Z0-9_]{1,40}$/.test(e.code)) return e.code;
  if (typeof e?.name === 'string' && /^\w{1,60}$/.test(e.name)) return e.name;
  return 'Error';
}
