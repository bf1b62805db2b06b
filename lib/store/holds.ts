/**
 * Fulfilment-hold bookkeeping shared by every store (pure functions). Per OrderId a store keeps a
 * HoldState: the documents still awaited (null: no hold), the documents received so far (kept even
 * before the order arrives, as identifiers only) and when the hold was placed.
 */
import type { DocumentRef, FulfilmentHold } from './types.js';

/**
 * A fulfilment hold's state as a store keeps it (for a store of your own): the documents awaited (null
 * when no hold was placed), those received, and since when the order is held.
 */
export interface HoldState {
  awaiting: DocumentRef[] | null;
  received: DocumentRef[];
  since: Date | null;
}

/** The spec's DocumentTypeCode values; a name given instead of the number is mapped to it. */
export const DOCUMENT_TYPE_CODES: Readonly<Record<string, string>> = Object.freeze({
  commercialinvoice: '1', packinglist: '2', shippermanifest: '3', label: '4', vatinvoice: '5',
  dangerousgooddeclarationlink: '6', platformlabel: '7', customerreceiptinvoice: '8', archibelabel: '9',
  deliveryadvice: '10', ead: '11',
});

/** Most received identifiers kept per order (the oldest are dropped past it). */
export const MAX_RECEIVED = 500;

const text = (v: unknown): string | undefined =>
  (typeof v === 'string' && v.trim() !== '') || typeof v === 'number' ? String(v).trim() : undefined;

export function normalizeTypeCode(code: unknown): string | undefined {
  const t = text(code);
  if (t === undefined) return undefined;
  if (/^\d+$/.test(t)) return String(Number(t));
  return DOCUMENT_TYPE_CODES[t.toLowerCase()] ?? t;
}

/** The identifiers of an OrderDocument (DocumentTypeCode, ParcelCode, TrackingNumber), or null without a type. */
export function toDocumentRef(doc: unknown): DocumentRef | null {
  if (typeof doc !== 'object' || doc === null) return null;
  const d = doc as Record<string, unknown>;
  const type = normalizeTypeCode(d.DocumentTypeCode);
  if (type === undefined) return null;
  const ref: DocumentRef = { DocumentTypeCode: type };
  const parcel = text(d.ParcelCode);
  const tracking = text(d.TrackingNumber);
  if (parcel !== undefined) ref.ParcelCode = parcel;
  if (tracking !== undefined) ref.TrackingNumber = tracking;
  return ref;
}

export function toDocumentRefs(docs: unknown): DocumentRef[] {
  if (!Array.isArray(docs)) return [];
  return dedupe(docs.map(toDocumentRef).filter((r): r is DocumentRef => r !== null));
}

const same = (a?: string, b?: string) => a === undefined || (b !== undefined && a.toUpperCase() === b.toUpperCase());

/** A received document satisfies an awaited one of its type; ParcelCode / TrackingNumber must match when awaited with them. */
export function satisfies(received: DocumentRef, awaited: DocumentRef): boolean {
  return received.DocumentTypeCode === awaited.DocumentTypeCode
    && same(awaited.ParcelCode, received.ParcelCode)
    && same(awaited.TrackingNumber, received.TrackingNumber);
}

const identity = (r: DocumentRef) => `${r.DocumentTypeCode}\u0000${(r.ParcelCode ?? '').toUpperCase()}\u0000${(r.TrackingNumber ?? '').toUpperCase()}`;

export function dedupe(refs: readonly DocumentRef[]): DocumentRef[] {
  const seen = new Map<string, DocumentRef>();
  for (const r of refs) if (!seen.has(identity(r))) seen.set(identity(r), r);
  return [...seen.values()];
}

export function remaining(awaited: readonly DocumentRef[], received: readonly DocumentRef[]): DocumentRef[] {
  return awaited.filter((a) => !received.some((r) => satisfies(r, a)));
}

/** The state of an order that never had a hold (for a store of your own). */
export const emptyHoldState = (): HoldState => ({ awaiting: null, received: [], since: null });

/** SendOrderToMerchant with AdditionalRequiredDocuments: the list replaces the awaited one; documents already received count. */
export function applyPlace(state: HoldState, required: readonly DocumentRef[], now: Date): HoldState {
  const awaiting = remaining(dedupe(required), state.received);
  if (awaiting.length === 0) return { ...state, awaiting: null, since: null };
  return { ...state, awaiting, since: state.awaiting && state.since ? state.since : now };
}

/** Documents accepted through the webhook: remembered, and struck off the awaited list. */
export function applyDocuments(state: HoldState, received: readonly DocumentRef[]): HoldState {
  const all = dedupe([...state.received, ...received]).slice(-MAX_RECEIVED);
  if (!state.awaiting) return { ...state, received: all };
  const awaiting = remaining(state.awaiting, received);
  return awaiting.length === 0 ? { awaiting: null, received: all, since: null } : { ...state, awaiting, received: all };
}

/**
 * The {@link FulfilmentHold} a store answers for an order from its kept {@link HoldState} (null when the
 * order awaits no document), as the built-in stores compute it.
 */
export function holdOf(orderId: string, state: HoldState | null | undefined): FulfilmentHold | null {
  if (!state || !state.awaiting || state.awaiting.length === 0) return null;
  return { orderId, awaiting: state.awaiting.map((r) => ({ ...r })), since: new Date(state.since ?? Date.now()) };
}
