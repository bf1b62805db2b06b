/**
 * `@opentelemetry/api` is an optional peer dependency. It is imported, once, with a dynamic `import()`
 * of its name (no `createRequire`, nothing Node-only: the same code runs on Node, Deno, Bun and in a
 * Worker bundle, where the import fails and the kit records nothing); a bundler does not follow the
 * import (the name is not a literal), so a bundle without the package builds. It is imported only once
 * a tracer or meter provider has been registered: the API keeps its registered providers on `globalThis`
 * (under `Symbol.for('opentelemetry.js.api.1')`), so while none is there no span or metric could be
 * recorded and nothing is loaded (a cold start without an SDK pays nothing). The first delivery or
 * service call that finds a provider registered waits for the import (`otelPending()`), and is
 * recorded like every other. An SDK registered through another copy of the API (its CommonJS build)
 * is seen too: the providers are global.
 *
 * Cost with no provider registered: `tracer()` and `instruments()` are one global lookup and one
 * identity comparison each; nothing is allocated per request.
 */
import type * as Api from '@opentelemetry/api';
import { VERSION } from '../generated/version.js';
import { INSTRUMENTATION_NAME, METRIC } from './names.js';

export type OtelApi = typeof Api;
export type Span = Api.Span;
export type Context = Api.Context;
export type Tracer = Api.Tracer;

const OTEL_API = '@opentelemetry/api';
/** `import()` of a module by a name that is not a literal: bundlers (esbuild, webpack) leave it to the run time. */
const importByName = (id: string): Promise<unknown> => import(/* webpackIgnore: true */ /* @vite-ignore */ id);

/** The API in what an import answered (its namespace, or a CommonJS interop's `default`), or null. */
export function pickOtelApi(candidate: unknown): OtelApi | null {
  for (const c of [candidate, (candidate as { default?: unknown } | null)?.default]) {
    if (typeof (c as Partial<OtelApi> | null | undefined)?.trace?.getTracerProvider === 'function') return c as OtelApi;
  }
  return null;
}

/** The API, or null when it cannot be loaded (not installed, or not the API). */
export async function loadOtelApi(load: (id: string) => Promise<unknown> | unknown = importByName): Promise<OtelApi | null> {
  try {
    return pickOtelApi(await load(OTEL_API));
  } catch {
    return null;
  }
}

export { VERSION };

export interface Instruments {
  callbackDuration: Api.Histogram;
  adapterDuration: Api.Histogram;
  storeDuration: Api.Histogram;
  specDeviations: Api.Counter;
  clientDuration: Api.Histogram;
}

let api: OtelApi | null = null;
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

/** The search for the API while it has not settled, else null; `searched`: one was started (or useOtelApi decided). */
let pending: Promise<void> | null = null;
let searched = false;

/** Where the API (any copy of major version 1) keeps the providers registered through it. */
const API_GLOBAL = Symbol.for('opentelemetry.js.api.1');

/** Looks for the API (`load`: how; by default the import() above); deliveries and calls wait until it settles. */
export function searchOtelApi(load?: (id: string) => Promise<unknown> | unknown): Promise<void> {
  searched = true;
  const search: Promise<void> = loadOtelApi(load).then((found) => {
    if (pending !== search) return; // useOtelApi, or a later search, decided meanwhile
    pending = null;
    api = found;
    reset();
    instruments(); // a meter provider registered already gets the observable gauges now, not at the first delivery
  });
  pending = search;
  return search;
}

/**
 * A promise to wait for while the API is being looked for, else null. The search starts here, the first
 * time a provider is found registered; with none registered there is nothing to record and nothing to wait for.
 */
export function otelPending(): Promise<void> | null {
  if (pending || searched) return pending;
  const registered = (globalThis as Record<symbol, { trace?: unknown; metrics?: unknown } | undefined>)[API_GLOBAL];
  if (!registered?.trace && !registered?.metrics) return null;
  return searchOtelApi();
}

/** For tests: pretend the API is absent (null) or use another copy; returns the one used before. */
export function useOtelApi(next: OtelApi | null): OtelApi | null {
  const before = api;
  pending = null;
  searched = true;
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

/**
 * An SQLSTATE: five digits or capitals with at least one digit, not an errno name (`EPIPE`, `E2BIG`
 * start with E; no SQLSTATE class does).
 */
const SQLSTATE = /^(?=[0-9A-Z]*[0-9])(?!E)[0-9A-Z]{5}$/;

/**
 * The database's own code of a store failure, for `db.response.status_code` (OpenTelemetry's database
 * conventions): the SQLSTATE of the error or of its `cause`, a few levels down (PostgresStore's
 * `ERR_CBK_STORE_CONNECTION` keeps pg's error as its cause). Only the code, matched as an SQLSTATE:
 * never a message, a host or a connection string. Undefined when there is none (ECONNREFUSED is not
 * the database's answer).
 */
export function dbStatusCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && typeof e === 'object' && e !== null; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && SQLSTATE.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
