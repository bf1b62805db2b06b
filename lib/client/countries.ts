/**
 * POST {base_url}/Browsing/Countries?merchantGUID=…[&countryCode=…][&cultureCode=…] — the countries the merchant ships to,
 * each with its default currency, VAT settings and whether it takes fixed prices (docs.global-e.com
 * browsing-support-methods.html, signature `Countries(countryCode, cultureCode)`; country.html).
 */
import type { BrowsingCountry } from '../payloads.js';
import type { ResolvedClientOptions } from './options.js';
import { browsingQuery, readBrowsingList } from './browsing-list.js';

const KNOWN = ['countryCode', 'cultureCode'] as const;

/** The optional filter of getCountries (query parameters after the merchantGUID). */
export type CountriesFilter = { [K in (typeof KNOWN)[number]]?: string };

export function getCountries(o: ResolvedClientOptions, filter?: CountriesFilter): Promise<BrowsingCountry[]> {
  const query = browsingQuery('getCountries', filter, KNOWN);
  return readBrowsingList<BrowsingCountry>(o, { operation: 'getCountries', path: '/Browsing/Countries', schema: 'service/country.schema.json', wrapper: 'Country', query });
}
