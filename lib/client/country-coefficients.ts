/**
 * POST {base_url}/Browsing/CountryCoefficients?merchantGUID=…[&countryCode=…] — the pricing adjustments: country-level
 * records (with IncludeVAT) and product-class records (docs.global-e.com countrycoefficients.html;
 * POST as the cartridge and the PHP SDK send it: the page names no verb).
 */
import type { CountryCoefficient } from '../payloads.js';
import type { ResolvedClientOptions } from './options.js';
import { browsingQuery, readBrowsingList } from './browsing-list.js';

const KNOWN = ['countryCode'] as const;

/** The optional filter of getCountryCoefficients (query parameters after the merchantGUID). */
export type CountryCoefficientsFilter = { [K in (typeof KNOWN)[number]]?: string };

export function getCountryCoefficients(o: ResolvedClientOptions, filter?: CountryCoefficientsFilter): Promise<CountryCoefficient[]> {
  const query = browsingQuery('getCountryCoefficients', filter, KNOWN);
  return readBrowsingList<CountryCoefficient>(o, { operation: 'getCountryCoefficients', path: '/Browsing/CountryCoefficients', schema: 'service/country-coefficient.schema.json', wrapper: 'CountryCoefficient', query });
}
