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

/**
 * The error codes of GetShippingDocuments (A100…A500, A018, A019) with their documented meaning: a
 * {@link ServiceError} with one of them carries that meaning in its `description` and is not retryable.
 */
export const SHIPPING_DOCUMENTS_CODES: Readonly<Record<string, string>> = {
  A100: 'Invalid information schema (a technical error, e.g. a wrong JSON structure)',
  A200: 'Could not retrieve documents and/or process orders: the order has the wrong status or partial information was provided',
  A300: 'At least one SKU was not part of the original order; use only SKUs that were ordered',
  A400: 'There are no valid SKUs to place in parcels, or parcels could not be created',
  A500: 'The SMB bridge returned an error while generating a label',
  A018: 'Failed to generate an AWB with the shipper',
  A019: 'The order was cancelled and cannot be shipped',
};

/**
 * The error codes of DispatchOrders (B001…B600) with their documented meaning: a {@link ServiceError}
 * with one of them carries that meaning in its `description` and is not retryable.
 */
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

/** VoidParcel (docs.global-e.com `shipping---void-parcel`). C102 is a success the service logs: the parcel is voided, the shipper's cancellation failed. */
export const VOID_PARCEL_CODES: Readonly<Record<string, string>> = {
  C100: 'The parcel cannot be voided in its status (a hub operated by the service voids only "Failed Transfer To Shipping" and "Shipped By Merchant")',
  C101: 'The parcel cannot be voided in its status (a hub operated by the merchant voids only "Failed Transfer To Shipping", "Shipped By Merchant" and "Received In Hub")',
  C103: 'Internal unknown failure',
  C104: 'The parcel code was not found, or the parcel was already voided',
};

const codeOf = (v: unknown): string | undefined =>
  (typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined);

/** The first entry of an `Errors` list: its code and text (a string entry is text only). */
function firstListed(body: Record<string, unknown>): { code?: string; text?: string } {
  const first: unknown = Array.isArray(body.Errors) ? body.Errors[0] : undefined;
  if (typeof first === 'string') return { text: first };
  if (!isObject(first)) return {};
  const text = [first.Message, first.Error, first.Description, first.ErrorText].find((v): v is string => typeof v === 'string' && v.trim() !== '');
  return { ...(codeOf(first.Code) ?? codeOf(first.ErrorCode) ? { code: codeOf(first.Code) ?? codeOf(first.ErrorCode) } : {}), ...(text ? { text } : {}) };
}

/**
 * The ServiceError of an answer carrying a documented code (in `Code`, `ErrorCode`, at the start of
 * `ErrorText`/`Error`, or in the first entry of `Errors`), whatever its HTTP status; undefined when the
 * answer carries none of `table`'s codes.
 */
export function documentedError(operation: ServiceOperation, outcome: Outcome, table: Readonly<Record<string, string>>): ServiceError | undefined {
  const parsed = parseJson(outcome.text);
  if (!parsed.ok || !isObject(parsed.value)) return undefined;
  const body = parsed.value;
  const errorText = typeof body.ErrorText === 'string' && body.ErrorText.trim() !== '' ? body.ErrorText : undefined;
  const more = serviceText(body);
  const listed = firstListed(body);
  const said = (errorText && more && !errorText.includes(more) ? `${errorText} ${more}` : errorText ?? more) ?? listed.text;
  let code = codeOf(body.Code) ?? codeOf(body.ErrorCode) ?? listed.code;
  if (code === undefined && said !== undefined) code = /^\s*([ABC]\d{3})\b/.exec(said)?.[1];
  if (code === undefined || !(code in table)) return undefined;
  const own = said === undefined ? '' : `; the service said: ${mask(said, outcome.secrets)}`;
  return new ServiceError({
    code, operation, status: outcome.status, retryable: false, attempts: outcome.attempts,
    description: `${table[code]}${own}`,
  });
}
