/**
 * The client's side of the parcel → order record (store/parcel-orders.ts): after the service accepted
 * a dispatch or answered shipping documents, every parcel code and tracking number the request and
 * the answer name is recorded with the order the call named; a call that names parcels
 * (dispatchOrders by ParcelCodes or TrackingNumbers) reads it back to find the orders to check for a
 * fulfilment hold. Without a `store` nothing is recorded and nothing is read.
 */
import { isObject } from '../shared/options.js';
import { parcelOrders, recordParcelOrder, type ParcelIdKind } from '../store/parcel-orders.js';
import type { ServiceOperation } from './errors.js';
import type { ResolvedClientOptions } from './options.js';

export interface ParcelIds {
  parcel: string[];
  tracking: string[];
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** Adds the ParcelCode and TrackingNumber (also in TrackingDetails) of each object of `list` to `into`. */
export function collectParcelIds(into: ParcelIds, list: unknown): ParcelIds {
  for (const item of Array.isArray(list) ? list : [list]) {
    if (!isObject(item)) continue;
    const code = text(item.ParcelCode);
    if (code && !into.parcel.includes(code)) into.parcel.push(code);
    const tracking = [item.TrackingNumber, isObject(item.TrackingDetails) ? item.TrackingDetails.TrackingNumber : undefined].map(text);
    for (const t of tracking) if (t && !into.tracking.includes(t)) into.tracking.push(t);
  }
  return into;
}

/** Records each parcel code and tracking number with the order named (by either of its ids); a store failure is logged. */
export async function rememberParcels(o: ResolvedClientOptions, operation: ServiceOperation, orderIds: ReadonlyArray<string | undefined>, ids: ParcelIds): Promise<void> {
  const store = o.store;
  if (!store) return;
  const orders = orderIds.filter((id): id is string => typeof id === 'string' && id !== '');
  try {
    for (const kind of ['parcel', 'tracking'] as const) {
      for (const id of ids[kind]) for (const orderId of orders) await recordParcelOrder(store, kind, id, orderId);
    }
  } catch (err) {
    o.log.error({ operation, err: err instanceof Error ? err.name : 'error' }, 'the store could not record the parcels of an accepted call (a dispatch by these parcels will be refused unless forced)');
  }
}

/** The orders each id was recorded with; an id recorded with none maps to []. Store failures throw. */
export async function ordersOfParcels(o: ResolvedClientOptions, kind: ParcelIdKind, ids: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const id of ids) out.set(id, await parcelOrders(o.store!, kind, id));
  return out;
}
