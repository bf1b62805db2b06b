/**
 * GetRefundDetails: GET {base_url}/v1/orders/{orderId}/refunds — the refunds of an order as the
 * service holds them (docs.global-e.com "Refunds Details API (M to GE)"): each refund's id, amounts
 * as text, ExternalReference and InitiatedBy. A read: retried like one. The answer may come wrapped
 * as `{ MerchantOrderRefund: {...} }` (the page names the object so); it is unwrapped.
 */
import type { RefundDetailsResponse } from '../payloads.js';
import { isObject } from '../shared/options.js';
import { orderIdOf } from './check-input.js';
import type { ResolvedClientOptions } from './options.js';
import { send } from './request.js';
import { errorFromAnswer, isSuccess, parseJson, validBody } from './response.js';
import { invalidArgument } from './errors.js';

const OPERATION = 'getRefundDetails';
const SCHEMA = 'service/refund-details-response.schema.json';

export async function getRefundDetails(o: ResolvedClientOptions, orderId: string): Promise<RefundDetailsResponse> {
  const id = orderIdOf(OPERATION, orderId, 'orderId');
  // '.' and '..' survive encodeURIComponent and are path steps to any URL parser.
  if (id === '.' || id === '..') throw invalidArgument(OPERATION, 'orderId cannot be "." or ".."');
  const outcome = await send(o, { operation: OPERATION, method: 'GET', host: 'base', path: `/v1/orders/${encodeURIComponent(id)}/refunds`, resend: true });
  if (!isSuccess(outcome.status)) throw errorFromAnswer(OPERATION, outcome);
  // `Refunds` is required (an answer without the list would read as "no refund", which the refund retry relies on).
  const parsed = parseJson(outcome.text);
  const inner = parsed.ok && isObject(parsed.value) && parsed.value.Refunds === undefined ? parsed.value.MerchantOrderRefund : undefined;
  if (isObject(inner)) return validBody<RefundDetailsResponse>(OPERATION, { ...outcome, text: JSON.stringify(inner) }, SCHEMA);
  return validBody<RefundDetailsResponse>(OPERATION, outcome, SCHEMA);
}
