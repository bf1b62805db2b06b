/** Builds the per-callback list of authentication strategies from the `auth` option. */
import { isMaskableSecret } from '../shared/logger.js';
import { resolveAuthOptions } from './options.js';
import type { AuthStrategy } from './types.js';

/** The strategies that guard a callback, by callback name. */
export type StrategyResolver = (callback: string) => readonly AuthStrategy[];

export type AuthResolver = StrategyResolver & {
  /** The configured secret values (passwords, header/parameter values, HS secrets), masked in every log line. */
  readonly secrets: readonly string[];
};

/**
 * Resolves the `auth` option (KitError on a mistake) for the given callbacks: the strategies of each.
 * `cartTokenParameter` (default `merchantCartToken`) cannot be a urlParameter secret's name.
 */
export function createAuthResolver(auth: unknown, callbacks: readonly string[], cartTokenParameter?: string): AuthResolver {
  const { byCallback, secrets } = resolveAuthOptions(auth, callbacks, cartTokenParameter);
  const resolver = (callback: string) => byCallback.get(callback) ?? [];
  return Object.assign(resolver, { secrets: secrets.filter(isMaskableSecret) });
}

export { createBasicStrategy, type BasicAuthOptions } from './basic.js';
export { createHeaderStrategy, type HeaderAuthOptions } from './header.js';
export { createIpAllowListStrategy } from './ip-allow-list.js';
export { createJwtStrategy, type JwtAuthOptions, type PublicKeyInput } from './jwt.js';
export { createUrlParameterStrategy, type UrlParameterAuthOptions } from './url-parameter.js';
export type { AuthConfig, AuthOptions } from './options.js';
export { safeEqual as timingSafeEqualString } from '../shared/compare.js';
export type { AuthOutcome, AuthStrategy } from './types.js';
