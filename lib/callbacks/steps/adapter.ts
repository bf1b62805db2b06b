/**
 * Invokes the merchant's adapter method with a time limit. A throw, a rejection or a timeout never
 * escapes as an unhandled rejection: the late settlement of a timed-out call is swallowed and logged.
 */
import type { PipelineState } from '../state.js';

export class AdapterTimeout extends Error {
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
      controller.abort(new AdapterTimeout(timeoutMs));
      reject(new AdapterTimeout(timeoutMs));
    }, timeoutMs);
    timer.unref?.();
  });
  call.then(
    () => { if (controller.signal.aborted) state.log.warn({}, 'adapter settled after its time-out; its result was discarded'); },
    (err) => { if (controller.signal.aborted) state.log.warn({ err }, 'adapter failed after its time-out'); },
  );
  return Promise.race([call, timeout]).finally(() => clearTimeout(timer));
}
