/**
 * POST {base_url}/Order/GetOrdersVATInvoice?merchantGUID=…&orderId=A&orderId=B — the international
 * commercial (VAT) invoice of orders, as a PDF. The form the service's own PHP SDK sends
 * (vendor/globale/sdk/src/SDK/API/Processors/GetOrdersVATInvoice.php: path `Order/GetOrdersVATInvoice`,
 * each order id a repeated `orderId` query parameter, no body; the answer is kept as received, never
 * decoded as JSON). No docs page shows it (docs/compatibility.md LP-18). A read: resent on a 5xx.
 */
import { invalidArgument, ServiceError } from './errors.js';
import type { ResolvedClientOptions } from './options.js';
import { send } from './request.js';
import { errorFromAnswer, errorShaped, isSuccess, parseJson } from './response.js';

const OPERATION = 'getOrdersVatInvoice';
/** Order ids per call: the kit's own bound (no source gives one; one PDF cannot be split and merged). */
export const VAT_INVOICE_MAX_ORDERS = 100;
/** `%PDF-`: the first bytes of every PDF file. */
const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d];

/** Whether `bytes` starts as a PDF file does (`%PDF-`). */
export function isPdf(bytes: Uint8Array): boolean {
  return bytes.byteLength >= PDF_MAGIC.length && PDF_MAGIC.every((b, i) => bytes[i] === b);
}

/** Downloads the orders' commercial invoice: the PDF's bytes; INVALID_ARGUMENT before sending, INVALID_RESPONSE when the answer is not a PDF. */
export async function getOrdersVatInvoice(o: ResolvedClientOptions, orderIds: readonly string[]): Promise<Uint8Array> {
  if (!Array.isArray(orderIds) || orderIds.length === 0 || orderIds.length > VAT_INVOICE_MAX_ORDERS
    || orderIds.some((id) => typeof id !== 'string' || id.trim() === '')) {
    throw invalidArgument(OPERATION, `orderIds must be a list of 1 to ${VAT_INVOICE_MAX_ORDERS} service order ids (non-empty strings)`);
  }
  const outcome = await send(o, {
    operation: OPERATION, method: 'POST', host: 'base', path: '/Order/GetOrdersVATInvoice', query: { orderId: [...new Set(orderIds)] }, resend: true, answer: 'bytes',
  });
  if (!isSuccess(outcome.status)) throw errorFromAnswer(OPERATION, outcome);
  const bytes = outcome.bytes ?? new Uint8Array();
  if (isPdf(bytes)) return bytes;
  // Not a PDF: the service's error in a 2xx ({ Code, Error }), else an answer the kit cannot use.
  const parsed = parseJson(outcome.text);
  const serviceError = parsed.ok ? errorShaped(OPERATION, outcome, parsed.value, []) : undefined;
  if (serviceError) throw serviceError;
  throw new ServiceError({
    code: 'INVALID_RESPONSE', operation: OPERATION, status: outcome.status, attempts: outcome.attempts,
    description: `the 2xx answer is not a PDF (it does not start with %PDF-; ${bytes.byteLength} bytes)`,
  });
}
