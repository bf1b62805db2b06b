/**
 * The end of an attempt under the OrderId lock (see docs/idempotency.md), when it outlives the reply:
 * - a success whose reply could not be stored: the reply is kept in memory (replayed to deliveries
 *   in this process) and its save retried with back-off while the lock is held; past the lock's
 *   bound the attempt is recorded 'unsaved';
 * - an adapter that timed out: the lock is held until it settles (a late success is stored and
 *   replayed later) or until the lock's bound, when the attempt stays recorded as 'timeout'.
 * The lock's bound is its lease minus a safety margin, so it is released before anyone else may
 * take it over.
 */
import type { ResponseInfo } from '../../payloads.js';
import { toDocumentRefs } from '../../store/holds.js';
import type { AttemptOutcome, NewRecord, Store, StoreLock } from '../../store/types.js';
import { ORDER_CREATION } from '../registry.js';
import type { PipelineState } from '../state.js';
import type { CallbackResponse } from '../types.js';

const sleep = (ms: number) => new Promise<void>((r) => { setTimeout(r, Math.max(0, ms)).unref?.(); });

/** First and longest pause between two tries of a failed save. */
export const SAVE_BACKOFF_MS = { first: 50, max: 2_000 };

export interface AttemptFinisher {
  /** Replies kept in memory while their save is retried, by key; payments also by OrderId. */
  readonly unsaved: Map<string, NewRecord>;
  readonly unsavedPayments: Map<string, NewRecord>;
  /**
   * Stores a successful reply (one try); false when the store failed (it is then retried in the
   * background). Given the lock of a store that can save and release at once, does both:
   * 'released' (the lock is then released).
   */
  saveNow(state: PipelineState, record: NewRecord, lock?: StoreLock): Promise<boolean | 'released'>;
  /** Keeps the lock while `record` is saved with back-off, until `deadline`; then releases it. */
  keepSaving(state: PipelineState, record: NewRecord, lock: StoreLock, deadline: number): Promise<void>;
  /** Keeps the lock until the timed-out adapter settles (storing a late success) or `deadline`; then releases it. */
  awaitLate(state: PipelineState, base: Omit<NewRecord, 'response'>, lock: StoreLock, deadline: number): Promise<void>;
  /** Records how an attempt ended; a failure is logged (the next attempt then sees 'crashed'). */
  end(state: PipelineState, key: string, outcome: AttemptOutcome | null): Promise<void>;
  release(state: PipelineState, lock: StoreLock): Promise<void>;
}

export const isSuccess = (res: CallbackResponse): boolean => {
  const body = res.body as Record<string, unknown> | null;
  return res.status === 200 && body !== null && typeof body === 'object' && body.Success === true;
};

export function createAttemptFinisher(store: Store): AttemptFinisher {
  const unsaved = new Map<string, NewRecord>();
  const unsavedPayments = new Map<string, NewRecord>();

  const end = async (state: PipelineState, key: string, outcome: AttemptOutcome | null) => {
    await store.endAttempt(key, outcome)
      .catch((err: unknown) => state.log.error({ err, outcome }, 'idempotency store failed to record how an attempt ended'));
  };

  const release = async (state: PipelineState, lock: StoreLock) => {
    await lock.release().catch((err: unknown) => state.log.error({ err }, 'idempotency store failed to release an OrderId lock (its lease will expire)'));
  };

  /** The merchant ids of a created order, kept for the client's hold guard. */
  const merchantIdsOf = (record: NewRecord): string[] => {
    const response = record.response;
    return record.callback === ORDER_CREATION
      ? [response.InternalOrderId, response.OrderId].filter((v): v is string => typeof v === 'string' && v !== '') : [];
  };

  /** After a stored success: the attempt ended cleanly; the merchant ids of a created order are kept. */
  const afterSave = async (state: PipelineState, record: NewRecord) => {
    await end(state, record.key, null);
    const ids = merchantIdsOf(record);
    if (ids.length > 0) {
      await store.saveMerchantOrderIds(record.orderId, ids)
        .catch((err: unknown) => state.log.error({ err }, 'store failed to keep the merchant order ids of an order'));
    }
  };

  const saveNow = async (state: PipelineState, record: NewRecord, lock?: StoreLock): Promise<boolean | 'released'> => {
    if (lock?.saveAndRelease) {
      try {
        await lock.saveAndRelease(record, merchantIdsOf(record));
        return 'released';
      } catch (err) {
        state.log.error({ err }, 'idempotency store failed to keep a successful reply; keeping the OrderId lock and retrying');
        return false;
      }
    }
    try {
      await store.saveRecord(record);
    } catch (err) {
      state.log.error({ err }, 'idempotency store failed to keep a successful reply; keeping the OrderId lock and retrying');
      return false;
    }
    await afterSave(state, record);
    return true;
  };

  const keepSaving = async (state: PipelineState, record: NewRecord, lock: StoreLock, deadline: number) => {
    unsaved.set(record.key, record);
    if (record.payment && !unsavedPayments.has(record.orderId)) unsavedPayments.set(record.orderId, record);
    let pause = SAVE_BACKOFF_MS.first;
    let saved = false;
    try {
      while (!saved && Date.now() + pause < deadline) {
        await sleep(pause);
        pause = Math.min(pause * 2, SAVE_BACKOFF_MS.max);
        try {
          await store.saveRecord(record);
          saved = true;
        } catch (err) {
          state.log.warn({ err }, 'idempotency store still failing to keep a successful reply');
        }
      }
      if (saved) {
        state.log.info({}, 'a successful reply that could not be stored at first is now stored');
        await afterSave(state, record);
      } else {
        state.log.error({}, 'gave up storing a successful reply (the OrderId lock reached its bound); the next attempt is told previousAttempt.outcome = unsaved');
        await end(state, record.key, 'unsaved');
      }
    } finally {
      if (unsaved.get(record.key) === record) unsaved.delete(record.key);
      if (unsavedPayments.get(record.orderId) === record) unsavedPayments.delete(record.orderId);
      await release(state, lock);
    }
  };

  const awaitLate = async (state: PipelineState, base: Omit<NewRecord, 'response'>, lock: StoreLock, deadline: number) => {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<'bound'>((r) => { timer = setTimeout(() => r('bound'), Math.max(0, deadline - Date.now())); });
    const settled = await Promise.race([
      state.lateReply!.then((res) => res, (err: unknown) => ({ failed: err })),
      bound,
    ]).finally(() => clearTimeout(timer));
    if (settled === 'bound') {
      state.log.error({}, 'adapter still running when the OrderId lock reached its bound; releasing it (the next attempt is told previousAttempt.outcome = timeout)');
      await release(state, lock);
      return;
    }
    if ('failed' in settled) {
      await end(state, base.key, state.invalidResult ? 'invalid-result' : 'timeout');
      await release(state, lock);
      return;
    }
    if (!isSuccess(settled)) {
      await release(state, lock);
      return;
    }
    const record: NewRecord = { ...base, response: settled.body as ResponseInfo };
    if (state.entry.kind === 'documents') {
      // The holds step gave up on this delivery at the time-out: count its documents now, or a replay would never count them.
      try {
        await store.recordDocuments(base.orderId, toDocumentRefs((state.input as Record<string, unknown>).Documents));
      } catch (err) {
        state.log.error({ err }, 'store failed to count the documents of a late success; not storing it, so the retry runs again');
        await release(state, lock);
        return;
      }
    }
    state.log.warn({}, 'adapter succeeded after its time-out; its reply is stored and replayed to later deliveries');
    const saved = await saveNow(state, record, lock);
    if (saved === true) await release(state, lock);
    else if (!saved) await keepSaving(state, record, lock, deadline);
  };

  return { unsaved, unsavedPayments, saveNow, keepSaving, awaitLate, end, release };
}
