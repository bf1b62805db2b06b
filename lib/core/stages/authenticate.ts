/**
 * Request-level authentication (before the body is read): runs every configured strategy of
 * lib/auth/ for this callback; all must pass. Returns what the strategies learnt, by strategy name
 * (`context.auth`). The MerchantGUID payload check runs after parse (merchant-guid.ts).
 */
import { PipelineFailure } from '../../shared/errors.js';
import type { ResolvedOptions } from '../options.js';
import type { Started } from './types.js';

export async function authenticate(options: ResolvedOptions, delivery: Started): Promise<Record<string, unknown>> {
  const auth: Record<string, unknown> = {};
  for (const strategy of options.auth(delivery.callback)) {
    const outcome = await strategy.authenticate(delivery.request, { log: delivery.log, callback: delivery.callback });
    if (!outcome.ok) {
      const status = outcome.status ?? 401;
      throw new PipelineFailure(status === 403 ? 'FORBIDDEN' : 'UNAUTHORIZED', `auth strategy ${strategy.name} refused: ${outcome.reason}`, undefined, outcome.headers);
    }
    if (outcome.data !== undefined) auth[strategy.name] = outcome.data;
  }
  return auth;
}
