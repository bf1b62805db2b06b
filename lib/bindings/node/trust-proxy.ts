/**
 * The `trustProxy` option of the node:http binding: which client address a request is given.
 *
 * - `false` (default) or `0` or `[]`: the socket's remote address; X-Forwarded-For is ignored.
 * - `true`: every hop is trusted; the leftmost X-Forwarded-For entry (the original client).
 * - a number n: the socket peer and the n-1 hops before it are proxies; the address n hops back
 *   (counted from the socket, through X-Forwarded-For right to left) is the client.
 * - an address, CIDR or named range ('loopback', 'linklocal', 'uniquelocal'), a comma-separated
 *   string of them, or an array of them: walking from the socket through X-Forwarded-For right to
 *   left, the first address that is not trusted is the client (the rightmost untrusted hop).
 *
 * An X-Forwarded-For entry that is not an IP address, reached while walking, makes the client
 * address unknown (`undefined`), so an IP allow-list fails closed rather than trusting a proxy.
 */
import { isIP } from 'node:net';
import { inIpRanges, parseIpAddress, parseIpRange, type IpAddress, type IpRange } from '../../shared/cidr.js';
import { KitError } from '../../shared/errors.js';

/**
 * The node:http binding's `trustProxy` option: whether and how far the client address comes from
 * X-Forwarded-For. `false` (default) or `0`: the socket's address; `true`: the leftmost entry; a number
 * n: n hops back; addresses, CIDRs or `'loopback'`, `'linklocal'`, `'uniquelocal'` (an array or a
 * comma-separated string): the rightmost untrusted hop. An entry that is not an address makes the client
 * unknown, so an IP allow-list refuses. See docs/node-binding.md.
 */
export type TrustProxyOption = boolean | number | string | readonly string[];

export interface TrustProxy {
  /** Whether X-Forwarded-For is consulted at all (handed to the core as `request.trustProxy`). */
  readonly trusted: boolean;
  /** The client address of a request. */
  clientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined): string | undefined;
}

const NAMED_RANGES: Record<string, readonly string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

const invalid = (detail: string): never => {
  throw new KitError('ERR_CBK_OPTION_INVALID',
    `Option trustProxy ${detail} (use true, false, a number of proxy hops, or addresses/CIDRs such as ['10.0.0.0/8', 'loopback'])`);
};

function parseRange(entry: string): IpRange[] {
  const named = NAMED_RANGES[entry.toLowerCase()];
  if (named) return named.flatMap(parseRange);
  const parsed = parseIpRange(entry);
  return 'error' in parsed ? invalid(`entry ${parsed.error}; use an address, a CIDR or a named range (loopback, linklocal, uniquelocal)`) : [parsed];
}

const toAddress = (value: string): IpAddress | undefined => parseIpAddress(value) ?? undefined;
const inRanges = inIpRanges;

/** The proxy hops of X-Forwarded-For, nearest first. */
function forwardedHops(header: string | string[] | undefined): string[] {
  if (header === undefined) return [];
  const text = Array.isArray(header) ? header.join(',') : header;
  const hops: string[] = [];
  for (const part of text.split(',')) {
    const hop = part.trim();
    if (hop !== '') hops.push(hop);
  }
  return hops.reverse();
}

/** Checks the option (throws KitError ERR_CBK_OPTION_INVALID) and builds the address selection. */
export function compileTrustProxy(option: unknown): TrustProxy {
  if (option === undefined || option === false || option === 0) {
    return { trusted: false, clientAddress: (socket) => socket };
  }
  if (option === true) {
    return {
      trusted: true,
      clientAddress(socket, xff) {
        const hops = forwardedHops(xff);
        if (hops.length === 0) return socket;
        const client = hops[hops.length - 1];
        return isIP(client) === 0 ? undefined : client;
      },
    };
  }
  if (typeof option === 'number') {
    if (!Number.isSafeInteger(option) || option < 0) invalid(`must be a whole number of hops >= 0, not ${option}`);
    return {
      trusted: true,
      clientAddress(socket, xff) {
        const chain = [socket, ...forwardedHops(xff)];
        const i = Math.min(option, chain.length - 1);
        if (i === 0) return socket;
        for (let k = 1; k <= i; k++) if (isIP(chain[k] as string) === 0) return undefined;
        return chain[i];
      },
    };
  }
  let entries: string[];
  if (typeof option === 'string') entries = option.split(',').map((s) => s.trim()).filter((s) => s !== '');
  else if (Array.isArray(option) && option.every((e) => typeof e === 'string')) entries = option.map((s: string) => s.trim());
  else return invalid(`must be a boolean, a number, a string or an array of strings, not ${Array.isArray(option) ? 'an array with a non-string' : typeof option}`);
  if (typeof option === 'string' && entries.length === 0) invalid('is an empty string');
  const ranges = entries.flatMap(parseRange);
  if (ranges.length === 0) return { trusted: false, clientAddress: (socket) => socket };
  return {
    trusted: true,
    clientAddress(socket, xff) {
      if (socket === undefined) return undefined;
      const socketAddr = toAddress(socket);
      if (!socketAddr || !inRanges(socketAddr, ranges)) return socket;
      const hops = forwardedHops(xff);
      let client = socket;
      for (const hop of hops) {
        const addr = toAddress(hop);
        if (!addr) return undefined;
        client = hop;
        if (!inRanges(addr, ranges)) return client;
      }
      return client;
    },
  };
}
