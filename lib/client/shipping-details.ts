/**
 * POST {base_url}/ShippingDetails/GetShippingDetails?merchantGUID=… with `{ destinationCountry?,
 * currencyCode, amount, productCodes? }` — the cheapest shipping rate for an amount and the free-shipping
 * range, per destination (docs.global-e.com shipping-options-api.html and its preview page: the request
 * table, the example request and answer; the service's cartridge calls it, geServiceMgr.js). The
 * answer is a list (one element per destination; all configured countries without destinationCountry).
 * A read: resent after a failure, although a POST.
 */
import type { ShippingDetails, ShippingDetailsRequest } from '../payloads.js';
import { parseDecimal } from '../shared/decimal.js';
import { isObject } from '../shared/options.js';
import { readBrowsingList } from './browsing-list.js';
import { invalidArgument } from './errors.js';
import type { ResolvedClientOptions } from './options.js';

const OPERATION = 'getShippingDetails';
const KNOWN = ['destinationCountry', 'currencyCode', 'amount', 'productCodes'];

function check(request: unknown): ShippingDetailsRequest {
  if (!isObject(request)) throw invalidArgument(OPERATION, 'the request must be { destinationCountry?, currencyCode, amount, productCodes? }');
  for (const k of Object.keys(request)) if (!KNOWN.includes(k)) throw invalidArgument(OPERATION, `unknown field ${JSON.stringify(k)} (known: ${KNOWN.join(', ')})`);
  const { destinationCountry, currencyCode, amount, productCodes } = request;
  if (destinationCountry !== undefined && (typeof destinationCountry !== 'string' || !/^[A-Za-z]{2,3}$/.test(destinationCountry))) throw invalidArgument(OPERATION, 'destinationCountry must be an ISO-2 or ISO-3 country code');
  if (typeof currencyCode !== 'string' || !/^[A-Za-z]{3}$/.test(currencyCode)) throw invalidArgument(OPERATION, 'currencyCode must be an ISO 4217 code');
  const d = parseDecimal(amount);
  if (d === undefined || d.units < 0n || d.scale > 2) throw invalidArgument(OPERATION, 'amount must be a non-negative decimal with at most two places (the page: "up to two digits after the decimal point")');
  if (productCodes !== undefined && (!Array.isArray(productCodes) || productCodes.some((c) => typeof c !== 'string'))) throw invalidArgument(OPERATION, 'productCodes must be an array of strings');
  return request as unknown as ShippingDetailsRequest;
}

export function getShippingDetails(o: ResolvedClientOptions, request: ShippingDetailsRequest): Promise<ShippingDetails[]> {
  const body = check(request);
  return readBrowsingList<ShippingDetails>(o, { operation: OPERATION, path: '/ShippingDetails/GetShippingDetails', schema: 'service/shipping-details.schema.json', wrapper: 'ShippingDetails', body });
}
