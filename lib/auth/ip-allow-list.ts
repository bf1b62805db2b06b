/**
 * IP allow-list strategy: the client address (the binding's: Express `req.ip`, which honours the
 * app's `trust proxy`) must fall in one of the rules, each an address or CIDR range, IPv4 or IPv6.
 * An IPv4-mapped IPv6 address (::ffff:203.0.113.9) matches its IPv4 rule; an IPv4-compatible one
 * (::203.0.113.9, deprecated) is an IPv6 address and does not. Outside the list: 403.
 */
import ipaddr from 'ipaddr.js';
import { invalid } from '../shared/options.js';
import type { AuthStrategy } from './types.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
interface Rule { address: Address; bits: number }

/** One warning per router when X-Forwarded-For arrives while trust proxy is off. */
export interface ForwardedWarningState { warned: boolean }

export const FORWARDED_WARNING =
  'X-Forwarded-For is set but trust proxy is off, so ipAllowList checks the address of the peer (probably your proxy), '
  + 'not the client. Behind a proxy, set the Express app\'s "trust proxy" (or the node handler\'s trustProxy option) '
  + 'to the proxies you run; otherwise ignore the header. Logged once.';

/**
 * ipaddr.parse reads any IPv6 text ending in a dotted quad as IPv4-mapped (`::10.0.0.1` becomes
 * `::ffff:a00:1`): write the quad as two hex groups first, so only `::ffff:a.b.c.d` is IPv4-mapped.
 */
function parseIPv6(text: string): ipaddr.IPv6 {
  const m = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return ipaddr.IPv6.parse(text);
  const [a, b, c, d] = m.slice(2).map(Number);
  if ([a, b, c, d].some((n) => n > 255)) throw new Error('ipaddr: invalid IPv4 part');
  return ipaddr.IPv6.parse(`${m[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`);
}

const parseAddress = (text: string): Address => (text.includes(':') ? parseIPv6(text) : ipaddr.IPv4.parse(text));

function parseRule(rule: unknown, where: string): Rule {
  if (typeof rule !== 'string') return invalid(`Option ${where} must be an IP address or CIDR range string`);
  const text = rule.trim();
  let address: Address;
  let bits: number;
  if (text.includes('/')) {
    const v4 = ipaddr.IPv4.isValidCIDRFourPartDecimal(text);
    if (!v4 && !ipaddr.IPv6.isValidCIDR(text)) return invalid(`Option ${where} is not a valid CIDR range: ${JSON.stringify(rule)}`);
    const slash = text.lastIndexOf('/');
    address = parseAddress(text.slice(0, slash));
    bits = Number(text.slice(slash + 1));
    const network = v4 ? ipaddr.IPv4.networkAddressFromCIDR(text) : ipaddr.IPv6.networkAddressFromCIDR(text);
    if (network.toString() !== address.toString()) {
      return invalid(`Option ${where} has host bits set: ${JSON.stringify(rule)}; did you mean "${network.toString()}/${bits}" (the range) or "${address.toString()}" (one address)?`);
    }
  } else {
    if (!ipaddr.IPv4.isValidFourPartDecimal(text) && !(ipaddr.IPv6.isValid(text) && text.includes(':'))) {
      return invalid(`Option ${where} is not a valid IP address: ${JSON.stringify(rule)}`);
    }
    address = parseAddress(text);
    bits = address.kind() === 'ipv4' ? 32 : 128;
  }
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return { address: (address as ipaddr.IPv6).toIPv4Address(), bits: bits - 96 };
  }
  return { address, bits };
}

/** Parses the client address; IPv4-mapped IPv6 becomes IPv4. Null when it is not an address. */
export function parseClientAddress(value: string | undefined): Address | null {
  if (typeof value !== 'string' || !ipaddr.isValid(value)) return null;
  // Only the canonical dotted-quad IPv4 form ('127.1' or '0x7f.0.0.1' are not client addresses).
  if (!value.includes(':') && !ipaddr.IPv4.isValidFourPartDecimal(value)) return null;
  try {
    // Not ipaddr.process: it also turns the IPv4-compatible form ::a.b.c.d into IPv4.
    const parsed = parseAddress(value);
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) return (parsed as ipaddr.IPv6).toIPv4Address();
    return parsed;
  } catch {
    return null;
  }
}

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
