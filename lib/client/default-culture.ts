/**
 * POST {base_url}/Browsing/LocationDefaultCulture?merchantGUID=…&countryCode=… — a country's default
 * culture `{ Code, Name, LocalizedName, IsRTL }` (the service's PHP SDK: Processors/LocationDefaultCulture.php,
 * its caller's `countryCode` query parameter and its stub; no docs page shows it). The SDK takes the
 * first element of what it reads: an answer that is a list is read as its first culture. A read.
 */
import type { Culture } from '../payloads.js';
import { withoutNulls } from '../validation/tolerant.js';
import { invalidArgument } from './errors.js';
import type { ResolvedClientOptions } from './options.js';
import { send } from './request.js';
import { errorFromAnswer, isSuccess, validBody } from './response.js';

const OPERATION = 'getDefaultCulture';
const SCHEMA = 'service/culture.schema.json';

export async function getDefaultCulture(o: ResolvedClientOptions, countryCode: string): Promise<Culture> {
  if (typeof countryCode !== 'string' || !/^[A-Za-z]{2}$/.test(countryCode)) throw invalidArgument(OPERATION, 'countryCode must be an ISO 3166-1 alpha-2 code');
  const outcome = await send(o, { operation: OPERATION, method: 'POST', host: 'base', path: '/Browsing/LocationDefaultCulture', query: { countryCode: countryCode.toUpperCase() }, resend: true });
  if (!isSuccess(outcome.status)) throw errorFromAnswer(OPERATION, outcome);
  let text = outcome.text;
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed) && parsed.length > 0) text = JSON.stringify(parsed[0]);
  } catch { /* validBody says it is not JSON */ }
  const culture = validBody<Culture>(OPERATION, { ...outcome, text }, SCHEMA);
  withoutNulls(culture);
  return culture;
}
