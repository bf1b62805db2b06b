/**
 * The error codes of the shipping-documents flow as the service's pages document them
 * (docs.global-e.com: `error-handling-220778` for GetShippingDocuments, `getordersmanifestrequest`
 * and `dispatchorders` for DispatchOrders). A ServiceError carrying one of them has the documented
 * meaning in its `description` (the service's own text follows it) and `retryable: false`: each says
 * the request must change (or the order's state must), never "try again".
 */
import type { Outcome } from './request.js';
import { mask } from './request.js';
import { ServiceError, type ServiceOperation } from './errors.js';
import { parseJson, serviceText } from './response.js';
import { isObject } from '../shared/options.js';

export const SHIPPING_DOCUMENTS_CODES: Readonly<Record<string, string>> = {
  A100: 'Invalid information schema (a technical error, e.g. a wrong JSON structure)',
  A200: 'Could not retrieve documents and/or process orders: the order has the wrong status or partial information was provided',
  A300: 'At least one SKU was not part of the original order; use only SKUs that were ordered',
  A400: 'There are no valid SKUs to place in parcels, or parcels could not be created',
  A500: 'The SMB bridge returned an error while generating a label',
  A018: 'Failed to generate an AWB with the shipper',
  A019: 'The order was cancelled and cannot be shipped',
};

export const DISPATCH_ORDERS_CODES: Readonly<Record<string, string>> = {
  B001: 'Order ID not found: an order id provided does not exist',
  B002: 'Order cannot be dispatched: the order and/or its parcels have the wrong status (AWB generation failed, not yet processed with GetShippingDocuments, or already dispatched)',
  B003: 'Order must be dispatched as part of a consolidated shipment',
  B004: 'Order must NOT be dispatched as part of a consolidated shipment',
  B100: 'There are no orders valid for dispatch',
  B200: 'Could not determine the destination hub: none or more than one hub was found',
  B300: 'The number of outer boxes cannot be greater than the number of parcels',
  B400: 'Could not create the manifest',
  B401: 'Parcel code(s) not found',
  B402: 'Tracking number(s) not found',
  B403: 'Parcel-level dispatch is not enabled for this merchant',
  B404: 'At least one of ParcelCodes, TrackingNumbers, OrderIds or MerchantOrderIds must be provided',
  B500: 'Could not create the AWB of the consolidated shipment',
  B600: 'Configuration error: cannot determine the source hub',
};

const codeOf = (v: unknown): string | undefined =>
  (typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined);

/**
 * The ServiceError of an answer carrying a documented code (in `Code`, `ErrorCode`, or at the start of
 * `ErrorText`/`Error`), whatever its HTTP status; undefined when the answer carries none of `table`'s codes.
 */
export function documentedError(operation: ServiceOperation, outcome: Outcome, table: Readonly<Record<string, string>>): ServiceError | undefined {
  const parsed = parseJson(outcome.text);
  if (!parsed.ok || !isObject(parsed.value)) return undefined;
  const body = parsed.value;
  const errorText = typeof body.ErrorText === 'string' && body.ErrorText.trim() !== '' ? body.ErrorText : undefined;
  const more = serviceText(body);
  const said = errorText && more && !errorText.includes(more) ? `${errorText} ${more}` : errorText ?? more;
  let code = codeOf(body.Code) ?? codeOf(body.ErrorCode);
  if (code === undefined && said !== undefined) code = /^\s*([AB]\d{3})\b/.exec(said)?.[1];
  if (code === undefined || !(code in table)) return undefined;
  const own = said === undefined ? '' : `; the service said: ${mask(said, outcome.secrets)}`;
  return new ServiceError({
    code, operation, status: outcome.status, retryable: false, attempts: outcome.attempts,
    description: `${table[code]}${own}`,
  });
}
