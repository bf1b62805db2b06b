/**
 * Custom header strategy: the request must carry `name` with one of the configured values
 * (current and previous, for rotation), compared in constant time.
 */
import { safeEqualAny } from '../shared/compare.js';
import { checkObject, secretList } from '../shared/options.js';
import { checkName, single } from './config.js';
import type { AuthStrategy } from './types.js';

export interface HeaderAuthOptions {
  /** Header name, e.g. 'X-Callback-Secret' (matched case-insensitively). */
  name: string;
  /** The expected value, or [current, previous] while rotating. */
  value: string | readonly string[];
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

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
