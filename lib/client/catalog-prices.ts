/**
 * POST {base_url}/Browsing/GetCatalogPrices?merchantGUID=… with `{ Countries: [{ CountryCode }],
 * Products: [{ ProductCode, OriginalSalePrice, … }] }` (docs.global-e.com international-prices.html and
 * its method page getcatalogprices-method-copy-1.html: the sample request and answer). One call returns
 * at most CATALOG_PRICES_CAP product × country prices (issue 50; the page's limit section could not be
 * read, docs/compatibility.md LP-14): a longer request is split by products into calls under the cap,
 * sent one after the other, and their answers merged in the order of the products. A read: resent after
 * a failure; any call failing fails the whole (no partial catalogue).
 */
import type { CatalogPricesRequest, CatalogPricesResponse } from '../payloads.js';
import { isObject } from '../shared/options.js';
import { inBatches } from './batches.js';
import { invalidArgument } from './errors.js';
import type { ResolvedClientOptions } from './options.js';
import { send } from './request.js';
import { errorFromAnswer, isSuccess, validBody } from './response.js';

const OPERATION = 'getCatalogPrices';
/** Product × country prices per call. */
export const CATALOG_PRICES_CAP = 10_000;

/**
 * One product of {@link CatalogPricesInput}: as GetCatalogPrices takes it (code and price in the merchant's currency).
 */
export type CatalogPriceProduct = CatalogPricesRequest['Products'][number];

/**
 * What {@link CatalogApi.getCatalogPrices} prices: products × countries. More than 10,000 product ×
 * currency results are split into several calls and merged. A malformed request fails with
 * ServiceError `INVALID_ARGUMENT` before anything is sent.
 */
export interface CatalogPricesInput {
  /** The products with their prices in the merchant's currency (OriginalSalePrice, VATRate, …). */
  products: readonly CatalogPriceProduct[];
  /** The countries to price for (ISO 3166-1 alpha-2). */
  countryCodes: readonly string[];
}

function check(input: unknown): { products: CatalogPriceProduct[]; countries: string[] } {
  if (!isObject(input)) throw invalidArgument(OPERATION, 'the request must be { products, countryCodes }');
  for (const k of Object.keys(input)) if (k !== 'products' && k !== 'countryCodes') throw invalidArgument(OPERATION, `unknown field ${JSON.stringify(k)} (known: products, countryCodes)`);
  const { products, countryCodes } = input;
  if (!Array.isArray(countryCodes) || countryCodes.length === 0) throw invalidArgument(OPERATION, 'countryCodes must be a non-empty array of ISO country codes');
  countryCodes.forEach((c, i) => { if (typeof c !== 'string' || !/^[A-Za-z]{2}$/.test(c)) throw invalidArgument(OPERATION, `countryCodes[${i}] must be an ISO 3166-1 alpha-2 code`); });
  if (countryCodes.length > CATALOG_PRICES_CAP) throw invalidArgument(OPERATION, `at most ${CATALOG_PRICES_CAP} countries`);
  if (!Array.isArray(products) || products.length === 0) throw invalidArgument(OPERATION, 'products must be a non-empty array');
  products.forEach((p, i) => {
    if (!isObject(p) || typeof p.ProductCode !== 'string' || p.ProductCode === '') throw invalidArgument(OPERATION, `products[${i}] needs a ProductCode`);
    const price = p.OriginalSalePrice;
    if (!(typeof price === 'number' && Number.isFinite(price) && price >= 0) && !(typeof price === 'string' && /^\d+(\.\d+)?$/.test(price))) {
      throw invalidArgument(OPERATION, `products[${i}].OriginalSalePrice must be a non-negative decimal`);
    }
  });
  return { products: products as CatalogPriceProduct[], countries: [...new Set((countryCodes as string[]).map((c) => c.toUpperCase()))] };
}

export async function getCatalogPrices(o: ResolvedClientOptions, input: CatalogPricesInput): Promise<CatalogPricesResponse> {
  const { products, countries } = check(input);
  const perCall = Math.max(1, Math.floor(CATALOG_PRICES_CAP / countries.length));
  const merged: CatalogPricesResponse = { Products: [] };
  for (const batch of inBatches(products, perCall)) {
    const body: CatalogPricesRequest = { Countries: countries.map((CountryCode) => ({ CountryCode })), Products: batch };
    const outcome = await send(o, { operation: OPERATION, method: 'POST', host: 'base', path: '/Browsing/GetCatalogPrices', body, resend: true });
    if (!isSuccess(outcome.status)) throw errorFromAnswer(OPERATION, outcome);
    merged.Products.push(...validBody<CatalogPricesResponse>(OPERATION, outcome, 'service/catalog-prices-response.schema.json').Products);
  }
  return merged;
}
