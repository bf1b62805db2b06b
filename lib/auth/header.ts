/**
 * Custom header strategy: the request must carry `name` with one of the configured values
 * (current and previous, for rotation), compared in constant time.
 */
import { safeEqualAny } from '../shared/compare.js';
import { checkObject, secretList } from '../shared/options.js';
import { checkName, single } from './config.js';
import type { AuthStrategy } from './types.js';

/** Options of `auth.header` ({@link createHeaderStrategy}): a shared secret sent in a header of your choice. */
export interface HeaderAuthOptions {
  /** Header name, e.g. 'X-Callback-Secret' (matched case-insensitively). */
  name: string;
  /** The expected value, or [current, previous] while rotating. */
  value: string | readonly string[];
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Authentication by a secret header (e.g. `X-Callback-Secret`), as the kit builds it from `auth.header`.
 * The value is compared in constant time and masked in logs; a missing, repeated or wrong header is 401.
 *
 * @param options - The header `name` (case-insensitive) and its `value` (or [current, previous]).
 * @param where - The option path named in error messages (default `'auth.header'`).
 * @throws KitError `ERR_CBK_OPTION_INVALID` for a name that is no HTTP header token or an empty value;
 * `ERR_CBK_OPTION_UNKNOWN` for an unknown key.
 */
export function createHeaderStrategy(options: HeaderAuthOptions, where = 'auth.header'): AuthStrategy & { secrets: readonly string[] } {
  const o = checkObject(options, where, ['name', 'value']);
  const name = checkName(o.name, `${where}.name`, TOKEN, 'an HTTP header name such as "X-Callback-Secret"').toLowerCase();
  const values = secretList(o.value, `${where}.value`);
  return {
    name: 'header',
    secrets: values,
    authenticate(request) {
      const got = single(request.headers[name]);
      if (got === undefined) return { ok: false, reason: `header ${name} missing` };
      if (got === null) return { ok: false, reason: `header ${name} sent more than once` };
      if (!safeEqualAny(got, values)) return { ok: false, reason: `header ${name} does not match` };
      return { ok: true };
    },
  };
}
