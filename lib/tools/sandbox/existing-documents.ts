/**
 * GetShippingDocuments, usage 1 (docs.global-e.com "GetShippingDocuments", Usage): "The request is
 * issued with an empty list of parcels, and/or exceptions (no hubCode is provided). Here all the
 * existing shipping documents for the requested order are returned." The sandbox answers with every
 * document it issued for the order and still holds (labels, invoices, manifests; a voided parcel's
 * are gone), and the tracking of its parcels; an order with none is A200 ("Could not retrieve
 * documents").
 */
import { isObject } from '../../shared/options.js';
import type { IssuedDocument, OrderState } from './orders.js';

const isEmptyList = (v: unknown) => v === undefined || v === null || (Array.isArray(v) && v.length === 0);
const hasHub = (v: unknown) => typeof v === 'string' && v.trim() !== '';

/** Whether a GetShippingDocuments body is usage 1: no parcels, no exceptions, no hub code. */
export function asksExistingDocuments(body: Record<string, unknown>): boolean {
  return isEmptyList(body.Parcels) && isEmptyList(body.Exceptions) && !hasHub(body.HubCode);
}

export interface ExistingDocumentsAnswer {
  /** undefined: the order has no document to return (A200). */
  body?: { IsSuccess: true; ErrorText: null; Documents: unknown[]; ParcelsTracking: Array<Record<string, string>> };
}

/** The answer of usage 1 from what the sandbox issued; `toDocument` builds the answer's OrderDocument of an issued file (undefined once the file is gone). */
export function existingDocuments(order: OrderState, toDocument: (doc: IssuedDocument) => unknown): ExistingDocumentsAnswer {
  const documents = order.shippingDocuments.map(toDocument).filter((d) => isObject(d));
  if (documents.length === 0) return {};
  const tracking = order.parcels.filter((p) => p.trackingNumber !== undefined).map((p) => ({ ParcelCode: p.parcelCode, TrackingNumber: p.trackingNumber! }));
  return { body: { IsSuccess: true, ErrorText: null, Documents: documents, ParcelsTracking: tracking } };
}
