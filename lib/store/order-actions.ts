/**
 * What the merchant did to an order through the service client, kept in the kit's store so that the
 * client's guards and the callback pipeline can read it (the client never imports the pipeline; both
 * reach this through the Store interface):
 * - `dispatched`: a dispatch the service accepted (cancellation and address changes are refused after it);
 * - `cancel`: a cancellation the merchant sent (UpdateOrderStatus, merchant → service); the service's
 *   later UpdateOrderStatus callback for it is shown to the adapter as merchant-initiated;
 * - `refund`: a refund the service accepted (CreateOrderRefund); counted by the over-refund guard and
 *   matched to the NotifyOrderRefunded callback that follows;
 * - `refundRef`: the externalReference of an accepted refund (a second refund with it is refused);
 * - `address`: an address change the service accepted (202).
 * Each is a StoredRecord under a key no callback name starts with (`~order:<kind>:<OrderId>[:<n>]`),
 * so any store keeps them with its core methods; first write wins, as `saveRecord` promises.
 */
import { randomUUID } from 'node:crypto';
import { storeKeyPart } from '../json/canonical.js';
import type { ResponseInfo } from '../payloads.js';
import type { StoreCore, StoredRecord } from './types.js';

/** The service-client operation that records each kind the callbacks look for. */
export const ORDER_ACTION_OPERATIONS = { cancel: 'updateOrderStatus', refund: 'createOrderRefund' } as const;

export type OrderActionKind = 'dispatched' | 'cancel' | 'refund' | 'refundRef' | 'address';

/** Kinds an order may have many of (numbered 1, 2, …); the others are one per order (or per reference). */
const LISTED: ReadonlySet<OrderActionKind> = new Set(['refund', 'address']);
/** At most this many of a listed kind are kept per order (a loop gone wrong cannot fill the store). */
export const MAX_ORDER_ACTIONS = 100;

export interface OrderAction {
  kind: OrderActionKind;
  orderId: string;
  /** What the client recorded: the request's fields the guards and the pipeline read, and the service's answer. */
  details: Record<string, unknown>;
  at: Date;
}

type Reader = Pick<StoreCore, 'getRecord'>;
type Writer = Pick<StoreCore, 'getRecord' | 'saveRecord'>;

export const orderActionKey = (kind: OrderActionKind, orderId: string, part?: string | number): string =>
  `~order:${kind}:${storeKeyPart(orderId)}${part === undefined ? '' : `:${typeof part === 'number' ? part : storeKeyPart(part)}`}`;

const toAction = (kind: OrderActionKind, record: StoredRecord): OrderAction =>
  ({ kind, orderId: record.orderId, details: { ...(record.response as Record<string, unknown>) }, at: record.createdAt });

/** Saves under `key`; true when this write is the one kept (a concurrent writer of the same key may win). */
async function saveOnce(store: Writer, key: string, kind: OrderActionKind, orderId: string, details: Record<string, unknown>): Promise<boolean> {
  const nonce = randomUUID();
  await store.saveRecord({ key, callback: `~order:${kind}`, orderId, hash: nonce, response: { ...details, Success: true } as ResponseInfo, payment: false });
  const kept = await store.getRecord(key);
  return kept !== null && kept.hash === nonce;
}

/**
 * Records an action. A listed kind takes the next free number (a concurrent writer that took it
 * first pushes this one to the next); `part` names a single action (a refund's reference).
 * Resolves false when the slot was already taken (a single action recorded before) or the list is full.
 */
export async function recordOrderAction(store: Writer, kind: OrderActionKind, orderId: string, details: Record<string, unknown>, part?: string): Promise<boolean> {
  if (!LISTED.has(kind)) return saveOnce(store, orderActionKey(kind, orderId, part), kind, orderId, details);
  for (let n = 1; n <= MAX_ORDER_ACTIONS; n++) {
    const key = orderActionKey(kind, orderId, n);
    if (await store.getRecord(key)) continue;
    if (await saveOnce(store, key, kind, orderId, details)) return true;
  }
  return false;
}

/** The recorded action of a single kind (or of `part`), or null. */
export async function orderAction(store: Reader, kind: OrderActionKind, orderId: string, part?: string): Promise<OrderAction | null> {
  const record = await store.getRecord(orderActionKey(kind, orderId, part));
  return record && toAction(kind, record);
}

/** Every recorded action of a listed kind, oldest first. */
export async function orderActions(store: Reader, kind: OrderActionKind, orderId: string): Promise<OrderAction[]> {
  const out: OrderAction[] = [];
  for (let n = 1; n <= MAX_ORDER_ACTIONS; n++) {
    const record = await store.getRecord(orderActionKey(kind, orderId, n));
    if (!record) break;
    out.push(toAction(kind, record));
  }
  return out;
}

/** An amount's text in one form, for matching ("170.10", "170.1" and 170.1 are "170.1"); undefined when not a decimal. */
export function normaliseAmountText(value: unknown): string | undefined {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : '';
  const m = /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (!m) return undefined;
  const int = m[1].replace(/^0+(?=\d)/, '');
  const frac = (m[2] ?? '').replace(/0+$/, '');
  return frac === '' ? int : `${int}.${frac}`;
}

/** A status code that cancels the order ("canceled", "cancelled", "CANCELLED": the pages spell it all three ways). */
export const isCancellation = (code: unknown): boolean => typeof code === 'string' && /^cancell?ed$/i.test(code.trim());
