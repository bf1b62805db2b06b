/**
 * POST {base_url}/Order/GetOrdersDetails — the details of orders by their service order ids
 * (docs.global-e.com `getordersdetails`: body OrdersDetailsFilter `{ OrderIds }`, answer a list of
 * Merchant.Order). A read: resent after a failure like one, although it is a POST. The orders are
 * checked as the callbacks' orders are (the tolerant form of MerchantOrder: nulls read as absent,
 * a field the service omits is not an error), never returned half-valid.
 */
import type { MerchantOrder } from '../payloads.js';
import { loadValidators, schemaValidator } from '../validation/ajv.js';
import { withoutNulls } from '../validation/tolerant.js';
import { invalidArgument, ServiceError } from './errors.js';
import type { ResolvedClientOptions } from './options.js';
import { send } from './request.js';
import { errorFromAnswer, errorShaped, isSuccess, parseJson } from './response.js';

const OPERATION = 'getOrdersDetails';
const ORDER_SCHEMA = 'callbacks/merchant-order.schema.json';

function checkIds(orderIds: unknown): string[] {
  if (!Array.isArray(orderIds) || orderIds.length === 0) throw invalidArgument(OPERATION, 'orderIds must be a non-empty array of service order ids');
  orderIds.forEach((id, i) => {
    if (typeof id !== 'string' || id.trim() === '') throw invalidArgument(OPERATION, `orderIds[${i}] must be a non-empty string`);
  });
  return [...new Set(orderIds as string[])];
}

export async function getOrdersDetails(o: ResolvedClientOptions, orderIds: readonly string[]): Promise<MerchantOrder[]> {
  const OrderIds = checkIds(orderIds);
  const outcome = await send(o, { operation: OPERATION, method: 'POST', host: 'base', path: '/Order/GetOrdersDetails', body: { OrderIds }, resend: true });
  if (!isSuccess(outcome.status)) throw errorFromAnswer(OPERATION, outcome);
  const invalid = (description: string) => new ServiceError({ code: 'INVALID_RESPONSE', operation: OPERATION, status: outcome.status, attempts: outcome.attempts, description });
  const parsed = parseJson(outcome.text);
  if (!parsed.ok) throw invalid('the 2xx answer is not JSON');
  // The page names the answer both "a list of orders" and "Object Merchant.Order": one order is read as a list of one.
  let orders: unknown = parsed.value;
  if (!Array.isArray(orders)) {
    const serviceError = errorShaped(OPERATION, outcome, orders, ['OrderId']);
    if (serviceError) throw serviceError;
    orders = [orders];
  }
  const list = orders as unknown[];
  withoutNulls(list, '', [], { elements: true });
  await loadValidators('tolerant', [ORDER_SCHEMA]);
  const validate = schemaValidator(ORDER_SCHEMA, 'tolerant');
  list.forEach((order, i) => {
    if (!validate(order)) {
      const e = validate.errors?.[0];
      // The location and rule come from the schema, never from the value (orders hold personal data).
      throw invalid(`the 2xx answer's order /${i} does not match ${ORDER_SCHEMA}: ${e ? `${e.instancePath || '/'} ${e.message ?? 'is invalid'}` : 'invalid'}`);
    }
  });
  return list as MerchantOrder[];
}
