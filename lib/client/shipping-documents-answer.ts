/**
 * The answer of GetShippingDocuments and DispatchOrders (ShippingDocumentsResponse): the documented
 * error codes, `IsSuccess: false`, and each document decoded — its bytes as a Buffer (`Content`), its
 * extension as PDF, ZPL or EPL, its type code as text with the documented name beside it.
 */
import type { ShippingDocument, ShippingDocumentsResponse } from '../payloads.js';
import { decodeBase64 } from '../shared/base64.js';
import { ServiceError, type ServiceOperation } from './errors.js';
import { mask, type Outcome } from './request.js';
import { errorFromAnswer, isSuccess, validBody } from './response.js';
import { documentedError } from './service-codes.js';

/** DocumentTypeCode → its documented name (docs.global-e.com `orderdocument`). */
export const DOCUMENT_TYPES: Readonly<Record<string, string>> = {
  1: 'CommercialInvoice', 2: 'PackingList', 3: 'ShipperManifest', 4: 'Label', 5: 'VATInvoice', 6: 'DangerousGoodDeclarationLink',
  7: 'GELabel', 8: 'CustomerReceiptInvoice', 9: 'ArchibeLabel', 10: 'DeliveryAdvice', 11: 'EAD',
};

export type DocumentFormat = 'PDF' | 'ZPL' | 'EPL';

/** A document as the client returns it: the service's fields (nulls left out), decoded; DocumentData is replaced by Content. */
export interface DecodedShippingDocument {
  /** DocumentTypeCode as text ('4' for a label, '1' for a commercial invoice, …). */
  DocumentTypeCode?: string;
  /** The documented name of DocumentTypeCode ('Label', 'CommercialInvoice', …); absent for a code the pages do not list. */
  DocumentType?: string;
  /** The service's own name (AWB, CommercialInvoiceAndPackingList, Manifest, …). */
  DocumentTypeName?: string;
  /** PDF, ZPL or EPL (upper case, leading dot removed); another value as sent. */
  DocumentExtension?: DocumentFormat | (string & {});
  /** The bytes of DocumentData (ready to print); absent when the service gave only a URL. */
  Content?: Buffer;
  /** The URL for printing or downloading the document. */
  URL?: string;
  ParcelCode?: string;
  TrackingNumber?: string;
  /** The authorities' reference (MRN, ITN). */
  DocumentReference?: string;
  ShippingServiceName?: string;
  CreationDateTime?: string;
  /** The error of this order or parcel, when one happened (the other documents are still returned). */
  ErrorMessage?: string;
  [k: string]: unknown;
}

/** The answer of getShippingDocuments and dispatchOrders (top-level nulls left out). */
export interface ShippingDocumentsResult {
  IsSuccess?: boolean;
  /** The documents: labels, commercial invoices, … (getShippingDocuments); the manifest documents (dispatchOrders). */
  Documents: DecodedShippingDocument[];
  /** The carriers' manifests (dispatchOrders), decoded like Documents. */
  ShipperManifests: DecodedShippingDocument[];
  ParcelsTracking?: Array<Record<string, unknown>>;
  TrackingDetails?: Record<string, unknown> | Array<Record<string, unknown>>;
  DeliveryAdviceInformation?: Array<Record<string, unknown>>;
  [k: string]: unknown;
}

function decode(operation: ServiceOperation, outcome: Outcome, list: ShippingDocument[] | null | undefined, where: string): DecodedShippingDocument[] {
  return (list ?? []).map((doc, i) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(doc)) if (v !== null && v !== undefined && k !== 'DocumentData') out[k] = v;
    if (doc.DocumentTypeCode !== null && doc.DocumentTypeCode !== undefined) {
      const code = String(doc.DocumentTypeCode).trim();
      out.DocumentTypeCode = code;
      const name = DOCUMENT_TYPES[code];
      if (name !== undefined) out.DocumentType = name;
    }
    if (typeof doc.DocumentExtension === 'string') out.DocumentExtension = doc.DocumentExtension.trim().replace(/^\./, '').toUpperCase();
    if (typeof doc.DocumentData === 'string' && doc.DocumentData.trim() !== '') {
      const bytes = decodeBase64(doc.DocumentData);
      if (bytes === null) {
        throw new ServiceError({
          code: 'INVALID_RESPONSE', operation, status: outcome.status, attempts: outcome.attempts,
          description: `the 2xx answer's /${where}/${i}/DocumentData is not well-formed base64; no document is returned`,
        });
      }
      out.Content = bytes;
    }
    return out as DecodedShippingDocument;
  });
}

/** The result of a 2xx ShippingDocumentsResponse; a ServiceError for anything else (documented codes first). */
export function shippingDocumentsAnswer(operation: ServiceOperation, outcome: Outcome, codes: Readonly<Record<string, string>>): ShippingDocumentsResult {
  const documented = documentedError(operation, outcome, codes);
  if (documented) throw documented;
  if (!isSuccess(outcome.status)) throw errorFromAnswer(operation, outcome);
  const body = validBody<ShippingDocumentsResponse>(operation, outcome, 'service/shipping-documents-response.schema.json');
  if (body.IsSuccess === false) {
    const said = typeof body.ErrorText === 'string' && body.ErrorText.trim() !== '' ? mask(body.ErrorText, outcome.secrets) : undefined;
    throw new ServiceError({
      code: 'SERVICE_ERROR', operation, status: outcome.status, attempts: outcome.attempts,
      description: `the service answered IsSuccess: false${said ? `: ${said}` : ' (no ErrorText)'}`,
    });
  }
  const { Documents, ShipperManifests, ...rest } = body;
  const kept: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) if (v !== null && v !== undefined) kept[k] = v;
  return { ...kept, Documents: decode(operation, outcome, Documents, 'Documents'), ShipperManifests: decode(operation, outcome, ShipperManifests, 'ShipperManifests') };
}
