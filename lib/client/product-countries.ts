/**
 * POST {base_url}/Browsing/ProductCountryS?merchantGUID=…&countryCode=…[&cultureCode=…]&productCode=A&productCode=B
 * — the restrictions and VAT rate type of products in one shipping country (ProductCountry records,
 * docs.global-e.com productcountry.html). The form the service's PHP SDK sends (Processors/ProductCountryS.php:
 * each product a repeated `productCode` query parameter; its caller Models/Product.php adds the
 * customer's `countryCode` and `cultureCode` and splits the products into chunks of its `API.BulkSize`
 * setting, whose value the SDK does not ship). The kit's own chunk: PRODUCT_COUNTRIES_PER_CALL codes per
 * call, the answers merged in order. A read.
 */
import type { ProductCountry } from '../payloads.js';
import { readBrowsingList } from './browsing-list.js';
import { invalidArgument } from './errors.js';
import type { ResolvedClientOptions } from './options.js';

const OPERATION = 'getProductCountries';
/** Product codes per call: the kit's choice (no page gives a limit; the SDK's BulkSize is configuration). */
export const PRODUCT_COUNTRIES_PER_CALL = 100;

/** What getProductCountries asks: the products and the shipping country (and the texts' culture). */
export interface ProductCountriesInput {
  /** The products' SKU codes (any number: sent PRODUCT_COUNTRIES_PER_CALL per call). */
  productCodes: readonly string[];
  /** 2-char ISO code of the shipping country. */
  countryCode: string;
  /** ISO culture code of the restriction texts (optional). */
  cultureCode?: string;
}

const chunk = (o: ResolvedClientOptions, codes: string[], countryCode: string, cultureCode: string | undefined): Promise<ProductCountry[]> =>
  readBrowsingList<ProductCountry>(o, {
    operation: OPERATION, path: '/Browsing/ProductCountryS', schema: 'service/product-country.schema.json', wrapper: 'ProductCountry',
    query: { countryCode, ...(cultureCode ? { cultureCode } : {}), productCode: codes },
  });

/** Reads the products' ProductCountry records for one country, PRODUCT_COUNTRIES_PER_CALL codes per call, merged in order. */
export async function getProductCountries(o: ResolvedClientOptions, input: ProductCountriesInput): Promise<ProductCountry[]> {
  const { productCodes, countryCode, cultureCode } = (input ?? {}) as Partial<ProductCountriesInput>;
  if (!Array.isArray(productCodes) || productCodes.length === 0 || productCodes.some((c) => typeof c !== 'string' || c === '')) {
    throw invalidArgument(OPERATION, 'productCodes must be a non-empty list of product codes');
  }
  if (typeof countryCode !== 'string' || !/^[A-Za-z]{2}$/.test(countryCode)) throw invalidArgument(OPERATION, 'countryCode must be an ISO 3166-1 alpha-2 code');
  if (cultureCode !== undefined && (typeof cultureCode !== 'string' || !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(cultureCode))) {
    throw invalidArgument(OPERATION, 'cultureCode must be an ISO culture code (en-GB)');
  }
  const unique = [...new Set(productCodes)];
  const records: ProductCountry[] = [];
  for (let i = 0; i < unique.length; i += PRODUCT_COUNTRIES_PER_CALL) {
    records.push(...await chunk(o, unique.slice(i, i + PRODUCT_COUNTRIES_PER_CALL), countryCode.toUpperCase(), cultureCode));
  }
  return records;
}
