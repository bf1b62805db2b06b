/** URL (form) decoding of the configured order fields, exactly once, in the order and its Subs. */
import { decodeOrder } from '../form-decode.js';
import type { StepFactory } from '../state.js';

export const decodeStep: StepFactory = (options) => async (state, next) => {
  if (options.decodeRules.length > 0 && state.entry.decode) decodeOrder(state.input, options.decodeRules);
  return next();
};
