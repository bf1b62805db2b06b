/**
 * Request-level authentication (before the body is read): runs every configured strategy of
 * lib/auth/ for this callback; all must pass. The MerchantGUID payload check runs after parse.
 *
 * Not an `async` function: a strategy that answers at once (the HS* JWT path, a header secret) costs
 * no promise here, and `next()`'s promise is handed on as it is. A failure is still a rejection.
 */
import { PipelineFailure } from '../../shared/errors.js';
import type { AuthOutcome, AuthStrategy } from '../../auth/types.js';
import type { Next, PipelineState, StepFactory, StepReply } from '../state.js';

function apply(strategy: AuthStrategy, outcome: AuthOutcome, state: PipelineState): void {
  if (!outcome.ok) {
    const status = outcome.status ?? 401;
    throw new PipelineFailure(status === 403 ? 'FORBIDDEN' : 'UNAUTHORIZED', `auth strategy ${strategy.name} refused: ${outcome.reason}`, undefined, outcome.headers);
  }
  if (outcome.data !== undefined) state.context.auth[strategy.name] = outcome.data;
}

/** Strategies `from` on, one after the other; a strategy's promise is waited for before the next runs. */
function run(strategies: readonly AuthStrategy[], from: number, state: PipelineState, next: Next): Promise<StepReply> {
  for (let i = from; i < strategies.length; i++) {
    const strategy = strategies[i];
    const outcome = strategy.authenticate(state.request, { log: state.log, callback: state.callback });
    if (typeof (outcome as PromiseLike<AuthOutcome>)?.then === 'function') {
      return Promise.resolve(outcome).then((settled) => {
        apply(strategy, settled, state);
        return run(strategies, i + 1, state, next);
      });
    }
    apply(strategy, outcome as AuthOutcome, state);
  }
  return next();
}

export const authenticateStep: StepFactory = (options) => (state, next) => {
  try {
    return run(options.auth(state.callback), 0, state, next);
  } catch (err) {
    return Promise.reject(err);
  }
};
