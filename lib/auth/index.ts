/** Builds the per-callback list of authentication strategies from the `auth` option. */
import type { StrategyResolver } from '../core/steps/authenticate.js';

export function createAuthResolver(_options: Record<string, unknown>): StrategyResolver {
  return () => [];
}
