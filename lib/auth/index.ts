/** Builds the per-callback list of authentication strategies from the `auth` option. */
import { KNOWN_OPTION_KEYS } from '../callbacks/options.js';
import type { StrategyResolver } from '../callbacks/steps/authenticate.js';
import type { CallbackName } from '../callbacks/types.js';
import { resolveAuthOptions } from './options.js';

KNOWN_OPTION_KEYS.add('auth');

export type AuthResolver = StrategyResolver & {
  /** The configured secret values (passwords, header/parameter values, HS secrets), masked in every log line. */
  readonly secrets: readonly string[];
};

/** Checks `options.auth` (KitError on a mistake) and returns the strategies of each callback. */
export function createAuthResolver(options: Record<string, unknown>): AuthResolver {
  const { byCallback, secrets } = resolveAuthOptions(options.auth);
  const resolver = (callback: string) => byCallback.get(callback as CallbackName) ?? [];
  return Object.assign(resolver, { secrets: secrets.filter((s) => s.length >= 3) });
}

export { createBasicStrategy, type BasicAuthOptions } from './basic.js';
export { createHeaderStrategy, type HeaderAuthOptions } from './header.js';
export { createIpAllowListStrategy } from './ip-allow-list.js';
export { createJwtStrategy, type JwtAuthOptions, type PublicKeyInput } from './jwt.js';
export { createUrlParameterStrategy, type UrlParameterAuthOptions } from './url-parameter.js';
export type { AuthConfig, AuthOptions } from './options.js';
export { safeEqual as safeCompare } from '../shared/compare.js';
export type { AuthOutcome, AuthStrategy } from './types.js';
