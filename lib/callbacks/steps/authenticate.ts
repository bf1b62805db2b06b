/**
 * Request-level authentication (before the body is read): runs every configured strategy of
 * lib/auth/ for this callback; all must pass. The MerchantGUID payload check runs after parse.
 */
import { PipelineFailure } from '../../shared/errors.js';
import type { AuthStrategy } from '../../auth/types.js';
import type { StepFactory } from '../state.js';

/** Resolves the strategies of each callback from the options; filled by lib/auth/. */
export type StrategyResolver = (callback: string) => readonly AuthStrategy[];

export const createAuthenticateStep = (resolve: StrategyResolver): StepFactory => () => async (state, next) => {
  for (const strategy of resolve(state.callback)) {
    const outcome = await strategy.authenticate(state.request, { log: state.log, callback: state.callback });
    if (!outcome.ok) {
      const status = outcome.status ?? 401;
      throw new PipelineFailure(status === 403 ? 'FORBIDDEN' : 'UNAUTHORIZED', `auth strategy ${strategy.name} refused: ${outcome.reason}`, undefined, outcome.headers);
    }
    if (outcome.data !== undefined) state.context.auth[strategy.name] = outcome.data;
  }
  return next();
};
