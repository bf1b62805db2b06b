/**
 * Operation 2: POST {merchant_api_base_url}/additional-required-documents — asks the service for
 * additional shipping documents (e.g. the EAD); they arrive later through the documents webhook.
 */
import type { AdditionalDocumentsResponse } from '../payloads.js';
import { invalidArgument } from './errors.js';
import type { ResolvedClientOptions } from './options.js';
import { send } from './request.js';
import { errorFromAnswer, isSuccess, validBody } from './response.js';

const OPERATION = 'requestAdditionalRequiredDocuments';

/**
 * One order of {@link ServiceClient.requestAdditionalRequiredDocuments}: the service's `OrderId` and the
 * tracking numbers of its parcels that need additional documents.
 */
export interface AdditionalDocumentsOrder {
  OrderId: string;
  TrackingNumbers: string[];
}

/** Options of {@link ServiceClient.requestAdditionalRequiredDocuments}. */
export interface AdditionalDocumentsOptions {
  /** Resend after a failure that may have reached the service (the operation starts a process: only when a duplicate request is harmless). */
  retry?: boolean;
}

function checkOrders(orders: unknown): AdditionalDocumentsOrder[] {
  if (!Array.isArray(orders) || orders.length === 0) throw invalidArgument(OPERATION, 'orders must be a non-empty array of { OrderId, TrackingNumbers }');
  return orders.map((order, i) => {
    if (typeof order !== 'object' || order === null) throw invalidArgument(OPERATION, `orders[${i}] must be an object { OrderId, TrackingNumbers }`);
    const { OrderId, TrackingNumbers, ...rest } = order as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length > 0) throw invalidArgument(OPERATION, `orders[${i}] has unknown field ${extra[0]} (fields: OrderId, TrackingNumbers)`);
    if (typeof OrderId !== 'string' || OrderId.trim() === '') throw invalidArgument(OPERATION, `orders[${i}].OrderId must be a non-empty string`);
    if (!Array.isArray(TrackingNumbers)) throw invalidArgument(OPERATION, `orders[${i}].TrackingNumbers must be an array of strings`);
    TrackingNumbers.forEach((t, j) => {
      if (typeof t !== 'string' || t.trim() === '') throw invalidArgument(OPERATION, `orders[${i}].TrackingNumbers[${j}] must be a non-empty string`);
    });
    return { OrderId, TrackingNumbers: [...TrackingNumbers] as string[] };
  });
}

export async function requestAdditionalRequiredDocuments(
  o: ResolvedClientOptions, orders: readonly AdditionalDocumentsOrder[], options: AdditionalDocumentsOptions = {},
): Promise<AdditionalDocumentsResponse & { Success: true }> {
  const Orders = checkOrders(orders);
  const outcome = await send(o, {
    operation: OPERATION, method: 'POST', host: 'merchantApi', path: '/additional-required-documents', body: { Orders }, resend: options.retry === true,
  });
  if (!isSuccess(outcome.status)) throw errorFromAnswer(OPERATION, outcome);
  // "202 — request was accepted, and document will be provided when ready" (GD createadditionalrequireddocuments):
  // a 202 without a body is that acceptance (docs/compatibility.md row R3-5). Any other 2xx needs its body.
  if (outcome.status === 202 && outcome.text.trim() === '') return { Success: true };
  const body = validBody<AdditionalDocumentsResponse>(OPERATION, outcome, 'service/additional-documents-response.schema.json');
  if (body.Success !== true) throw errorFromAnswer(OPERATION, outcome, 'the service answered Success: false');
  return body as AdditionalDocumentsResponse & { Success: true };
}
