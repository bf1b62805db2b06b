/**
 * URL (form) decoding of the configured order fields, exactly once, in the order and its Subs. In the
 * chain of an entry with `decode` when the `decode` option leaves any field to decode.
 */
import { decodeOrder } from '../form-decode.js';
import type { StepFactory } from '../state.js';

// Not `async` (like the other request-side steps): `next()`'s promise is handed on as it is; a failure is a rejection.
export const decodeStep: StepFactory = (options) => (state, next) => {
  try {
    decodeOrder(state.input, options.decodeRules);
  } catch (err) {
    return Promise.reject(err);
  }
  return next();
};
