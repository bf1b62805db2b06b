/**
 * Request-level authentication (before the body is read): runs every configured strategy of
 * lib/auth/ for this callback; all must pass. The MerchantGUID payload check runs after parse.
 */
import { PipelineFailure } from '../../shared/errors.js';
import type { StepFactory } from '../state.js';

export const authenticateStep: StepFactory = (options) => async (state, next) => {
  for (const strategy of options.auth(state.callback)) {
    const outcome = await strategy.authenticate(state.request, { log: state.log, callback: state.callback });
    if (!outcome.ok) {
      const status = outcome.status ?? 401;
      throw new PipelineFailure(status === 403 ? 'FORBIDDEN' : 'UNAUTHORIZED', `auth strategy ${strategy.name} refused: ${outcome.reason}`, undefined, outcome.headers);
    }
    if (outcome.data !== undefined) state.context.auth[strategy.name] = outcome.data;
  }
  return next();
};
