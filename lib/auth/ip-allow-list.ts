/**
 * IP allow-list strategy: the client address (the binding's: Express `req.ip`, which honours the
 * app's `trust proxy`) must fall in one of the rules, each an address or CIDR range, IPv4 or IPv6.
 * An IPv4-mapped IPv6 address (::ffff:203.0.113.9) matches its IPv4 rule; an IPv4-compatible one
 * (::203.0.113.9, deprecated) is an IPv6 address and does not. Outside the list: 403.
 */
import { parseIpAddress, parseIpRange, type IpRange } from '../shared/cidr.js';
import { invalid } from '../shared/options.js';
import type { AuthStrategy } from './types.js';

/** One warning per router when X-Forwarded-For arrives while trust proxy is off. */
export interface ForwardedWarningState { warned: boolean }

export const FORWARDED_WARNING =
  'X-Forwarded-For is set but trust proxy is off, so ipAllowList checks the address of the peer (probably your proxy), '
  + 'not the client. Behind a proxy, set the Express app\'s "trust proxy" (or the node handler\'s trustProxy option) '
  + 'to the proxies you run; otherwise ignore the header. Logged once.';

function parseRule(rule: unknown, where: string): IpRange {
  const parsed = parseIpRange(rule);
  return 'error' in parsed ? invalid(`Option ${where} ${parsed.error}`) : parsed;
}

/** Parses the client address; IPv4-mapped IPv6 becomes IPv4. Null when it is not an address. */
export const parseClientAddress = parseIpAddress;

/**
 * Authentication by client address (`auth.ipAllowList`): accepts a request whose address is in one of
 * the listed addresses or CIDR ranges (IPv4 or IPv6; IPv4-mapped IPv6 counts as IPv4), refuses every
 * other with 403 FORBIDDEN. `X-Forwarded-For` is only read when the binding trusts the proxy
 * (`trustProxy`); otherwise the kit warns once (`CBK_FORWARDED_UNTRUSTED`).
 *
 * @param allowList - Addresses or CIDR ranges, e.g. `['203.0.113.0/24', '2001:db8::/32']` (non-empty).
 * @param where - The option path named in error messages (default `'auth.ipAllowList'`).
 * @param forwarded - Internal: shares the "warned once" state between strategies of one kit.
 * @throws KitError `ERR_CBK_OPTION_INVALID` for an empty list or an entry that is no address or range.
 */
export function createIpAllowListStrategy(
  allowList: readonly string[], where = 'auth.ipAllowList', forwarded: ForwardedWarningState = { warned: false },
): AuthStrategy {
  if (!Array.isArray(allowList) || allowList.length === 0) {
    invalid(`Option ${where} must be a non-empty array of addresses or CIDR ranges, e.g. ['203.0.113.0/24', '2001:db8::/32']`);
  }
  const rules = allowList.map((r, i) => parseRule(r, `${where}[${i}]`));
  return {
    name: 'ipAllowList',
    authenticate(request, info) {
      if (request.headers['x-forwarded-for'] !== undefined && request.trustProxy !== true && !forwarded.warned) {
        forwarded.warned = true;
        info.log.warn({ code: 'CBK_FORWARDED_UNTRUSTED' }, FORWARDED_WARNING);
      }
      const client = parseClientAddress(request.remoteAddress);
      if (!client) return { ok: false, status: 403, reason: 'client address unknown' };
      const allowed = rules.some((r) => r.address.kind() === client.kind() && client.match(r.address, r.bits));
      return allowed ? { ok: true } : { ok: false, status: 403, reason: `client address ${client.toString()} is not in the allow-list` };
    },
  };
}
