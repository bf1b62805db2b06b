/** The one interface every authentication strategy implements (built-in or the merchant's own). */
import type { SafeLogger } from '../shared/logger.js';
import type { CallbackRequest } from '../shared/http.js';

/**
 * What {@link AuthStrategy.authenticate} answers: `{ ok: true, data? }` to accept (`data` reaches the
 * adapter as `context.auth[name]`), or `{ ok: false, status?, reason, headers? }` to refuse with 401
 * (default) or 403; `reason` is logged, never sent; `headers` (e.g. a challenge) are sent with the refusal.
 */
export type AuthOutcome =
  | { ok: true; /** Exposed to the adapter as `context.auth[name]`. */ data?: unknown }
  | { ok: false; status?: 401 | 403; /** For the log only; never sent. */ reason: string; headers?: Record<string, string> };

/**
 * An authentication strategy: what `auth.strategies` takes, and what the built-in `create*Strategy`
 * functions return. Every strategy configured must accept a request for it to reach the adapter.
 */
export interface AuthStrategy {
  /** Short name used in logs and as the key in `context.auth`. */
  readonly name: string;
  /**
   * Secret values the strategy checks against (passwords, tokens, keys): masked in every log line,
   * like those of the built-in strategies. Values shorter than 3 characters are not masked.
   */
  readonly secrets?: readonly string[];
  /**
   * Decides whether a callback request is authentic. May be async. Refuse by returning `{ ok: false }`,
   * not by throwing. Compare secrets with `timingSafeEqualString`.
   *
   * @param request - The request as the binding hands it over (method, path, headers, query, remote address).
   * @param info - The request's logger (secrets masked) and the callback's name.
   */
  authenticate(request: CallbackRequest, info: { log: SafeLogger; callback: string }): AuthOutcome | Promise<AuthOutcome>;
}
