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
 * as background tasks (Background, below), each ending by the lock's bound.
 * A store that fences its saves by the lease (PostgresStore) may refuse one whose lease was lost (a
 * save that stalled past it): nothing of it is stored, it is not retried, and the delivery is
 * answered with the reply stored by the attempt that took over, if any, else 503 (see lost()).
 *
 * Also here, as what every step of the module shares: a store call's failure refused 503
 * STORE_UNAVAILABLE (fromStore, below: whether the store method rejects or throws before it returns a
 * promise, a plain non-async method of a custom store), and the tracked background tasks (Background).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ResponseInfo } from '../../payloads.js';
import { PipelineFailure, type WireErrorCode } from '../../shared/errors.js';
import type { SafeLogger } from '../../shared/logger.js';
import { isLeaseLost } from '../../store/store-errors.js';
import type { KitStore } from '../../store/capabilities.js';
import type { AttemptOutcome, NewRecord, Prefetched, StoreLock, StoredRecord } from '../../store/types.js';
import type { CallbackName } from '../registry.js';
import type { Keyed } from '../stages/types.js';
import type { Accepted, AdapterOutcome, Declined } from '../stages/adapter.js';

// ── Store calls: a failure logged and refused 503 STORE_UNAVAILABLE, retryable (lookups, the claim, holds,
// merchant-initiated records); where a lookup reads.

/** Retry-After of every retryable refusal of the module (IN_FLIGHT, STORE_UNAVAILABLE), in seconds. */
export const RETRY_AFTER_SECONDS = '5';

/** A retryable refusal (503 with Retry-After). */
export const retryable = (errorCode: WireErrorCode, reason: string, description: string) =>
  new PipelineFailure(errorCode, reason, description, { 'retry-after': RETRY_AFTER_SECONDS });

/** Which store failed, as the log line and the refusal's reason name it. */
export type StoreRole = 'idempotency store' | 'fulfilment-hold store' | 'order record store';

/** The refusal of a failed store (the error itself goes to the log only). */
export const storeUnavailable = (role: StoreRole) => retryable('STORE_UNAVAILABLE', `${role} failed`, 'The order store is unavailable; retry later');

/** Logs a store failure and throws its refusal. */
export function storeFailed(log: SafeLogger, role: StoreRole, err: unknown): never {
  log.error({ err }, `${role} failed`);
  throw storeUnavailable(role);
}

/** Runs a store call; its failure (rejected, or thrown before a promise is returned) is logged and refused (storeFailed). */
export function fromStore<T>(log: SafeLogger, role: StoreRole, work: () => Promise<T>): Promise<T> {
  let call: Promise<T>;
  try {
    call = Promise.resolve(work());
  } catch (err) {
    call = Promise.reject(err);
  }
  return call.catch((err: unknown) => storeFailed(log, role, err));
}

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

// ── What outlives a reply.

/**
 * Work of the exactly-once module that goes on after the reply was sent: an adapter that timed out
 * is awaited under the OrderId lock (its late success stored), a success whose save failed is
 * retried, then the lock is released. Each such task is bounded by the lock's bound (its lease minus
 * a margin, Settler): it ends by then whatever the adapter or the store do. The kit tracks them:
 * `kit.idle()` resolves once every task started so far has ended (tests; a graceful shutdown).
 */
export class Background {
  readonly #running = new Set<Promise<void>>();

  /** Tracks a task until it ends (its failure is the task's own to log: it never rejects here). */
  track(task: Promise<void>): void {
    const tracked = task.catch(() => { /* each task logs its own failures */ }).finally(() => this.#running.delete(tracked));
    this.#running.add(tracked);
  }

  /**
   * Resolves once every task (also those the running ones start) has ended. The tasks' own timers
   * (a save's back-off, a late adapter's bound) do not keep Node running, so an idle server or a
   * Lambda invocation is not held; while a caller awaits this, a timer does, so a script awaiting
   * `kit.idle()` sees the tasks end rather than exit with the promise pending.
   */
  async idle(): Promise<void> {
    if (this.#running.size === 0) return;
    const keepAlive = setInterval(() => { /* only keeps the event loop running */ }, 60_000);
    try {
      while (this.#running.size > 0) await Promise.all(this.#running);
    } finally {
      clearInterval(keepAlive);
    }
  }
}

// ── Settle.

/** First and longest pause between two tries of a failed save. */
export const SAVE_BACKOFF_MS = { first: 50, max: 2_000 };

/**
 * How storing a successful reply went (Settler.save, the one place this is decided):
 * - `stored`: stored; the lock is still held (index.ts releases it);
 * - `released`: stored, and the lock released by the store in the same call (`saveAndRelease`), or
 *   the lease was lost but the key's stored reply is this one (a save that committed although its
 *   answer did not arrive in time): nothing left to release;
 * - `replayed`: the lease was lost and another attempt's reply (`winner`) is the key's: it answers;
 * - `lost`: the lease was lost and nothing is stored for the key (503; the attempt recorded 'unsaved');
 * - `failed`: the store failed (the save is retried while the lock is held, keepSaving).
 */
export type Settled =
  | { readonly kind: 'stored' }
  | { readonly kind: 'released' }
  | { readonly kind: 'replayed'; readonly winner: StoredRecord }
  | { readonly kind: 'lost' }
  | { readonly kind: 'failed' };

const STORED: Settled = { kind: 'stored' };
const RELEASED: Settled = { kind: 'released' };
const LOST: Settled = { kind: 'lost' };
const FAILED: Settled = { kind: 'failed' };

/** The record of an attempt, without its reply. */
export type RecordBase = Omit<NewRecord, 'response'>;

/** The record of a successful attempt (listed, not spread: a spread adding a field costs a hidden class per record, stages/validate.ts). */
export const successRecord = (base: RecordBase, response: ResponseInfo): NewRecord =>
  ({ key: base.key, callback: base.callback, orderId: base.orderId, hash: base.hash, payment: base.payment, response });

/** A reply to store: a 200 whose body is an object with `Success: true`. */
export const isSuccess = (res: { readonly status: number; readonly body: unknown }): boolean => {
  const body = res.body as Record<string, unknown> | null;
  return res.status === 200 && body !== null && typeof body === 'object' && body.Success === true;
};

/** The adapter accepted the delivery with a reply to store (a cart's CheckoutCartInfo is not one). */
export const accepted = (outcome: AdapterOutcome): outcome is Accepted => outcome.kind === 'ok' && isSuccess(outcome);

export class Settler {
  /** Replies kept in memory while their save is retried, by key; payments also by OrderId. */
  readonly unsaved = new Map<string, NewRecord>();
  readonly unsavedPayments = new Map<string, NewRecord>();

  /** `orderCreation`: the callback whose created order's merchant ids are kept (the registry's); `holds`: the hold policy (holds.ts), told of a late acceptance. */
  constructor(private readonly store: KitStore, private readonly orderCreation: CallbackName, private readonly holds: { acceptedLate(d: Keyed): Promise<boolean> }) {}

  /** Records how an attempt ended; a failure is logged (the next attempt then sees 'crashed'). */
  async end(d: Keyed, key: string, outcome: AttemptOutcome | null): Promise<void> {
    try {
      await this.store.endAttempt(key, outcome);
    } catch (err) {
      d.log.error({ err, outcome }, 'idempotency store failed to record how an attempt ended');
    }
  }

  /** Releases the OrderId lock; a failure is logged (its lease then expires). Called from one place: ExactlyOnce.underLock. */
  async release(d: Keyed, lock: StoreLock): Promise<void> {
    try {
      await lock.release();
    } catch (err) {
      d.log.error({ err }, 'idempotency store failed to release an OrderId lock (its lease will expire)');
    }
  }

  /**
   * One try to store a successful reply (through the lock when the store can save and release at
   * once: every try then fenced by the lease). `retry`: a try of keepSaving (a failure is a warning,
   * a success logged). The one place a Settled is made.
   */
  async save(d: Keyed, record: NewRecord, lock: StoreLock, retry = false): Promise<Settled> {
    let released = false;
    try {
      if (lock.saveAndRelease) {
        await lock.saveAndRelease(record, this.merchantIdsOf(record));
        released = true;
      } else {
        await this.store.saveRecord(record);
      }
    } catch (err) {
      if (isLeaseLost(err)) return this.lost(d, record);
      if (retry) d.log.warn({ err }, 'idempotency store still failing to keep a successful reply');
      else d.log.error({ err }, 'idempotency store failed to keep a successful reply; keeping the OrderId lock and retrying');
      return FAILED;
    }
    if (retry) d.log.info({}, 'a successful reply that could not be stored at first is now stored');
    if (released) return RELEASED;
    await this.afterSave(d, record);
    return STORED;
  }

  /**
   * Keeps a reply whose save failed in memory (replayed to deliveries in this process) and retries
   * its save with back-off until `deadline`, while the caller holds the lock; how it ended.
   */
  async keepSaving(d: Keyed, record: NewRecord, lock: StoreLock, deadline: number): Promise<Settled> {
    this.unsaved.set(record.key, record);
    if (record.payment && !this.unsavedPayments.has(record.orderId)) this.unsavedPayments.set(record.orderId, record);
    try {
      let pause = SAVE_BACKOFF_MS.first;
      while (Date.now() + pause < deadline) {
        await sleep(Math.max(0, pause), undefined, { ref: false });
        pause = Math.min(pause * 2, SAVE_BACKOFF_MS.max);
        const settled = await this.save(d, record, lock, true);
        if (settled.kind !== 'failed') return settled;
      }
      d.log.error({}, 'gave up storing a successful reply (the OrderId lock reached its bound); the next attempt is told previousAttempt.outcome = unsaved');
      await this.end(d, record.key, 'unsaved');
      return FAILED;
    } finally {
      if (this.unsaved.get(record.key) === record) this.unsaved.delete(record.key);
      if (this.unsavedPayments.get(record.orderId) === record) this.unsavedPayments.delete(record.orderId);
    }
  }

  /**
   * Holds on (the caller keeps the lock) until the timed-out adapter settles, storing a late success,
   * or until `deadline`; how it ended (null: nothing to store).
   */
  async awaitLate(d: Keyed, base: RecordBase, late: Promise<Accepted | Declined>, lock: StoreLock, deadline: number): Promise<Settled | null> {
    const settled = await lateOrBound(late, deadline);
    if (settled === 'bound') {
      d.log.error({}, 'adapter still running when the OrderId lock reached its bound; releasing it (the next attempt is told previousAttempt.outcome = timeout)');
      return null;
    }
    if ('failed' in settled) await this.end(d, base.key, 'timeout');
    // A late acceptance still goes through the hold policy (the documents webhook counts its documents).
    if ('failed' in settled || !isSuccess(settled) || !(await this.holds.acceptedLate(d))) return null;
    const record = successRecord(base, settled.body as ResponseInfo);
    d.log.warn({}, 'adapter succeeded after its time-out; its reply is stored and replayed to later deliveries');
    const saved = await this.save(d, record, lock);
    return saved.kind === 'failed' ? this.keepSaving(d, record, lock, deadline) : saved;
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
  private async lost(d: Keyed, record: NewRecord): Promise<Settled> {
    let winner: StoredRecord | null = null;
    try {
      winner = await this.store.getRecord(record.key);
    } catch (err) {
      d.log.error({ err }, 'idempotency store failed to read the reply of a delivery whose lease was lost');
    }
    if (winner && JSON.stringify(winner.response) === JSON.stringify(record.response)) return RELEASED;
    d.log.error({ internalOrderId: record.response.InternalOrderId ?? null, storedInternalOrderId: winner?.response.InternalOrderId ?? null },
      winner
        ? 'this attempt lost its lease before its reply was stored (it stalled past leaseMs); another attempt took over and its reply is the order\'s; this attempt\'s reply is not stored nor sent: undo what it did'
        : 'this attempt lost its lease before its reply was stored (it stalled past leaseMs); its reply is not stored nor sent (503): the next attempt is told previousAttempt.outcome = unsaved');
    if (!winner) await this.end(d, record.key, 'unsaved');
    return winner ? { kind: 'replayed', winner } : LOST;
  }
}

/**
 * The late reply, or 'bound' when `deadline` comes first, or `{ failed }` when it rejects. The
 * bound's timer does not keep the process alive (an adapter that never settles must not hold a
 * Lambda invocation, a test worker or a shutting-down server open for the lock's whole bound).
 */
async function lateOrBound(late: Promise<Accepted | Declined>, deadline: number): Promise<Accepted | Declined | 'bound' | { failed: unknown }> {
  const bound = new AbortController();
  return Promise.race([
    late.then((res) => res, (err: unknown) => ({ failed: err })),
    sleep(Math.max(0, deadline - Date.now()), 'bound' as const, { signal: bound.signal, ref: false }).catch(() => 'bound' as const),
  ]).finally(() => bound.abort());
}
