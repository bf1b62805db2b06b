/**
 * POST {base_url}/Bulk/SaveProductsBulk?merchantGUID=…[&inputDataCultureCode=…][&originalCurrencyCode=…]
 * with the products as the body (docs.global-e.com saveproductsbulk.html: `productLists`, "List of
 * Product objects (specified in the request body)", the page's example a bare array); the answer a
 * ResponseInfo. Sent in batches (`batchSize`, default DEFAULT_PRODUCT_BATCH); each batch's answer is
 * reported and a failed batch does not stop the others. Saving product data again is harmless, so a
 * batch is resent after a failure like a read.
 */
import type { ServiceResponseInfo } from '../payloads.js';
import { inBatches, type BatchReport } from './batches.js';
import { checkBatchSize, checkOptionKeys, checkProducts, queryOf } from './catalog-products.js';
import type { CartProduct } from '../payloads.js';
import { ServiceError } from './errors.js';
import type { ResolvedClientOptions } from './options.js';
import { send } from './request.js';
import { errorFromAnswer, isSuccess, serviceText, validBody } from './response.js';

const OPERATION = 'saveProductsBulk';
const QUERY = ['inputDataCultureCode', 'originalCurrencyCode'] as const;

/** Options of {@link CatalogApi.saveProductsBulk}: the query parameters of SaveProductsBulk and the batch size. */
export interface SaveProductsBulkOptions {
  /** The culture of the products' texts (default: the merchant's). */
  inputDataCultureCode?: string;
  /** The currency of the products' prices (default: the merchant's). */
  originalCurrencyCode?: string;
  /** Products per request (1 to 5000; default 500). */
  batchSize?: number;
}

/**
 * What {@link CatalogApi.saveProductsBulk} reports: products saved and failed, and each batch's answer or error.
 */
export interface ProductsSaved {
  /** Products in batches the service accepted. */
  saved: number;
  /** Products in batches that failed. */
  failed: number;
  batches: BatchReport<ServiceResponseInfo>[];
}

async function saveBatch(o: ResolvedClientOptions, products: CartProduct[], query: Record<string, string>): Promise<ServiceResponseInfo> {
  const outcome = await send(o, { operation: OPERATION, method: 'POST', host: 'base', path: '/Bulk/SaveProductsBulk', query, body: products, resend: true });
  if (!isSuccess(outcome.status)) throw errorFromAnswer(OPERATION, outcome);
  const info = validBody<ServiceResponseInfo>(OPERATION, outcome, 'service/service-response-info.schema.json');
  if (info.Success === false) {
    throw new ServiceError({ code: 'SERVICE_ERROR', operation: OPERATION, status: outcome.status, attempts: outcome.attempts, description: serviceText(info as Record<string, unknown>) ?? 'the service answered Success: false' });
  }
  return info;
}

export async function saveProductsBulk(o: ResolvedClientOptions, products: readonly CartProduct[], options?: SaveProductsBulkOptions): Promise<ProductsSaved> {
  const list = checkProducts(OPERATION, products);
  const opts = checkOptionKeys(OPERATION, options, [...QUERY, 'batchSize']);
  const size = checkBatchSize(OPERATION, opts.batchSize);
  const query = queryOf(OPERATION, opts, QUERY);
  const report: ProductsSaved = { saved: 0, failed: 0, batches: [] };
  for (const [index, batch] of inBatches(list, size).entries()) {
    const productCodes = batch.map((p) => p.ProductCode as string);
    try {
      report.batches.push({ index, productCodes, ok: true, answer: await saveBatch(o, batch, query) });
      report.saved += batch.length;
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      report.batches.push({ index, productCodes, ok: false, error: err });
      report.failed += batch.length;
    }
  }
  return report;
}
