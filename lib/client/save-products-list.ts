/**
 * POST {base_url}/Browsing/SaveProductsList?merchantGUID=…&clientIP=…&countryCode=…[&…] with the
 * products as the body; the answer the products' ProductCountry records (docs.global-e.com
 * saveproductslist.html; the query parameters as the service's PHP SDK sends them,
 * Processors/SaveProductsList.php and its caller: clientIP, countryCode, cultureCode,
 * originalCurrencyCode, inputDataCultureCode, priceCoefficientRate, roundingRuleId, includeVAT).
 * Sent in batches (`batchSize`); the ProductCountry records of every batch that succeeded are merged,
 * each batch's outcome reported. Resent after a failure like a read (saving product data again is harmless).
 */
import type { CartProduct, ProductCountry } from '../payloads.js';
import { inBatches, type BatchReport } from './batches.js';
import { readBrowsingList } from './browsing-list.js';
import { checkBatchSize, checkOptionKeys, checkProducts, queryOf } from './catalog-products.js';
import { ServiceError } from './errors.js';
import type { ResolvedClientOptions } from './options.js';

const OPERATION = 'saveProductsList';
const QUERY = ['clientIP', 'countryCode', 'cultureCode', 'originalCurrencyCode', 'inputDataCultureCode', 'priceCoefficientRate', 'roundingRuleId', 'includeVAT'] as const;

/**
 * Options of {@link CatalogApi.saveProductsList}: the query parameters of SaveProductsList (the customer's
 * IP, country and culture; the currency, culture and price coefficient of the products) and the batch size.
 */
export interface SaveProductsListOptions {
  /** The end customer's IP address. */
  clientIP?: string;
  /** The end customer's shipping country (ISO 3166-1 alpha-2). */
  countryCode?: string;
  /** The language of the returned texts (RestrictionMessage). */
  cultureCode?: string;
  originalCurrencyCode?: string;
  inputDataCultureCode?: string;
  /** The country coefficient's Rate (CountryCoefficients). */
  priceCoefficientRate?: number | string;
  roundingRuleId?: number | string;
  /** The country's IncludeVAT (CountryCoefficients). */
  includeVAT?: number | string;
  /** Products per request (1 to 5000; default 500). */
  batchSize?: number;
}

/**
 * What {@link CatalogApi.saveProductsList} reports: the ProductCountry records of every accepted batch,
 * and each batch's answer or error.
 */
export interface ProductsListSaved {
  productCountries: ProductCountry[];
  batches: BatchReport<ProductCountry[]>[];
}

export async function saveProductsList(o: ResolvedClientOptions, products: readonly CartProduct[], options?: SaveProductsListOptions): Promise<ProductsListSaved> {
  const list = checkProducts(OPERATION, products);
  const opts = checkOptionKeys(OPERATION, options, [...QUERY, 'batchSize']);
  const size = checkBatchSize(OPERATION, opts.batchSize);
  const query = queryOf(OPERATION, opts, QUERY);
  const result: ProductsListSaved = { productCountries: [], batches: [] };
  for (const [index, batch] of inBatches(list, size).entries()) {
    const productCodes = batch.map((p) => p.ProductCode as string);
    try {
      const answer = await readBrowsingList<ProductCountry>(o, { operation: OPERATION, path: '/Browsing/SaveProductsList', schema: 'service/product-country.schema.json', wrapper: 'ProductCountry', query, body: batch });
      result.productCountries.push(...answer);
      result.batches.push({ index, productCodes, ok: true, answer });
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      result.batches.push({ index, productCodes, ok: false, error: err });
    }
  }
  return result;
}
