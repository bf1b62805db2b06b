/**
 * A store call of a pipeline step (idempotency, holds) whose failure is answered by the step's own
 * `failed` (which logs and throws its 503): whether the store method rejects or throws before it
 * returns a promise (a plain, non-async method of a custom store). One promise, not an async frame
 * around one; the handler is passed inline (see compose in state.ts: no closure bound to a name is
 * made per call).
 */
import type { PipelineState } from '../state.js';

export function storeCall<T>(state: PipelineState, work: () => Promise<T>, failed: (state: PipelineState, err: unknown) => never): Promise<T> {
  let result: Promise<T>;
  try {
    result = Promise.resolve(work());
  } catch (err) {
    result = Promise.reject(err);
  }
  return result.then(undefined, (err: unknown) => failed(state, err));
}
