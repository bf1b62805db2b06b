/**
 * Which orders a parcel code or a tracking number belongs to, as the service client recorded it
 * (dispatches and shipping documents the service accepted), so that a call naming parcels — a
 * DispatchOrders by ParcelCodes or TrackingNumbers — can be checked against the orders' fulfilment
 * holds. Kept in the order's record beside order-actions.ts (`~order:parcel:<code>:<n>`,
 * `~order:tracking:<number>:<n>`, each naming one order), with the store's core methods only. A
 * code may name more than one order (a merchant reusing a code): every order it was recorded with is
 * listed, so a guard reading it checks them all.
 */
import { randomUUID } from 'node:crypto';
import { storeKeyPart } from '../json/canonical.js';
import type { ResponseInfo } from '../payloads.js';
import { KitError } from '../shared/errors.js';
import { MAX_ORDER_ACTIONS } from './order-actions.js';
import type { StoreCore } from './types.js';

/** A parcel's own code (ParcelCode) or its carrier's tracking number. */
export type ParcelIdKind = 'parcel' | 'tracking';

const key = (kind: ParcelIdKind, id: string, n: number) => `~order:${kind}:${storeKeyPart(id)}:${n}`;
const blank = (v: unknown): v is unknown => typeof v !== 'string' || v.trim() === '';
/** The order a record names; none for a blank one (written by no version of the client: read as unrecorded, fail closed). */
const orderOf = (response: unknown): string | undefined => {
  const v = (response as { orderId?: unknown } | null)?.orderId;
  return blank(v) ? undefined : v as string;
};

const NAMES: Record<ParcelIdKind, string> = { parcel: 'a parcel code', tracking: 'a tracking number' };

/**
 * A blank parcel code or tracking number names no parcel, and a blank order id no order: neither is
 * recorded nor looked up (a parcel recorded under order '' maps to an order no hold guard can check).
 * ERR_CBK_INVALID_ARGUMENT, naming the function and what was blank (never the value).
 */
function refuseBlank(fn: string, what: string, value: unknown): void {
  if (blank(value)) throw new KitError('ERR_CBK_INVALID_ARGUMENT', `${fn}: ${what} must be a non-blank string`);
}

/** Every order `id` was recorded with, oldest first ([] when none); a blank `id` is refused (ERR_CBK_INVALID_ARGUMENT). */
export async function parcelOrders(store: Pick<StoreCore, 'getRecord'>, kind: ParcelIdKind, id: string): Promise<string[]> {
  refuseBlank('parcelOrders', NAMES[kind], id);
  const out: string[] = [];
  for (let n = 1; n <= MAX_ORDER_ACTIONS; n++) {
    const record = await store.getRecord(key(kind, id, n));
    if (!record) break;
    const orderId = orderOf(record.response);
    if (orderId !== undefined && !out.includes(orderId)) out.push(orderId);
  }
  return out;
}

/**
 * Records that `id` belongs to `orderId` (nothing when already recorded); false when the list is full.
 * A blank `id` or `orderId` is refused (ERR_CBK_INVALID_ARGUMENT), nothing recorded.
 */
export async function recordParcelOrder(store: Pick<StoreCore, 'getRecord' | 'saveRecord'>, kind: ParcelIdKind, id: string, orderId: string): Promise<boolean> {
  refuseBlank('recordParcelOrder', NAMES[kind], id);
  refuseBlank('recordParcelOrder', `the order id ${NAMES[kind]} is recorded with`, orderId);
  for (let n = 1; n <= MAX_ORDER_ACTIONS; n++) {
    const k = key(kind, id, n);
    const found = await store.getRecord(k);
    if (found) {
      if (orderOf(found.response) === orderId) return true;
      continue;
    }
    const nonce = randomUUID();
    await store.saveRecord({ key: k, callback: `~order:${kind}`, orderId, hash: nonce, response: { Success: true, orderId, [kind]: id } as ResponseInfo, payment: false });
    const kept = await store.getRecord(k);
    if (kept?.hash === nonce || orderOf(kept?.response) === orderId) return true;
  }
  return false;
}
