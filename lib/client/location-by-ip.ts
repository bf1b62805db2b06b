/**
 * POST {base_url}/Browsing/LocationByIP?merchantGUID=…&IP=…&useIpv6=true — the country (with its
 * default currency and culture), region and city of an IP address (docs.global-e.com "Replacing the
 * Global-e Country Switcher", its request line and example response; the PHP SDK's LocationByIp). A read.
 */
import { isIP } from 'node:net';
import type { IpLocation } from '../payloads.js';
import { invalidArgument } from './errors.js';
import type { ResolvedClientOptions } from './options.js';
import { send } from './request.js';
import { errorFromAnswer, isSuccess, validBody } from './response.js';
import { withoutNulls } from '../validation/tolerant.js';

const OPERATION = 'getLocationByIp';

export async function getLocationByIp(o: ResolvedClientOptions, ip: string): Promise<IpLocation> {
  if (typeof ip !== 'string' || isIP(ip.trim()) === 0) throw invalidArgument(OPERATION, 'ip must be an IPv4 or IPv6 address');
  const outcome = await send(o, { operation: OPERATION, method: 'POST', host: 'base', path: '/Browsing/LocationByIP', query: { IP: ip.trim(), useIpv6: 'true' }, resend: true });
  if (!isSuccess(outcome.status)) throw errorFromAnswer(OPERATION, outcome);
  const location = validBody<IpLocation>(OPERATION, outcome, 'service/location-by-ip.schema.json');
  withoutNulls(location);
  return location;
}
