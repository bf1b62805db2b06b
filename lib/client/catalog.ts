/** The catalogue operations of the client, gathered (one file per operation beside this one; docs/client.md#the-catalogue). */
import type { CartProduct, CatalogPricesResponse } from '../payloads.js';
import { getCatalogPrices, type CatalogPricesInput } from './catalog-prices.js';
import type { ResolvedClientOptions } from './options.js';
import { saveProductsBulk, type ProductsSaved, type SaveProductsBulkOptions } from './save-products-bulk.js';
import { saveProductsList, type ProductsListSaved, type SaveProductsListOptions } from './save-products-list.js';

/**
 * The client's catalogue operations (part of {@link ServiceClient}): product saves in batches and
 * catalogue prices. See docs/client.md, "The catalogue".
 */
export interface CatalogApi {
  /** POST {baseUrl}/Browsing/SaveProductsList in batches: the products saved, their ProductCountry records returned. */
  saveProductsList(products: readonly CartProduct[], options?: SaveProductsListOptions): Promise<ProductsListSaved>;
  /** POST {baseUrl}/Bulk/SaveProductsBulk in batches: each batch's answer reported. */
  saveProductsBulk(products: readonly CartProduct[], options?: SaveProductsBulkOptions): Promise<ProductsSaved>;
  /** POST {baseUrl}/Browsing/GetCatalogPrices, split under the product × country cap and merged. */
  getCatalogPrices(request: CatalogPricesInput): Promise<CatalogPricesResponse>;
}

export function catalogApi(o: ResolvedClientOptions): CatalogApi {
  return {
    saveProductsList: async (products, options) => saveProductsList(o, products, options),
    saveProductsBulk: async (products, options) => saveProductsBulk(o, products, options),
    getCatalogPrices: async (request) => getCatalogPrices(o, request),
  };
}

export type { CatalogPricesInput, ProductsListSaved, ProductsSaved, SaveProductsBulkOptions, SaveProductsListOptions };
export type { CatalogPriceProduct } from './catalog-prices.js';
export type { BatchReport } from './batches.js';
