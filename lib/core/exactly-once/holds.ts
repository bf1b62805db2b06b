/**
 * The hold policy: fulfilment holds as hooks of an exactly-once delivery (index.ts calls them under
 * the OrderId lock).
 * - SendOrderToMerchant with a non-empty AdditionalRequiredDocuments places the order on hold (the
 *   awaited documents minus those already received) before the adapter runs, also when its payment
 *   is replayed from the store and the adapter does not run;
 * - the documents webhook, once the adapter accepted the documents (on time or late), counts them and
 *   releases the hold when nothing is left awaited (documents arriving before the order are remembered);
 * - every order callback sees the order's hold as `context.fulfilmentHold` (the documents webhook:
 *   the hold as it will be once these documents are counted; absent when released): `beforeRun`
 *   answers it, and the adapter's context is built with it (stages/adapter.ts).
 */
import { applyDocuments, holdOf, toDocumentRefs } from '../../store/holds.js';
import type { KitStore } from '../../store/capabilities.js';
import type { FulfilmentHold } from '../../store/types.js';
import type { Keyed } from '../stages/types.js';
import { fromStore } from './settle.js';

export interface HoldPolicy {
  /** A stored payment replayed (the adapter does not run): the order still places the hold it announces. */
  replayed(d: Keyed): Promise<void>;
  /** Before the adapter: the hold placed, or read (`prefetched`: the hold the store read with the lock, if it did); the hold the adapter is shown (null: none). */
  beforeRun(d: Keyed, prefetched: FulfilmentHold | null | undefined): Promise<FulfilmentHold | null>;
  /** The adapter accepted the delivery in time: the documents webhook's documents are counted (a failing store: 503). */
  accepted(d: Keyed): Promise<void>;
  /** The adapter accepted after its time-out: the same count; false when the store failed (the success is then not stored). */
  acceptedLate(d: Keyed): Promise<boolean>;
}

const documentsOf = (d: Keyed) => toDocumentRefs((d.input as Record<string, unknown>).Documents);

export function createHoldPolicy(store: KitStore): HoldPolicy {
  /** The order's hold: as read with the OrderId lock when the store did, else read now. */
  const currentHold = (d: Keyed, prefetched: FulfilmentHold | null | undefined): Promise<FulfilmentHold | null> =>
    prefetched !== undefined ? Promise.resolve(prefetched) : fromStore(d.log, 'fulfilment-hold store', () => store.getFulfilmentHold(d.orderId));

  /** Places the hold a SendOrderToMerchant announces: `{ hold }` (null: none left awaited); undefined when it announces none. */
  const placeAnnounced = async (d: Keyed): Promise<{ hold: FulfilmentHold | null } | undefined> => {
    if (!d.entry.placesHold) return undefined;
    const required = toDocumentRefs((d.input as Record<string, unknown>).AdditionalRequiredDocuments);
    if (required.length === 0) return undefined;
    const hold = await fromStore(d.log, 'fulfilment-hold store', () => store.placeFulfilmentHold(d.orderId, required));
    if (hold) d.log.info({ awaiting: hold.awaiting.length }, 'order placed on fulfilment hold');
    return { hold };
  };

  return {
    async replayed(d) {
      await placeAnnounced(d);
    },
    async beforeRun(d, prefetched) {
      if (d.entry.documents) {
        // The hold as it will be once these documents count.
        const current = await currentHold(d, prefetched);
        return current && holdOf(d.orderId, applyDocuments({ awaiting: current.awaiting, received: [], since: current.since }, documentsOf(d)));
      }
      const placed = await placeAnnounced(d);
      return placed ? placed.hold : currentHold(d, prefetched);
    },
    async accepted(d) {
      if (!d.entry.documents) return;
      const refs = documentsOf(d);
      const after = await fromStore(d.log, 'fulfilment-hold store', () => store.recordDocuments(d.orderId, refs));
      d.log.info({ documents: refs.length, awaiting: after?.awaiting.length ?? 0 },
        after ? 'additional documents received; order still on hold' : 'additional documents received; order not on hold');
    },
    async acceptedLate(d) {
      if (!d.entry.documents) return true;
      try {
        await store.recordDocuments(d.orderId, documentsOf(d));
        return true;
      } catch (err) {
        d.log.error({ err }, 'store failed to count the documents of a late success; not storing it, so the retry runs again');
        return false;
      }
    },
  };
}
