/**
 * The one parser of IP addresses and CIDR ranges of the kit (auth.ipAllowList, the node binding's
 * trustProxy): canonical dotted-quad IPv4 or IPv6, a range without host bits set, and an
 * IPv4-mapped IPv6 range (`::ffff:203.0.113.0/120`) read as its IPv4 range.
 */
import ipaddr from 'ipaddr.js';

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;
export interface IpRange { address: IpAddress; bits: number }

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

const parseAddress = (text: string): IpAddress => (text.includes(':') ? parseIPv6(text) : ipaddr.IPv4.parse(text));

/** An address or CIDR range, or the reason it is none (to follow "Option <name> "). */
export function parseIpRange(value: unknown): IpRange | { error: string } {
  if (typeof value !== 'string') return { error: 'must be an IP address or CIDR range string' };
  const text = value.trim();
  let address: IpAddress;
  let bits: number;
  if (text.includes('/')) {
    const v4 = ipaddr.IPv4.isValidCIDRFourPartDecimal(text);
    if (!v4 && !ipaddr.IPv6.isValidCIDR(text)) return { error: `is not a valid CIDR range: ${JSON.stringify(value)}` };
    const slash = text.lastIndexOf('/');
    address = parseAddress(text.slice(0, slash));
    bits = Number(text.slice(slash + 1));
    const network = v4 ? ipaddr.IPv4.networkAddressFromCIDR(text) : ipaddr.IPv6.networkAddressFromCIDR(text);
    if (network.toString() !== address.toString()) {
      return { error: `has host bits set: ${JSON.stringify(value)}; did you mean "${network.toString()}/${bits}" (the range) or "${address.toString()}" (one address)?` };
    }
  } else {
    if (!ipaddr.IPv4.isValidFourPartDecimal(text) && !(ipaddr.IPv6.isValid(text) && text.includes(':'))) {
      return { error: `is not a valid IP address: ${JSON.stringify(value)}` };
    }
    address = parseAddress(text);
    bits = address.kind() === 'ipv4' ? 32 : 128;
  }
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return { address: (address as ipaddr.IPv6).toIPv4Address(), bits: bits - 96 };
  }
  return { address, bits };
}

/** A client address (canonical forms only: '127.1' or '0x7f.0.0.1' are not addresses); IPv4-mapped IPv6 becomes IPv4. */
export function parseIpAddress(value: string | undefined): IpAddress | null {
  if (typeof value !== 'string' || !ipaddr.isValid(value)) return null;
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

/** Whether `address` lies in one of `ranges` (same family; an IPv4 address also matches an IPv6 range of its mapped form). */
export function inIpRanges(address: IpAddress, ranges: readonly IpRange[]): boolean {
  for (const { address: net, bits } of ranges) {
    if (address.kind() === net.kind()) {
      if (address.match(net, bits)) return true;
    } else if (address.kind() === 'ipv4' && (address as ipaddr.IPv4).toIPv4MappedAddress().match(net, bits)) {
      return true;
    }
  }
  return false;
}
