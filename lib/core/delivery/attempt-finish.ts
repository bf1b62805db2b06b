/**
 * The end of an attempt under the OrderId lock (see docs/idempotency.md), when it outlives the reply:
 * - a success whose reply could not be stored: the reply is kept in memory (replayed to deliveries
 *   in this process) and its save retried with back-off while the lock is held; past the lock's
 *   bound the attempt is recorded 'unsaved';
 * - an adapter that timed out: the lock is held until it settles (a late success is stored and
 *   replayed later) or until the lock's bound, when the attempt stays recorded as 'timeout'.
 * The lock's bound is its lease minus a safety margin, so it is released before anyone else may
 * take it over.
 * A store that fences its saves by the lease (PostgresStore) may refuse one whose lease was lost (a
 * save that stalled past it): nothing of it is stored, it is not retried, and the delivery is
 * answered with the reply stored by the attempt that took over, if any, else 503 (see lost()).
 */
import type { ResponseInfo } from '../../payloads.js';
import { toDocumentRefs } from '../../store/holds.js';
import { isLeaseLost } from '../../store/store-errors.js';
import type { KitStore } from '../../store/capabilities.js';
import type { AttemptOutcome, NewRecord, StoreLock, StoredRecord } from '../../store/types.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CallbackName } from '../registry.js';
import type { PipelineState } from '../state.js';
import type { CallbackResponse } from '../types.js';

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
  saveNow(state: PipelineState, record: NewRecord, lock?: StoreLock): Promise<SaveOutcome>;
  /** Keeps the lock while `record` is saved with back-off, until `deadline`; then releases it. */
  keepSaving(state: PipelineState, record: NewRecord, lock: StoreLock, deadline: number): Promise<void>;
  /** Keeps the lock until the timed-out adapter settles (storing a late success) or `deadline`; then releases it. */
  awaitLate(state: PipelineState, base: Omit<NewRecord, 'response'>, late: Promise<CallbackResponse>, lock: StoreLock, deadline: number): Promise<void>;
  /** Records how an attempt ended; a failure is logged (the next attempt then sees 'crashed'). */
  end(state: PipelineState, key: string, outcome: AttemptOutcome | null): Promise<void>;
  release(state: PipelineState, lock: StoreLock): Promise<void>;
}

/**
 * How a save went: true stored, 'released' stored and the lock released, false failed (retried in
 * the background), `{ lost }` refused because the lease was lost: `lost.winner` is the reply stored
 * for the key by the attempt that took over (null: none yet).
 */
export type SaveOutcome = boolean | 'released' | { lost: { winner: StoredRecord | null } };

export const isSuccess = (res: CallbackResponse): boolean => {
  const body = res.body as Record<string, unknown> | null;
  return res.status === 200 && body !== null && typeof body === 'object' && body.Success === true;
};

/** Where a finisher keeps its work: the store, and the replies kept in memory while their save is retried. */
interface Finishing {
  store: KitStore;
  orderCreation: CallbackName;
  unsaved: Map<string, NewRecord>;
  unsavedPayments: Map<string, NewRecord>;
}

/** `orderCreation`: the callback whose created order's merchant ids are kept (the registry's). */
export function createAttemptFinisher(store: KitStore, orderCreation: CallbackName): AttemptFinisher {
  const f: Finishing = { store, orderCreation, unsaved: new Map(), unsavedPayments: new Map() };
  return {
    unsaved: f.unsaved,
    unsavedPayments: f.unsavedPayments,
    saveNow: (state, record, lock) => saveNow(f, state, record, lock),
    keepSaving: (state, record, lock, deadline) => keepSaving(f, state, record, lock, deadline),
    awaitLate: (state, base, late, lock, deadline) => awaitLate(f, state, base, late, lock, deadline),
    end: (state, key, outcome) => end(f, state, key, outcome),
    release,
  };
}

async function end(f: Finishing, state: PipelineState, key: string, outcome: AttemptOutcome | null): Promise<void> {
  await f.store.endAttempt(key, outcome)
    .catch((err: unknown) => state.log.error({ err, outcome }, 'idempotency store failed to record how an attempt ended'));
}

async function release(state: PipelineState, lock: StoreLock): Promise<void> {
  await lock.release().catch((err: unknown) => state.log.error({ err }, 'idempotency store failed to release an OrderId lock (its lease will expire)'));
}

/** The merchant ids of a created order, kept for the client's hold guard. */
function merchantIdsOf(f: Finishing, record: NewRecord): string[] {
  const response = record.response;
  return record.callback === f.orderCreation
    ? [response.InternalOrderId, response.OrderId].filter((v): v is string => typeof v === 'string' && v !== '') : [];
}

/** After a stored success: the attempt ended cleanly; the merchant ids of a created order are kept. */
async function afterSave(f: Finishing, state: PipelineState, record: NewRecord): Promise<void> {
  await end(f, state, record.key, null);
  const ids = merchantIdsOf(f, record);
  if (ids.length > 0) {
    await f.store.saveMerchantOrderIds(record.orderId, ids)
      .catch((err: unknown) => state.log.error({ err }, 'store failed to keep the merchant order ids of an order'));
  }
}

async function saveNow(f: Finishing, state: PipelineState, record: NewRecord, lock?: StoreLock): Promise<SaveOutcome> {
  try {
    if (lock?.saveAndRelease) {
      await lock.saveAndRelease(record, merchantIdsOf(f, record));
      return 'released';
    }
    await f.store.saveRecord(record);
  } catch (err) {
    if (isLeaseLost(err)) return lost(f, state, record);
    state.log.error({ err }, 'idempotency store failed to keep a successful reply; keeping the OrderId lock and retrying');
    return false;
  }
  await afterSave(f, state, record);
  return true;
}

/**
 * The save was refused: the lease is no longer this attempt's (it stalled past it). Nothing was
 * stored and nothing is overwritten. When the key's stored reply is this one (a save that committed
 * although its answer did not arrive in time), it was stored after all; otherwise this attempt lost,
 * which is logged with both replies' order ids so the merchant can undo the lost one.
 */
async function lost(f: Finishing, state: PipelineState, record: NewRecord): Promise<SaveOutcome> {
  let winner: StoredRecord | null = null;
  try {
    winner = await f.store.getRecord(record.key);
  } catch (err) {
    state.log.error({ err }, 'idempotency store failed to read the reply of a delivery whose lease was lost');
  }
  if (winner && JSON.stringify(winner.response) === JSON.stringify(record.response)) return 'released';
  state.log.error({ internalOrderId: record.response.InternalOrderId ?? null, storedInternalOrderId: winner?.response.InternalOrderId ?? null },
    winner
      ? 'this attempt lost its lease before its reply was stored (it stalled past leaseMs); another attempt took over and its reply is the order\'s; this attempt\'s reply is not stored nor sent: undo what it did'
      : 'this attempt lost its lease before its reply was stored (it stalled past leaseMs); its reply is not stored nor sent (503): the next attempt is told previousAttempt.outcome = unsaved');
  if (!winner) await end(f, state, record.key, 'unsaved');
  return { lost: { winner } };
}

async function keepSaving(f: Finishing, state: PipelineState, record: NewRecord, lock: StoreLock, deadline: number): Promise<void> {
  const { unsaved, unsavedPayments } = f;
  unsaved.set(record.key, record);
  if (record.payment && !unsavedPayments.has(record.orderId)) unsavedPayments.set(record.orderId, record);
  try {
    const saved = await retrySave(f, state, record, lock, deadline);
    if (saved === 'lost') {
      await lost(f, state, record);
    } else if (saved) {
      state.log.info({}, 'a successful reply that could not be stored at first is now stored');
      if (saved !== 'released') await afterSave(f, state, record);
    } else {
      state.log.error({}, 'gave up storing a successful reply (the OrderId lock reached its bound); the next attempt is told previousAttempt.outcome = unsaved');
      await end(f, state, record.key, 'unsaved');
    }
  } finally {
    if (unsaved.get(record.key) === record) unsaved.delete(record.key);
    if (unsavedPayments.get(record.orderId) === record) unsavedPayments.delete(record.orderId);
    await release(state, lock);
  }
}

/**
 * Tries to save with back-off until `deadline` (through the lock when it can save, so every try is
 * fenced by the lease); whether it was saved ('released': and the lock released; 'lost': the lease was lost).
 */
async function retrySave(f: Finishing, state: PipelineState, record: NewRecord, lock: StoreLock, deadline: number): Promise<boolean | 'released' | 'lost'> {
  let pause = SAVE_BACKOFF_MS.first;
  while (Date.now() + pause < deadline) {
    await sleep(Math.max(0, pause), undefined, { ref: false });
    pause = Math.min(pause * 2, SAVE_BACKOFF_MS.max);
    try {
      if (lock.saveAndRelease) {
        await lock.saveAndRelease(record, merchantIdsOf(f, record));
        return 'released';
      }
      await f.store.saveRecord(record);
      return true;
    } catch (err) {
      if (isLeaseLost(err)) return 'lost';
      state.log.warn({ err }, 'idempotency store still failing to keep a successful reply');
    }
  }
  return false;
}

/** The late reply, or 'bound' when `deadline` comes first, or `{ failed }` when it rejects. */
async function lateOrBound(late: Promise<CallbackResponse>, deadline: number): Promise<CallbackResponse | 'bound' | { failed: unknown }> {
  const bound = new AbortController();
  return Promise.race([
    late.then((res) => res, (err: unknown) => ({ failed: err })),
    sleep(Math.max(0, deadline - Date.now()), 'bound' as const, { signal: bound.signal }).catch(() => 'bound' as const),
  ]).finally(() => bound.abort());
}

async function awaitLate(f: Finishing, state: PipelineState, base: Omit<NewRecord, 'response'>, late: Promise<CallbackResponse>, lock: StoreLock, deadline: number): Promise<void> {
  const settled = await lateOrBound(late, deadline);
  if (settled === 'bound') {
    state.log.error({}, 'adapter still running when the OrderId lock reached its bound; releasing it (the next attempt is told previousAttempt.outcome = timeout)');
    await release(state, lock);
    return;
  }
  if ('failed' in settled) await end(f, state, base.key, 'timeout');
  if ('failed' in settled || !isSuccess(settled) || !(await countLateDocuments(f, state, base))) {
    await release(state, lock);
    return;
  }
  const record: NewRecord = { ...base, response: settled.body as ResponseInfo };
  state.log.warn({}, 'adapter succeeded after its time-out; its reply is stored and replayed to later deliveries');
  const saved = await saveNow(f, state, record, lock);
  if (saved === true || typeof saved === 'object') await release(state, lock);
  else if (!saved) await keepSaving(f, state, record, lock, deadline);
}

/**
 * The documents webhook's late success: the holds step gave up on this delivery at the time-out, so
 * its documents are counted now, or a replay would never count them. False when the store failed.
 */
async function countLateDocuments(f: Finishing, state: PipelineState, base: Omit<NewRecord, 'response'>): Promise<boolean> {
  if (!state.entry.documents) return true;
  try {
    await f.store.recordDocuments(base.orderId, toDocumentRefs((state.input as Record<string, unknown>).Documents));
    return true;
  } catch (err) {
    state.log.error({ err }, 'store failed to count the documents of a late success; not storing it, so the retry runs again');
    return false;
  }
}
