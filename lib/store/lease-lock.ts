/**
 * The OrderId lock of the stores whose engine keeps a lease record (RedisStore, DynamoDBStore): a
 * lease claimed with one atomic write (no read-then-write), polled with back-off while someone else
 * holds it; within one process, waiters queue on an in-memory chain first, so only one of them
 * polls. The lock's `saveAndRelease` is fenced by the engine: it stores nothing unless the lease is
 * still this holder's (LeaseLostError), and is never sent once the lease may have ended.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KeyedMutex } from './mutex.js';
import { FIRST_POLL_DELAY_MS, nextPollDelay, pollPause } from './postgres-lock.js';
import { isLeaseLost, LeaseLostError } from './store-errors.js';
import type { AcquireOptions, NewRecord, StoreLock } from './types.js';

/** What a store's engine does for the lock: each one atomic operation there. */
export interface LeaseEngine {
  /** Claims the OrderId for `owner` for `leaseMs`: `{ recovered }` (true: an unreleased, expired lease was taken over), or null while another holds it. */
  claim(orderId: string, owner: string, leaseMs: number): Promise<{ recovered: boolean } | null>;
  /** Ends `owner`'s lease; frees nothing when the lease is another's. */
  release(orderId: string, owner: string): Promise<void>;
  /**
   * Fenced: stores `record` (first write wins), ends its attempt cleanly, keeps the merchant ids
   * and ends the lease, all or nothing, only while the lease is `owner`'s and unexpired; else
   * rejects with LeaseLostError and stores nothing. `boundMs`: what is left of the lease.
   */
  saveAndRelease(orderId: string, owner: string, record: NewRecord, merchantOrderIds: readonly string[], boundMs: number): Promise<void>;
}

/** Takes the OrderId's lock (null once `waitMs` passed while another holds it). */
export async function leaseLock(engine: LeaseEngine, mutex: KeyedMutex, orderId: string, options: AcquireOptions): Promise<StoreLock | null> {
  const deadline = Date.now() + options.waitMs;
  const local = await mutex.acquire(orderId, options.waitMs, options.leaseMs);
  if (!local) return null;
  const owner = randomUUID();
  let delay = FIRST_POLL_DELAY_MS;
  try {
    for (;;) {
      // The lease ends at the latest leaseMs after the claim was sent (the engine counts from later).
      const leaseEnds = Date.now() + options.leaseMs;
      const got = await engine.claim(orderId, owner, options.leaseMs);
      if (got) return lockOf(engine, orderId, owner, leaseEnds, got.recovered || local.recovered, local.release);
      const left = deadline - Date.now();
      if (left <= 0) {
        local.release();
        return null;
      }
      await sleep(pollPause(delay, left));
      delay = nextPollDelay(delay);
    }
  } catch (err) {
    local.release();
    throw err;
  }
}

function lockOf(engine: LeaseEngine, orderId: string, owner: string, leaseEnds: number, recovered: boolean, releaseLocal: () => void): StoreLock {
  let done = false;
  return {
    recovered,
    release: async () => {
      if (done) return;
      done = true;
      try {
        await engine.release(orderId, owner);
      } finally {
        releaseLocal();
      }
    },
    saveAndRelease: async (record, merchantOrderIds) => {
      if (done) return;
      const left = leaseEnds - Date.now();
      if (left <= 0) throw new LeaseLostError('the lease of this attempt ended before its reply could be stored; nothing was stored');
      try {
        await engine.saveAndRelease(orderId, owner, record, merchantOrderIds, left);
      } catch (err) {
        // Failed once its lease may have ended: the lease is lost (had it landed, it did within the lease).
        if (!isLeaseLost(err) && Date.now() >= leaseEnds) throw new LeaseLostError();
        throw err;
      }
      done = true;
      releaseLocal();
    },
  };
}
