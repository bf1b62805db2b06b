/**
 * Invokes the merchant's adapter method with a time limit. A throw, a rejection or a timeout never
 * escapes as an unhandled rejection. A timed-out call keeps running: AdapterTimeout carries it
 * (`late`), so the idempotency step can hold the OrderId lock until it settles and store a late success.
 * The time-out aborts the context's signal (context.ts: created only if the adapter reads it).
 */
import { observeAdapter } from '../../telemetry/callback.js';
import { abortContext } from '../context.js';
import type { PipelineState } from '../state.js';

export class AdapterTimeout extends Error {
  /** The adapter call, still running. */
  late: Promise<unknown> = Promise.resolve();
  constructor(ms: number) {
    super(`adapter did not settle within ${ms} ms`);
    this.name = 'AdapterTimeout';
  }
}

export function invokeAdapter(state: PipelineState, fn: (input: unknown, ctx: unknown) => unknown, self: object, timeoutMs: number): Promise<unknown> {
  return observeAdapter(state.callback, () => callAdapter(state, fn, self, timeoutMs)); // telemetry: docs/observability.md
}

function callAdapter(state: PipelineState, fn: (input: unknown, ctx: unknown) => unknown, self: object, timeoutMs: number): Promise<unknown> {
  const { context } = state;
  const call = Promise.resolve().then(() => fn.call(self, state.input, context));
  return new Promise((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      const err = new AdapterTimeout(timeoutMs);
      err.late = call;
      abortContext(context, err);
      reject(err);
    }, timeoutMs);
    timer.unref?.();
    call.then((value) => {
      if (timedOut) state.log.warn({}, 'adapter settled after its time-out');
      else {
        clearTimeout(timer);
        resolve(value);
      }
    }, (err: unknown) => {
      if (timedOut) state.log.warn({ err }, 'adapter failed after its time-out');
      else {
        clearTimeout(timer);
        reject(err);
      }
    });
  });
}
