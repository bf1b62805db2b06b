/**
 * POST {base_url}/Browsing/RecentProductCountryS?merchantGUID=…&requestId=N — the product restrictions
 * (ProductCountry records) changed since `requestId` (0 the first time), and the requestId of the next
 * call (docs.global-e.com recentproductcountrys.html; the form the service's cartridge sends,
 * FetchProductRestrictionsOperation.js: `&requestId=` in the query, the answer's
 * `RecentProductCountries` and `RequestId`, repeated until a page is empty or the id is 0). A read.
 */
import type { ProductCountry, RecentProductCountries } from '../payloads.js';
import { withoutNulls } from '../validation/tolerant.js';
import { invalidArgument } from './errors.js';
import type { ResolvedClientOptions } from './options.js';
import { send } from './request.js';
import { errorFromAnswer, isSuccess, validBody } from './response.js';

const OPERATION = 'getProductRestrictions';

/**
 * One page of {@link BrowsingApi.getProductRestrictions}: the product × country restrictions, and the
 * `requestId` to pass for the next page (0 when there is none).
 */
export interface ProductRestrictionsPage {
  productCountries: ProductCountry[];
  /** The requestId of the next call (0: none). */
  requestId: number;
}

export async function getProductRestrictions(o: ResolvedClientOptions, requestId = 0): Promise<ProductRestrictionsPage> {
  if (typeof requestId !== 'number' || !Number.isSafeInteger(requestId) || requestId < 0) throw invalidArgument(OPERATION, 'requestId must be a non-negative integer (0 the first time)');
  const outcome = await send(o, { operation: OPERATION, method: 'POST', host: 'base', path: '/Browsing/RecentProductCountryS', query: { requestId: String(requestId) }, resend: true });
  if (!isSuccess(outcome.status)) throw errorFromAnswer(OPERATION, outcome);
  const answer = validBody<RecentProductCountries>(OPERATION, outcome, 'service/recent-product-countries.schema.json');
  withoutNulls(answer);
  return { productCountries: answer.RecentProductCountries ?? [], requestId: answer.RequestId ?? 0 };
}
