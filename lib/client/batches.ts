/**
 * Splitting a long list into the batches one request may carry, and the report of each batch
 * (the catalogue operations: saveProductsList, saveProductsBulk, getCatalogPrices).
 */
import type { ServiceError } from './errors.js';

/** `items` in consecutive batches of at most `size`. */
export function inBatches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** What happened to one batch: its products, and the service's answer or the error. */
export type BatchReport<A> =
  | { index: number; productCodes: string[]; ok: true; answer: A }
  | { index: number; productCodes: string[]; ok: false; error: ServiceError };
