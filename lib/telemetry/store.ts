/**
 * The store as the pipeline sees it when telemetry is on: a decorator built once, at kit
 * construction, that reports each call as a `store <operation>` span (child of the recording
 * delivery span it runs for; none outside one) and in `cbk.store.duration`. Locks it hands out are decorated the same way (`store release`,
 * `store saveAndRelease`). A failure sets `error.type` and, when the database answered with an
 * SQLSTATE, `db.response.status_code`. Anything that is not a method falls through to the store itself.
 */
import { methodNames } from '../shared/options.js';
import { currentDelivery } from './delivery.js';
import { ATTR } from './names.js';
import { dbStatusCode, errorType, instruments, otelApi, tracer } from './otel.js';

type AnyFn = (...args: unknown[]) => unknown;

function observed(operation: string, call: () => unknown): unknown {
  const m = instruments();
  // A store span only under a recording delivery span (a sampled-out delivery gets no stray root spans).
  const parent = currentDelivery()?.context;
  if (!m && !parent) return call();
  const api = otelApi()!;
  const span = parent ? tracer()?.startSpan(`store ${operation}`, { kind: api.SpanKind.INTERNAL, attributes: { [ATTR.storeOperation]: operation } }, parent) : undefined;
  const started = performance.now();
  const done = (err?: unknown) => {
    m?.storeDuration.record((performance.now() - started) / 1000, { [ATTR.storeOperation]: operation, [ATTR.result]: err === undefined ? 'ok' : 'error' });
    if (!span) return;
    if (err !== undefined) {
      span.setAttribute(ATTR.errorType, errorType(err));
      // The database's code beside the kit's (ERR_CBK_STORE_CONNECTION says "could not connect", 3D000 says why).
      const status = dbStatusCode(err);
      if (status !== undefined) span.setAttribute(ATTR.dbStatus, status);
      span.setStatus({ code: api.SpanStatusCode.ERROR });
    }
    span.end();
  };
  let value: unknown;
  try {
    value = call();
  } catch (err) {
    done(err ?? new Error('thrown'));
    throw err;
  }
  if (!(value instanceof Promise)) {
    done();
    return value;
  }
  return value.then((v) => {
    done();
    return v;
  }, (err: unknown) => {
    done(err ?? new Error('rejected'));
    throw err;
  });
}

function decorate<T extends object>(target: T, wrapResult: (value: unknown) => unknown): T {
  const out = Object.create(target) as Record<string, unknown>;
  for (const name of methodNames(target)) {
    const fn = (target as Record<string, AnyFn>)[name];
    // defineProperty, not assignment: the kit's store is frozen, and an inherited read-only property refuses `out[name] =`.
    Object.defineProperty(out, name, {
      enumerable: true,
      value: (...args: unknown[]) => {
        if (!instruments() && !currentDelivery()?.context) return fn.apply(target, args);
        const r = observed(name, () => fn.apply(target, args));
        return r instanceof Promise ? r.then(wrapResult) : r;
      },
    });
  }
  return out as T;
}

const isLock = (v: unknown): v is object => typeof (v as { release?: unknown } | null)?.release === 'function';

function wrapLockIn(value: unknown): unknown {
  if (isLock(value)) return decorate(value, (v) => v);
  const claim = value as { lock?: unknown } | null;
  if (claim && isLock(claim.lock)) return { ...claim, lock: decorate(claim.lock, (v) => v) };
  return value;
}

/** The store decorated for telemetry (its methods report; everything else is the store's own). */
export function instrumentStore<S extends object>(store: S): S {
  return decorate(store, wrapLockIn);
}
