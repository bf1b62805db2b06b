/**
 * A MemoryStore with the batching capability PostgresStore has (`claimOrReplay`, `lock.prefetched`,
 * `lock.saveAndRelease`), built from MemoryStore's own methods: the kit's batching path of the
 * idempotency step and the attempt finisher run without a database (and fast enough to run once per
 * mutant in mutation testing). test/idempotency/batching-store.test.ts runs the store conformance
 * suite over it, batching checks included, so it does what PostgresStore's one-statement versions do.
 */
import {
  MemoryStore, type AcquireOptions, type Claim, type ClaimOptions, type NewRecord, type Prefetched, type PrefetchRequest, type StoreLock, type StoredAnswer,
} from 'crossborder-merchant-kit/store';

export class BatchingMemoryStore extends MemoryStore {
  /** How often each batching member was used, for tests that check the kit took the batching path. */
  readonly used = { claimOrReplay: 0, prefetched: 0, saveAndRelease: 0 };

  override async acquire(orderId: string, options: AcquireOptions): Promise<StoreLock | null> {
    const lock = await super.acquire(orderId, options);
    if (!lock) return null;
    let done = false;
    const batching: StoreLock = {
      recovered: lock.recovered,
      release: async () => { done = true; await lock.release(); },
      saveAndRelease: async (record: NewRecord, merchantOrderIds: readonly string[]) => {
        if (done) return;
        this.used.saveAndRelease++;
        await this.saveRecord(record);
        await this.endAttempt(record.key, null);
        if (merchantOrderIds.length > 0) await this.saveMerchantOrderIds(record.orderId, merchantOrderIds);
        done = true;
        await lock.release();
      },
    };
    if (!options.prefetch) return batching;
    this.used.prefetched++;
    return { ...batching, prefetched: await this.readsFor(orderId, options.prefetch) };
  }

  /** What the kit would read right after taking the lock (the attempt is begun only when no reply is stored). */
  private async readsFor(orderId: string, want: PrefetchRequest): Promise<Prefetched> {
    const record = await this.getRecord(want.key);
    const prefetched: Prefetched = {
      record,
      payment: want.payment ? await this.getPayment(orderId) : null,
      latest: await this.getLatestRecord(orderId, want.latestOf),
      hold: await this.getFulfilmentHold(orderId),
    };
    if (want.beginAttempt && !record) prefetched.attempt = await this.beginAttempt(want.key, orderId);
    return prefetched;
  }

  private async storedFor(orderId: string, want: PrefetchRequest): Promise<StoredAnswer | null> {
    const record = await this.getRecord(want.key);
    if (record) return { record, payment: null };
    const payment = want.payment ? await this.getPayment(orderId) : null;
    return payment ? { record: null, payment } : null;
  }

  /** The stored answer without waiting for a held lock, else the lock (and, if one was stored meanwhile, that answer). */
  async claimOrReplay(orderId: string, options: ClaimOptions): Promise<Claim | null> {
    this.used.claimOrReplay++;
    const before = await this.storedFor(orderId, options.prefetch);
    if (before) return { stored: before };
    // The attempt is begun only once no answer is stored (as PostgresStore's claim statement does).
    const lock = await this.acquire(orderId, { ...options, prefetch: { ...options.prefetch, beginAttempt: false } });
    if (!lock?.prefetched) return lock && { lock };
    const { record, payment } = lock.prefetched;
    if (record || payment) {
      await lock.release();
      return { stored: record ? { record, payment: null } : { record: null, payment } };
    }
    if (!options.prefetch.beginAttempt) return { lock };
    return { lock: { ...lock, prefetched: { ...lock.prefetched, attempt: await this.beginAttempt(options.prefetch.key, orderId) } } };
  }
}
