/**
 * Settle: the end of an attempt under the OrderId lock (see docs/idempotency.md).
 * - a success is stored (with the lock's release when the store can do both at once);
 * - a success whose reply could not be stored: the reply is kept in memory (replayed to deliveries
 *   in this process) and its save retried with back-off while the lock is held; past the lock's
 *   bound the attempt is recorded 'unsaved';
 * - an adapter that timed out: the lock is held until it settles (a late success is stored and
 *   replayed later) or until the lock's bound, when the attempt stays recorded as 'timeout';
 * - anything else ends the attempt (recorded) and releases the lock.
 * The lock's bound is its lease minus a safety margin, so it is released before anyone else may
 * take it over. The retried save and the awaited late adapter outlive the reply: index.ts runs them
 * as background tasks (background.ts), each ending by the lock's bound.
 * A store that fences its saves by the lease (PostgresStore) may refuse one whose lease was lost (a
 * save that stalled past it): nothing of it is stored, it is not retried, and the delivery is
 * answered with the reply stored by the attempt that took over, if any, else 503 (see lost()).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ResponseInfo } from '../../payloads.js';
import { isLeaseLost } from '../../store/store-errors.js';
import type { KitStore } from '../../store/capabilities.js';
import type { AttemptOutcome, NewRecord, StoreLock, StoredRecord } from '../../store/types.js';
import type { CallbackName } from '../registry.js';
import type { Keyed } from '../stages/types.js';
import type { CallbackResponse } from '../types.js';
import type { HoldPolicy } from './holds.js';

/** First and longest pause between two tries of a failed save. */
export const SAVE_BACKOFF_MS = { first: 50, max: 2_000 };

/**
 * How a save went: true stored, 'released' stored and the lock released, false failed (retried in
 * the background), `{ lost }` refused because the lease was lost: `lost.winner` is the reply stored
 * for the key by the attempt that took over (null: none yet).
 */
export type SaveOutcome = boolean | 'released' | { lost: { winner: StoredRecord | null } };

/** The record of an attempt, without its reply. */
export type RecordBase = Omit<NewRecord, 'response'>;

/** The record of a successful attempt (listed, not spread: a spread adding a field costs a hidden class per record, stages/validate.ts). */
export const successRecord = (base: RecordBase, response: ResponseInfo): NewRecord =>
  ({ key: base.key, callback: base.callback, orderId: base.orderId, hash: base.hash, payment: base.payment, response });

export const isSuccess = (res: CallbackResponse): boolean => {
  const body = res.body as Record<string, unknown> | null;
  return res.status === 200 && body !== null && typeof body === 'object' && body.Success === true;
};

export class Settler {
  /** Replies kept in memory while their save is retried, by key; payments also by OrderId. */
  readonly unsaved = new Map<string, NewRecord>();
  readonly unsavedPayments = new Map<string, NewRecord>();

  /** `orderCreation`: the callback whose created order's merchant ids are kept (the registry's). */
  constructor(private readonly store: KitStore, private readonly orderCreation: CallbackName, private readonly holds: HoldPolicy) {}

  /** Records how an attempt ended; a failure is logged (the next attempt then sees 'crashed'). */
  async end(d: Keyed, key: string, outcome: AttemptOutcome | null): Promise<void> {
    try {
      await this.store.endAttempt(key, outcome);
    } catch (err) {
      d.log.error({ err, outcome }, 'idempotency store failed to record how an attempt ended');
    }
  }

  async release(d: Keyed, lock: StoreLock): Promise<void> {
    try {
      await lock.release();
    } catch (err) {
      d.log.error({ err }, 'idempotency store failed to release an OrderId lock (its lease will expire)');
    }
  }

  /**
   * Stores a successful reply (one try); false when the store failed (keepSaving then retries it).
   * Given the lock of a store that can save and release at once, does both: 'released'.
   */
  async saveNow(d: Keyed, record: NewRecord, lock?: StoreLock): Promise<SaveOutcome> {
    try {
      if (lock?.saveAndRelease) {
        await lock.saveAndRelease(record, this.merchantIdsOf(record));
        return 'released';
      }
      await this.store.saveRecord(record);
    } catch (err) {
      if (isLeaseLost(err)) return this.lost(d, record);
      d.log.error({ err }, 'idempotency store failed to keep a successful reply; keeping the OrderId lock and retrying');
      return false;
    }
    await this.afterSave(d, record);
    return true;
  }

  /** Keeps the lock while `record` is saved with back-off, until `deadline`; then releases it. */
  async keepSaving(d: Keyed, record: NewRecord, lock: StoreLock, deadline: number): Promise<void> {
    this.unsaved.set(record.key, record);
    if (record.payment && !this.unsavedPayments.has(record.orderId)) this.unsavedPayments.set(record.orderId, record);
    try {
      const saved = await this.retrySave(d, record, lock, deadline);
      if (saved === 'lost') {
        await this.lost(d, record);
      } else if (saved) {
        d.log.info({}, 'a successful reply that could not be stored at first is now stored');
        if (saved !== 'released') await this.afterSave(d, record);
      } else {
        d.log.error({}, 'gave up storing a successful reply (the OrderId lock reached its bound); the next attempt is told previousAttempt.outcome = unsaved');
        await this.end(d, record.key, 'unsaved');
      }
    } finally {
      if (this.unsaved.get(record.key) === record) this.unsaved.delete(record.key);
      if (this.unsavedPayments.get(record.orderId) === record) this.unsavedPayments.delete(record.orderId);
      await this.release(d, lock);
    }
  }

  /** Keeps the lock until the timed-out adapter settles (storing a late success) or `deadline`; then releases it. */
  async awaitLate(d: Keyed, base: RecordBase, late: Promise<CallbackResponse>, lock: StoreLock, deadline: number): Promise<void> {
    const settled = await lateOrBound(late, deadline);
    if (settled === 'bound') {
      d.log.error({}, 'adapter still running when the OrderId lock reached its bound; releasing it (the next attempt is told previousAttempt.outcome = timeout)');
      await this.release(d, lock);
      return;
    }
    if ('failed' in settled) await this.end(d, base.key, 'timeout');
    // A late acceptance still goes through the hold policy (the documents webhook counts its documents).
    if ('failed' in settled || !isSuccess(settled) || !(await this.holds.acceptedLate(d))) {
      await this.release(d, lock);
      return;
    }
    const record = successRecord(base, settled.body as ResponseInfo);
    d.log.warn({}, 'adapter succeeded after its time-out; its reply is stored and replayed to later deliveries');
    const saved = await this.saveNow(d, record, lock);
    if (saved === true || typeof saved === 'object') await this.release(d, lock);
    else if (!saved) await this.keepSaving(d, record, lock, deadline);
  }

  /** The merchant ids of a created order, kept for the client's hold guard. */
  private merchantIdsOf(record: NewRecord): string[] {
    const response = record.response;
    return record.callback === this.orderCreation
      ? [response.InternalOrderId, response.OrderId].filter((v): v is string => typeof v === 'string' && v !== '') : [];
  }

  /** After a stored success: the attempt ended cleanly; the merchant ids of a created order are kept. */
  private async afterSave(d: Keyed, record: NewRecord): Promise<void> {
    await this.end(d, record.key, null);
    const ids = this.merchantIdsOf(record);
    if (ids.length === 0) return;
    try {
      await this.store.saveMerchantOrderIds(record.orderId, ids);
    } catch (err) {
      d.log.error({ err }, 'store failed to keep the merchant order ids of an order');
    }
  }

  /**
   * The save was refused: the lease is no longer this attempt's (it stalled past it). Nothing was
   * stored and nothing is overwritten. When the key's stored reply is this one (a save that committed
   * although its answer did not arrive in time), it was stored after all; otherwise this attempt lost,
   * which is logged with both replies' order ids so the merchant can undo the lost one.
   */
  private async lost(d: Keyed, record: NewRecord): Promise<SaveOutcome> {
    let winner: StoredRecord | null = null;
    try {
      winner = await this.store.getRecord(record.key);
    } catch (err) {
      d.log.error({ err }, 'idempotency store failed to read the reply of a delivery whose lease was lost');
    }
    if (winner && JSON.stringify(winner.response) === JSON.stringify(record.response)) return 'released';
    d.log.error({ internalOrderId: record.response.InternalOrderId ?? null, storedInternalOrderId: winner?.response.InternalOrderId ?? null },
      winner
        ? 'this attempt lost its lease before its reply was stored (it stalled past leaseMs); another attempt took over and its reply is the order\'s; this attempt\'s reply is not stored nor sent: undo what it did'
        : 'this attempt lost its lease before its reply was stored (it stalled past leaseMs); its reply is not stored nor sent (503): the next attempt is told previousAttempt.outcome = unsaved');
    if (!winner) await this.end(d, record.key, 'unsaved');
    return { lost: { winner } };
  }

  /**
   * Tries to save with back-off until `deadline` (through the lock when it can save, so every try is
   * fenced by the lease); whether it was saved ('released': and the lock released; 'lost': the lease was lost).
   */
  private async retrySave(d: Keyed, record: NewRecord, lock: StoreLock, deadline: number): Promise<boolean | 'released' | 'lost'> {
    let pause = SAVE_BACKOFF_MS.first;
    while (Date.now() + pause < deadline) {
      await sleep(Math.max(0, pause), undefined, { ref: false });
      pause = Math.min(pause * 2, SAVE_BACKOFF_MS.max);
      try {
        if (lock.saveAndRelease) {
          await lock.saveAndRelease(record, this.merchantIdsOf(record));
          return 'released';
        }
        await this.store.saveRecord(record);
        return true;
      } catch (err) {
        if (isLeaseLost(err)) return 'lost';
        d.log.warn({ err }, 'idempotency store still failing to keep a successful reply');
      }
    }
    return false;
  }
}

/**
 * The late reply, or 'bound' when `deadline` comes first, or `{ failed }` when it rejects. The
 * bound's timer does not keep the process alive (an adapter that never settles must not hold a
 * Lambda invocation, a test worker or a shutting-down server open for the lock's whole bound).
 */
async function lateOrBound(late: Promise<CallbackResponse>, deadline: number): Promise<CallbackResponse | 'bound' | { failed: unknown }> {
  const bound = new AbortController();
  return Promise.race([
    late.then((res) => res, (err: unknown) => ({ failed: err })),
    sleep(Math.max(0, deadline - Date.now()), 'bound' as const, { signal: bound.signal, ref: false }).catch(() => 'bound' as const),
  ]).finally(() => bound.abort());
}
