/**
 * Custom URL parameter strategy: the query string must carry `name` once, with one of the
 * configured values (current and previous, for rotation), compared in constant time.
 */
import { safeEqualAny } from '../shared/compare.js';
import { checkObject, invalid, secretList } from '../shared/options.js';
import { checkName, single } from './config.js';
import type { AuthStrategy } from './types.js';

/**
 * Options of `auth.urlParameter` ({@link createUrlParameterStrategy}): a secret carried in a query
 * parameter of the callback URLs you register with the service.
 */
export interface UrlParameterAuthOptions {
  /** Query parameter name, e.g. 'key' (case-sensitive). */
  name: string;
  /** The expected value, or [current, previous] while rotating. */
  value: string | readonly string[];
}

const PARAM = /^[A-Za-z0-9._~-]+$/;
/** Parameters the service itself sends: using one of them as the secret would be a mistake. */
const RESERVED = ['merchantCartToken', 'countryCode', 'currencyCode'];

/**
 * Authentication by a secret query parameter (e.g. `?key=…` in the callback URLs), as the kit builds it
 * from `auth.urlParameter`. Compared in constant time and masked in logs; a missing,
 * repeated or wrong parameter is 401.
 *
 * @param options - The parameter `name` (case-sensitive; not one the service sends itself) and its `value`.
 * @param where - The option path named in error messages (default `'auth.urlParameter'`).
 * @throws KitError `ERR_CBK_OPTION_INVALID` for a name with other characters than letters, digits and
 * `. _ ~ -`, a name the service itself sends (`merchantCartToken`, `countryCode`, `currencyCode`), or an
 * empty value; `ERR_CBK_OPTION_UNKNOWN` for an unknown key.
 */
export function createUrlParameterStrategy(options: UrlParameterAuthOptions, where = 'auth.urlParameter'): AuthStrategy & { secrets: readonly string[] } {
  const o = checkObject(options, where, ['name', 'value']);
  const name = checkName(o.name, `${where}.name`, PARAM, 'a query parameter name (letters, digits, . _ ~ -)');
  if (RESERVED.includes(name)) invalid(`Option ${where}.name must be a parameter of your own, not ${name} (the service sends that one)`);
  const values = secretList(o.value, `${where}.value`);
  return {
    name: 'urlParameter',
    secrets: values,
    authenticate(request) {
      const got = single(request.query[name]);
      if (got === undefined) return { ok: false, reason: `query parameter ${name} missing` };
      if (got === null) return { ok: false, reason: `query parameter ${name} sent more than once` };
      if (!safeEqualAny(got, values)) return { ok: false, reason: `query parameter ${name} does not match` };
      return { ok: true };
    },
  };
}
