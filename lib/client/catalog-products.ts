/**
 * The checks the product-saving operations share: a non-empty list of products (the ProductsList
 * Product object, docs.global-e.com productslist.html: the cart's `CartProduct`), each with a
 * ProductCode; the batch size option.
 */
import type { CartProduct } from '../payloads.js';
import { isObject } from '../shared/options.js';
import { invalidArgument, type ServiceOperation } from './errors.js';

/** The products per request when none is given: the service's pages name no limit for the saving operations (docs/compatibility.md LP-13). */
export const DEFAULT_PRODUCT_BATCH = 500;
/** The largest batch the client sends. */
export const MAX_PRODUCT_BATCH = 5000;

export function checkProducts(operation: ServiceOperation, products: unknown): CartProduct[] {
  if (!Array.isArray(products) || products.length === 0) throw invalidArgument(operation, 'products must be a non-empty array of products, each with a ProductCode');
  products.forEach((p, i) => {
    if (!isObject(p) || typeof p.ProductCode !== 'string' || p.ProductCode.trim() === '') throw invalidArgument(operation, `products[${i}] must be an object with a non-empty ProductCode`);
  });
  return products as CartProduct[];
}

export function checkBatchSize(operation: ServiceOperation, value: unknown): number {
  if (value === undefined) return DEFAULT_PRODUCT_BATCH;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_PRODUCT_BATCH) {
    throw invalidArgument(operation, `batchSize must be an integer from 1 to ${MAX_PRODUCT_BATCH}`);
  }
  return value;
}

/** Query parameters from `options`, only `known` names, values non-empty strings (numbers as text). */
export function queryOf(operation: ServiceOperation, options: Record<string, unknown>, known: readonly string[]): Record<string, string> {
  const query: Record<string, string> = {};
  for (const k of known) {
    const v = options[k];
    if (v === undefined) continue;
    if (typeof v === 'number' && Number.isFinite(v)) query[k] = String(v);
    else if (typeof v === 'string' && v.trim() !== '') query[k] = v;
    else throw invalidArgument(operation, `${k} must be a non-empty string${k === 'priceCoefficientRate' || k === 'roundingRuleId' || k === 'includeVAT' ? ' or a number' : ''}`);
  }
  return query;
}

export function checkOptionKeys(operation: ServiceOperation, options: unknown, known: readonly string[]): Record<string, unknown> {
  if (options === undefined) return {};
  if (!isObject(options)) throw invalidArgument(operation, `the options must be an object { ${known.join(', ')} }`);
  for (const k of Object.keys(options)) if (!known.includes(k)) throw invalidArgument(operation, `unknown option ${JSON.stringify(k)} (known: ${known.join(', ')})`);
  return options;
}
