/**
 * URL (form) decoding of the configured order fields, exactly once, in the order and its Subs. In the
 * chain of an entry with `decode` when the `decode` option leaves any field to decode.
 */
import { decodeOrder } from '../form-decode.js';
import type { StepFactory } from '../state.js';

export const decodeStep: StepFactory = (options) => async (state, next) => {
  decodeOrder(state.input, options.decodeRules);
  return next();
};
