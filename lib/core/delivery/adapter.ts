/**
 * Invokes the merchant's adapter method with a time limit. A throw, a rejection or a timeout never
 * escapes as an unhandled rejection. A timed-out call keeps running: AdapterTimeout carries it
 * (`late`), so the exactly-once module can hold the OrderId lock until it settles and store a late success.
 * The time-out aborts the context's signal (context.ts: created only if the adapter reads it).
 */
import { observeAdapter } from '../../telemetry/callback.js';
import { DeliveryContext } from '../context.js';
import type { Validated } from '../stages/types.js';

export class AdapterTimeout extends Error {
  /** The adapter call, still running. */
  late: Promise<unknown> = Promise.resolve();
  constructor(ms: number) {
    super(`adapter did not settle within ${ms} ms`);
    this.name = 'AdapterTimeout';
  }
}

/** Calls `fn` (a method of `self`) with the delivery's input and its context (built just before, context.ts). */
export function invokeAdapter(delivery: Validated, context: Readonly<DeliveryContext>, fn: (input: unknown, ctx: unknown) => unknown, self: object, timeoutMs: number): Promise<unknown> {
  return observeAdapter(delivery.callback, () => callAdapter(delivery, context, fn, self, timeoutMs)); // telemetry: docs/observability.md
}

function callAdapter(delivery: Validated, context: Readonly<DeliveryContext>, fn: (input: unknown, ctx: unknown) => unknown, self: object, timeoutMs: number): Promise<unknown> {
  const call = Promise.resolve().then(() => fn.call(self, delivery.input, context));
  return new Promise((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      const err = new AdapterTimeout(timeoutMs);
      err.late = call;
      DeliveryContext.abort(context, err);
      reject(err);
    }, timeoutMs); // kept referenced: whoever awaits the delivery gets its 500 even when nothing else runs (cleared when the adapter settles)
    call.then((value) => {
      if (timedOut) delivery.log.warn({}, 'adapter settled after its time-out');
      else {
        clearTimeout(timer);
        resolve(value);
      }
    }, (err: unknown) => {
      if (timedOut) delivery.log.warn({ err }, 'adapter failed after its time-out');
      else {
        clearTimeout(timer);
        reject(err);
      }
    });
  });
}
