/// <reference types="node" preserve="true" />
/**
 * The answer of GetShippingDocuments and DispatchOrders (ShippingDocumentsResponse): the documented
 * error codes, `IsSuccess: false`, and each document decoded — its bytes as a Buffer (`Content`), its
 * extension as PDF, ZPL or EPL, its type code as text with the documented name beside it. What the
 * pages do not document is refused as INVALID_RESPONSE, never passed on: an extension outside
 * PDF, ZPL, EPL (`exe`, `../x`, `.PDF.exe`: a file name built from it must stay a printable
 * document) and a URL that is not an absolute http(s) URL (`javascript:`, `file:`).
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

/**
 * The format of a shipping document: the service's `DocumentExtension`, upper-cased. Anything else is refused as INVALID_RESPONSE.
 */
export type DocumentFormat = 'PDF' | 'ZPL' | 'EPL';

/** A document as the client returns it: the service's fields (nulls left out), decoded; DocumentData is replaced by Content. */
export interface DecodedShippingDocument {
  /** DocumentTypeCode as text ('4' for a label, '1' for a commercial invoice, …). */
  DocumentTypeCode?: string;
  /** The documented name of DocumentTypeCode ('Label', 'CommercialInvoice', …); absent for a code the pages do not list. */
  DocumentType?: string;
  /** The service's own name (AWB, CommercialInvoiceAndPackingList, Manifest, …). */
  DocumentTypeName?: string;
  /** PDF, ZPL or EPL (upper case, leading dot removed); the service sending anything else is an INVALID_RESPONSE. */
  DocumentExtension?: DocumentFormat;
  /** The bytes of DocumentData (ready to print); absent when the service gave only a URL. */
  Content?: Buffer;
  /** The URL for printing or downloading the document: always an absolute http(s) URL (anything else is an INVALID_RESPONSE). */
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

const FORMATS: ReadonlySet<string> = new Set<DocumentFormat>(['PDF', 'ZPL', 'EPL']);

/** PDF, ZPL or EPL from the service's text (any case, trimmed, one leading dot); undefined for anything else (`exe`, `../x`, `.PDF.exe`). */
function documentFormat(text: string): DocumentFormat | undefined {
  const format = text.trim().replace(/^\./, '').toUpperCase();
  return FORMATS.has(format) ? format as DocumentFormat : undefined;
}

/** The URL as sent (trimmed) when it is an absolute http(s) URL; undefined otherwise (`javascript:`, `file:`, `data:`, a relative path). */
function httpUrl(text: string): string | undefined {
  const trimmed = text.trim();
  if (!URL.canParse(trimmed)) return undefined;
  const { protocol } = new URL(trimmed);
  return protocol === 'http:' || protocol === 'https:' ? trimmed : undefined;
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
    const invalid = (field: string, rule: string) => new ServiceError({
      code: 'INVALID_RESPONSE', operation, status: outcome.status, attempts: outcome.attempts,
      // the pointer and the rule, never the value (a service's text is not echoed into the error)
      description: `the 2xx answer's /${where}/${i}/${field} ${rule}; no document is returned`,
    });
    delete out.DocumentExtension;
    if (typeof doc.DocumentExtension === 'string' && doc.DocumentExtension.trim() !== '') {
      const format = documentFormat(doc.DocumentExtension);
      if (format === undefined) throw invalid('DocumentExtension', 'is not one of PDF, ZPL, EPL (any case, an optional leading dot)');
      out.DocumentExtension = format;
    }
    delete out.URL;
    if (typeof doc.URL === 'string' && doc.URL.trim() !== '') {
      const url = httpUrl(doc.URL);
      if (url === undefined) throw invalid('URL', 'is not an absolute http(s) URL');
      out.URL = url;
    }
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
