/**
 * Fulfilment holds (runs under the OrderId lock the idempotency step holds, just before the adapter):
 * - SendOrderToMerchant with a non-empty AdditionalRequiredDocuments places the order on hold (the
 *   awaited documents minus those already received) before the adapter runs;
 * - the documents webhook, once the adapter accepted the documents, counts them and releases the
 *   hold when nothing is left awaited (documents arriving before the order are remembered);
 * - every order callback sees the order's hold as `context.fulfilmentHold` (the documents webhook:
 *   the hold as it will be once these documents are counted; absent when released).
 */
import { PipelineFailure } from '../../shared/errors.js';
import { applyDocuments, holdOf, toDocumentRefs } from '../../store/holds.js';
import type { KitStore } from '../../store/capabilities.js';
import type { FulfilmentHold } from '../../store/types.js';
import type { PipelineState, StepFactory } from '../state.js';
import { storeCall } from '../delivery/store-call.js';

function storeFailed(state: PipelineState, err: unknown): never {
  state.log.error({ err }, 'fulfilment-hold store failed');
  throw new PipelineFailure('STORE_UNAVAILABLE', 'fulfilment-hold store failed',
    'The order store is unavailable; retry later', { 'retry-after': '5' });
}

/** A store call whose failure (rejected or thrown) is logged and answered 503, retryable (delivery/store-call.ts). */
const fromStore = <T>(state: PipelineState, work: () => Promise<T>): Promise<T> => storeCall(state, work, storeFailed);

const show = (state: PipelineState, hold: FulfilmentHold | null) => {
  if (hold) state.context.fulfilmentHold = hold;
  else delete state.context.fulfilmentHold;
};

/** The order's hold: as read with the OrderId lock when the store did, else read now. */
const currentHold = (state: PipelineState, store: KitStore, orderId: string): Promise<FulfilmentHold | null> =>
  state.prefetchedHold !== undefined ? Promise.resolve(state.prefetchedHold) : fromStore(state, () => store.getFulfilmentHold(orderId));

/** Exactly-once order callbacks: the hold an order announces is placed, else the order's hold is shown to the adapter. */
export const holdsStep: StepFactory = (options) => {
  const { store } = options.idempotency;
  return async (state, next) => {
    if (!(await placeAnnouncedHold(state, store))) show(state, await currentHold(state, store, state.orderId!));
    return next();
  };
};

/** The documents webhook: shows the hold as it will be once these documents count; counts them once the adapter accepted them. */
export const documentsHoldsStep: StepFactory = (options) => {
  const { store } = options.idempotency;
  return async (state, next) => {
    const orderId = state.orderId!;
    const refs = toDocumentRefs((state.input as Record<string, unknown>).Documents);
    const current = await currentHold(state, store, orderId);
    show(state, current && holdOf(orderId, applyDocuments({ awaiting: current.awaiting, received: [], since: current.since }, refs)));
    const res = await next();
    const body = res.body as Record<string, unknown> | null;
    if (res.status === 200 && body?.Success === true) {
      const after = await fromStore(state, () => store.recordDocuments(orderId, refs));
      state.log.info({ documents: refs.length, awaiting: after?.awaiting.length ?? 0 },
        after ? 'additional documents received; order still on hold' : 'additional documents received; order not on hold');
    }
    return res;
  };
};

/**
 * SendOrderToMerchant announcing AdditionalRequiredDocuments: places the order on hold (also when
 * the delivery is answered from a stored payment and never reaches the adapter). False when the
 * payload announces no documents.
 */
export async function placeAnnouncedHold(state: PipelineState, store: KitStore): Promise<boolean> {
  if (!state.entry.placesHold || state.orderId === undefined) return false;
  const required = toDocumentRefs((state.input as Record<string, unknown>).AdditionalRequiredDocuments);
  if (required.length === 0) return false;
  const orderId = state.orderId;
  const hold = await fromStore(state, () => store.placeFulfilmentHold(orderId, required));
  if (hold) state.log.info({ awaiting: hold.awaiting.length }, 'order placed on fulfilment hold');
  show(state, hold);
  return true;
}
