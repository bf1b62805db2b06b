/**
 * POST {base_url}/Order/GetShippingDocuments — declares an order's parcels fulfilled and returns the
 * shipping documents (carrier label, commercial invoice, …) as bytes and print URLs
 * (docs.global-e.com `integration-steps`). The body is an UpdateOrderDispatchRequest: the dispatch
 * checks of V2 apply, the merchant order id is sent as the pages spell it (MerchantOrderId), and
 * HubCode, ShippingMethodCode and ShippingAdditionalInformation are accepted. Guarded by the
 * fulfilment hold exactly like a dispatch: an order awaiting its customs documents gets no label.
 *
 * The page's two usages ("GetShippingDocuments", Usage): 1. no parcels and no exceptions (empty or not
 * given) and no HubCode — "all the existing shipping documents for the requested order are returned"
 * (a lost label, a reprint): sent as `{ OrderId | MerchantOrderId, Parcels: [] }`; 2. parcels and/or
 * exceptions — declared, their documents returned. Every parcel code and tracking number of the request
 * and the answer is recorded with the order (parcel-record.ts) for dispatchOrders by parcel.
 */
import { schemaValidator } from '../validation/every-schema.js';
import { checkDispatch, type DispatchRequestV2Input } from './dispatch-request.js';
import { invalidArgument } from './errors.js';
import { holdGuard } from './hold-guard.js';
import { rememberDispatch } from './order-record.js';
import { collectParcelIds, rememberParcels } from './parcel-record.js';
import type { ResolvedClientOptions } from './options.js';
import { send } from './request.js';
import { SHIPPING_DOCUMENTS_CODES } from './service-codes.js';
import { shippingDocumentsAnswer, type ShippingDocumentsResult } from './shipping-documents-answer.js';

const OPERATION = 'getShippingDocuments';
const EXTRA = ['HubCode', 'ShippingMethodCode', 'ShippingAdditionalInformation'] as const;

/**
 * The request of {@link ServiceClient.getShippingDocuments}: the order and its parcels as for
 * UpdateOrderDispatchV2, plus the hub, an optional shipping method and additional shipping information.
 */
export interface ShippingDocumentsInput extends DispatchRequestV2Input {
  /** The merchant hub code the parcels leave from (mapped to a service hub id). */
  HubCode?: string | null;
  /** A shipping method code used instead of the order's own (WYOL orders). */
  ShippingMethodCode?: string | null;
  /** e.g. the ITN number when exporting from the US. */
  ShippingAdditionalInformation?: string | null;
}

/**
 * Options of {@link ServiceClient.getShippingDocuments}. Without `force`, an order on fulfilment hold is
 * refused with ServiceError `FULFILMENT_HOLD` (nothing sent).
 */
export interface ShippingDocumentsOptions {
  /** Ask even when the order is on fulfilment hold (logged as a warning). */
  force?: boolean;
  /** Resend after a failure that may have reached the service (the call declares parcels: only when a duplicate is harmless). */
  retry?: boolean;
}

export async function getShippingDocuments(o: ResolvedClientOptions, request: ShippingDocumentsInput, options: ShippingDocumentsOptions = {}): Promise<ShippingDocumentsResult> {
  const extra: Record<string, unknown> = {};
  let rest: unknown = request;
  if (typeof request === 'object' && request !== null && !Array.isArray(request)) {
    const copy: Record<string, unknown> = { ...request };
    for (const k of EXTRA) {
      const v = copy[k];
      delete copy[k];
      if (v === null || v === undefined) continue;
      if (typeof v !== 'string' || v.trim() === '') throw invalidArgument(OPERATION, `${k} must be a non-empty string`);
      extra[k] = v;
    }
    rest = copy;
  }
  const checked = checkDispatch(OPERATION, 2, rest, true);
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(checked.body)) body[k === 'MerchantOrderID' ? 'MerchantOrderId' : k] = v;
  const given = (list: unknown) => Array.isArray(list) && list.length > 0;
  const existing = !given(body.Parcels) && !given(body.Exceptions);
  if (existing) {
    // Usage 1: the page's "empty list of parcels … (no hubCode is provided)".
    if (extra.HubCode !== undefined) {
      throw invalidArgument(OPERATION, 'HubCode assigns the parcels of the request to a hub: give Parcels (or Exceptions) with it, or leave it out to get the order\'s existing documents (usage 1)');
    }
    body.Parcels = [];
  }
  Object.assign(body, extra);
  const validate = schemaValidator('service/shipping-documents-request.schema.json');
  if (!validate(body)) {
    const e = validate.errors?.[0];
    throw invalidArgument(OPERATION, `the request does not match UpdateOrderDispatchRequest: ${e ? `${e.instancePath || '/'} ${e.message ?? 'is invalid'}` : 'invalid'}`);
  }
  const ids = { orderId: checked.orderId, merchantOrderId: checked.merchantOrderId };
  await holdGuard(o, OPERATION, ids, options.force === true);
  const outcome = await send(o, { operation: OPERATION, method: 'POST', host: 'base', path: '/Order/GetShippingDocuments', body, resend: options.retry === true });
  const documents = shippingDocumentsAnswer(OPERATION, outcome, SHIPPING_DOCUMENTS_CODES);
  // Parcels declared and labelled (or labels that exist): the order counts as dispatched (a later cancellation or address change is refused locally).
  if (!existing || documents.Documents.length > 0) await rememberDispatch(o, OPERATION, ids);
  const parcels = collectParcelIds(collectParcelIds(collectParcelIds({ parcel: [], tracking: [] }, body.Parcels), documents.ParcelsTracking), documents.Documents);
  await rememberParcels(o, OPERATION, [checked.orderId, checked.merchantOrderId], parcels);
  return documents;
}
