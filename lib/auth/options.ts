/**
 * The `auth` router option: checked at construction (did-you-mean on unknown keys), turned into
 * the list of strategies of each callback. `auth.perCallback.<callback>` replaces single strategies
 * for that callback (`false` turns one off); every configured strategy must pass.
 */
import { createBasicStrategy, type BasicAuthOptions } from './basic.js';
import { checkObject, fail, invalid } from '../shared/options.js';
import { createHeaderStrategy, type HeaderAuthOptions } from './header.js';
import { createIpAllowListStrategy, type ForwardedWarningState } from './ip-allow-list.js';
import { createJwtStrategy, type JwtAuthOptions } from './jwt.js';
import type { AuthStrategy } from './types.js';
import { createUrlParameterStrategy, type UrlParameterAuthOptions } from './url-parameter.js';

/** The strategies of one callback (or of all, at the top level). */
export interface AuthConfig {
  /** Runs first; an address outside the list gets 403. */
  ipAllowList?: readonly string[] | false;
  urlParameter?: UrlParameterAuthOptions | false;
  header?: HeaderAuthOptions | false;
  /** Not together with `jwt` on one callback (both read the Authorization header). */
  basic?: BasicAuthOptions | false;
  jwt?: JwtAuthOptions | false;
  /** Your own strategies (the AuthStrategy interface), run after the built-in ones. */
  strategies?: readonly AuthStrategy[];
}

/** The `auth` option; `Name` is the callback names (the kit passes its own). */
export interface AuthOptions<Name extends string = string> extends AuthConfig {
  /** Per-callback replacements, e.g. `{ getCheckoutCartInfo: { urlParameter: {...} } }`. */
  perCallback?: Partial<Record<Name, AuthConfig>>;
}

export interface ResolvedAuth {
  byCallback: ReadonlyMap<string, readonly AuthStrategy[]>;
  /** Every configured secret value, for the log redaction. */
  secrets: readonly string[];
}

const BUILT_IN = ['ipAllowList', 'urlParameter', 'header', 'basic', 'jwt'] as const;
type BuiltIn = (typeof BUILT_IN)[number];
const CONFIG_KEYS = [...BUILT_IN, 'strategies'];
type Built = Partial<Record<BuiltIn, AuthStrategy | false>> & { strategies?: readonly AuthStrategy[] };

function customStrategies(value: unknown, where: string): AuthStrategy[] {
  if (!Array.isArray(value)) return invalid(`Option ${where} must be an array of strategies ({ name, authenticate(request, info) })`);
  const names = new Set<string>();
  return value.map((s, i) => {
    const name = (s as AuthStrategy)?.name;
    if (typeof name !== 'string' || name.length === 0 || typeof (s as AuthStrategy).authenticate !== 'function') {
      invalid(`Option ${where}[${i}] must implement AuthStrategy: a non-empty name and an authenticate(request, info) function`);
    }
    if ((BUILT_IN as readonly string[]).includes(name) || names.has(name)) {
      invalid(`Option ${where}[${i}] is named ${JSON.stringify(name)}, which is taken (built-in strategies and each custom one need distinct names: results land in context.auth[name])`);
    }
    names.add(name);
    const secrets = (s as AuthStrategy).secrets;
    if (secrets !== undefined && (!Array.isArray(secrets) || secrets.some((v) => typeof v !== 'string'))) {
      invalid(`Option ${where}[${i}].secrets must be an array of strings (the values to mask in logs)`);
    }
    return s as AuthStrategy;
  });
}

function build(config: Record<string, unknown>, where: string, forwarded: ForwardedWarningState, cartTokenParameter: string): Built {
  const out: Built = {};
  for (const key of BUILT_IN) {
    const v = config[key];
    if (v === undefined) continue;
    if (v === false) { out[key] = false; continue; }
    const at = `${where}.${key}`;
    if (key === 'ipAllowList') out.ipAllowList = createIpAllowListStrategy(v as string[], at, forwarded);
    else if (key === 'urlParameter') out.urlParameter = createUrlParameterStrategy(v as UrlParameterAuthOptions, at);
    else if (key === 'header') out.header = createHeaderStrategy(v as HeaderAuthOptions, at);
    else if (key === 'basic') out.basic = createBasicStrategy(v as BasicAuthOptions, at);
    else out.jwt = createJwtStrategy(v as JwtAuthOptions, at);
  }
  // The strategy refuses the service's own parameter names; a custom cartTokenParameter is one too.
  const url = config.urlParameter as { name?: unknown } | false | undefined;
  if (url && url.name === cartTokenParameter) {
    invalid(`Option ${where}.urlParameter.name must be a parameter of your own, not ${cartTokenParameter} (the cartTokenParameter option names it: the service sends the cart token there)`);
  }
  if (config.strategies !== undefined) out.strategies = customStrategies(config.strategies, `${where}.strategies`);
  return out;
}

/**
 * Resolves `options.auth` for the given callbacks (the names `auth.perCallback` accepts).
 * `cartTokenParameter`: the query parameter that carries the cart token (the kit's option of that name),
 * refused as the name of a urlParameter secret.
 */
export function resolveAuthOptions(value: unknown, callbacks: readonly string[], cartTokenParameter = 'merchantCartToken'): ResolvedAuth {
  const byCallback = new Map<string, readonly AuthStrategy[]>();
  if (value === undefined) return { byCallback, secrets: [] };
  const auth = checkObject(value, 'auth', [...CONFIG_KEYS, 'perCallback']);
  const forwarded: ForwardedWarningState = { warned: false };
  const top = build(auth, 'auth', forwarded, cartTokenParameter);
  const overrides = new Map<string, Built>();
  if (auth.perCallback !== undefined) {
    const per = checkObject(auth.perCallback, 'auth.perCallback', callbacks);
    for (const [name, config] of Object.entries(per)) {
      const where = `auth.perCallback.${name}`;
      const checked = checkObject(config, where, CONFIG_KEYS);
      overrides.set(name, build(checked, where, forwarded, cartTokenParameter));
    }
  }
  const secrets = new Set<string>();
  for (const callback of callbacks) {
    const merged: Built = { ...top, ...overrides.get(callback) };
    if (merged.basic && merged.jwt) {
      const where = overrides.get(callback)?.basic || overrides.get(callback)?.jwt ? `auth.perCallback.${callback}` : 'auth';
      fail('ERR_CBK_OPTION_INVALID', `Option ${where} sets both basic and jwt for ${callback}, but both read the Authorization header; keep one (or set the other to false under auth.perCallback.${callback})`);
    }
    const list: AuthStrategy[] = [];
    for (const key of BUILT_IN) {
      const s = merged[key];
      if (!s) continue;
      list.push(s);
      for (const secret of s.secrets ?? []) secrets.add(secret);
    }
    for (const s of merged.strategies ?? []) {
      list.push(s);
      for (const secret of s.secrets ?? []) secrets.add(secret);
    }
    byCallback.set(callback, Object.freeze(list));
  }
  return { byCallback, secrets: [...secrets] };
}
