/**
 * Invokes the merchant's adapter method with a time limit. A throw, a rejection or a timeout never
 * escapes as an unhandled rejection. A timed-out call keeps running: AdapterTimeout carries it
 * (`late`), so the idempotency step can hold the OrderId lock until it settles and store a late success.
 */
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
  const controller = new AbortController();
  state.context.signal = controller.signal;
  const call = Promise.resolve().then(() => fn.call(self, state.input, state.context));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new AdapterTimeout(timeoutMs);
      err.late = call;
      controller.abort(err);
      reject(err);
    }, timeoutMs);
    timer.unref?.();
  });
  call.then(
    () => { if (controller.signal.aborted) state.log.warn({}, 'adapter settled after its time-out'); },
    (err) => { if (controller.signal.aborted) state.log.warn({ err }, 'adapter failed after its time-out'); },
  );
  return Promise.race([call, timeout]).finally(() => clearTimeout(timer));
}
