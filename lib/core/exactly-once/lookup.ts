/**
 * Lookup: the stored answer of an exactly-once delivery, if there is one: its own reply (by key), or
 * the order's earlier successful payment (a payment request, whatever its payload). A reply whose
 * save is still being retried (kept in memory by the settler) counts as stored.
 */
import type { Prefetched, StoredRecord } from '../../store/types.js';
import type { KitStore } from '../../store/capabilities.js';
import type { Answer } from '../stages/reply.js';
import type { Keyed } from '../stages/types.js';
import type { HoldPolicy } from './holds.js';
import type { Settler } from './settle.js';
import { fromStore } from './store-call.js';

/** A stored reply as the answer (stages/reply.ts sends it with the replay header). */
export const replay = (record: Pick<StoredRecord, 'response'>, outcome: 'replayed' | 'payment_replayed'): Answer =>
  ({ kind: 'replayed', response: record.response, outcome });

/** Where a lookup reads: the store, or what the store read together with the lock (`Prefetched`). */
export interface Reads {
  record(key: string): Promise<StoredRecord | null>;
  payment(orderId: string): Promise<StoredRecord | null>;
}

/** Reads from the store; a failing store is refused 503. */
export const storeReads = (d: Keyed, store: KitStore): Reads => ({
  record: (key) => fromStore(d.log, 'idempotency store', () => store.getRecord(key)),
  payment: (orderId) => fromStore(d.log, 'idempotency store', () => store.getPayment(orderId)),
});

/** Reads what the store read with the claim. */
export const prefetchedReads = (prefetched: Pick<Prefetched, 'record' | 'payment'>): Reads => ({
  record: async () => prefetched.record,
  payment: async () => prefetched.payment,
});

/** What a lookup needs: where it reads, the replies kept in memory, the hold policy (a replayed payment still places its hold). */
export interface Lookup { reads: Reads; settler: Settler; holds: HoldPolicy }

/**
 * The stored answer of this delivery, if any: its own reply, or the order's earlier successful
 * payment. A SendOrderToMerchant answered from the payment still places the fulfilment hold it announces.
 */
export async function storedAnswer(d: Keyed, { reads, settler, holds }: Lookup): Promise<Answer | null> {
  const pendingOwn = settler.unsaved.get(d.key);
  if (pendingOwn) return replay(pendingOwn, 'replayed');
  const own = await reads.record(d.key);
  if (own) return replay(own, 'replayed');
  if (!d.payment) return null;
  const paid: Pick<StoredRecord, 'hash' | 'callback' | 'response'> & { createdAt?: Date } | null =
    settler.unsavedPayments.get(d.orderId) ?? await reads.payment(d.orderId);
  if (!paid) return null;
  if (paid.hash !== d.fingerprint || paid.callback !== d.callback) {
    d.log.warn({ paidBy: paid.callback, paidAt: paid.createdAt?.toISOString() },
      'payment already succeeded for this OrderId; a payment request with a different payload got the stored success and did not reach the adapter');
  }
  await holds.replayed(d);
  return replay(paid, 'payment_replayed');
}

/**
 * For a store that looks for the stored answer in its claim (`claimOrReplay`): only what this process
 * keeps in memory (a reply whose save is being retried) is answered before it.
 */
export async function pendingAnswer(d: Keyed, lookup: Lookup): Promise<Answer | null> {
  const pendingOwn = lookup.settler.unsaved.get(d.key);
  if (pendingOwn) return replay(pendingOwn, 'replayed');
  // Rare (a store outage): read as a store without claimOrReplay would, so the key's own stored reply still comes first.
  if (d.payment && lookup.settler.unsavedPayments.has(d.orderId)) return storedAnswer(d, lookup);
  return null;
}
