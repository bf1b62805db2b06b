/** The one interface every authentication strategy implements (built-in or the merchant's own). */
import type { SafeLogger } from '../shared/logger.js';
import type { CallbackRequest } from '../shared/http.js';

export type AuthOutcome =
  | { ok: true; /** Exposed to the adapter as `context.auth[name]`. */ data?: unknown }
  | { ok: false; status?: 401 | 403; /** For the log only; never sent. */ reason: string; headers?: Record<string, string> };

export interface AuthStrategy {
  /** Short name used in logs and as the key in `context.auth`. */
  readonly name: string;
  /**
   * Secret values the strategy checks against (passwords, tokens, keys): masked in every log line,
   * like those of the built-in strategies. Values shorter than 3 characters are not masked.
   */
  readonly secrets?: readonly string[];
  authenticate(request: CallbackRequest, info: { log: SafeLogger; callback: string }): AuthOutcome | Promise<AuthOutcome>;
}
