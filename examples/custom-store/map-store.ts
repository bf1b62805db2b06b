/**
 * A minimal custom store: the required core of the Store contract only, over three Maps, for one
 * process. It shows the shape a Redis or DynamoDB store takes (an atomic "take the lock if free or
 * expired", a "save if absent", a read-modify-write of a hold); conformance.test.ts proves it with
 * the kit's suite. Without the optional capabilities the kit degrades as docs/stores.md says.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type DocumentRef, type FulfilmentHold } from 'crossborder-merchant-kit';
import { applyDocuments, applyPlace, emptyHoldState, holdOf, type AcquireOptions, type HoldState, type NewRecord, type StoreCore, type StoreLock, type StoredRecord } from 'crossborder-merchant-kit/store';

export class MapStore implements StoreCore {
  protected readonly records = new Map<string, { record: NewRecord; createdAt: number; expiresAt: number }>();
  protected readonly locks = new Map<string, { token: symbol; expiresAt: number }>();
  protected readonly holds = new Map<string, HoldState>();
  private readonly ttlMs: number;

  constructor(options: { ttlMs?: number } = {}) {
    this.ttlMs = options.ttlMs ?? 30 * 24 * 3600 * 1000;
  }

  /** Claim under a lease: take the lock when it is free or its lease has ended (check and set in one step). */
  async acquire(orderId: string, { waitMs, leaseMs }: AcquireOptions): Promise<StoreLock | null> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const held = this.locks.get(orderId);
      if (held === undefined || held.expiresAt <= Date.now()) {
        const token = Symbol(orderId);
        this.locks.set(orderId, { token, expiresAt: Date.now() + leaseMs });
        return {
          recovered: held !== undefined,
          // Only our own lock: after a takeover, a late release must not free the successor's.
          release: async () => { if (this.locks.get(orderId)?.token === token) this.locks.delete(orderId); },
        };
      }
      if (Date.now() >= deadline) return null;
      await sleep(Math.min(10, Math.max(1, deadline - Date.now())));
    }
  }

  async getRecord(key: string): Promise<StoredRecord | null> {
    const entry = this.records.get(key);
    if (entry === undefined || entry.expiresAt <= Date.now()) return null;
    return { ...structuredClone(entry.record), createdAt: new Date(entry.createdAt), expiresAt: new Date(entry.expiresAt) };
  }

  /** First write wins (an expired record may be replaced). */
  async saveRecord(record: NewRecord): Promise<void> {
    if (await this.getRecord(record.key)) return;
    const now = Date.now();
    this.records.set(record.key, { record: structuredClone(record), createdAt: now, expiresAt: now + this.ttlMs });
  }

  async placeFulfilmentHold(orderId: string, required: readonly DocumentRef[]): Promise<FulfilmentHold | null> {
    return this.changeHold(orderId, (state) => applyPlace(state, required, new Date()));
  }

  async recordDocuments(orderId: string, received: readonly DocumentRef[]): Promise<FulfilmentHold | null> {
    return this.changeHold(orderId, (state) => applyDocuments(state, received));
  }

  async getFulfilmentHold(orderId: string): Promise<FulfilmentHold | null> {
    const state = this.holds.get(orderId);
    return state ? holdOf(orderId, structuredClone(state)) : null;
  }

  /** A read-modify-write with no await in between: atomic in one process (a database needs a transaction or a compare-and-set). */
  private changeHold(orderId: string, change: (state: HoldState) => HoldState): FulfilmentHold | null {
    const next = change(this.holds.get(orderId) ?? emptyHoldState());
    this.holds.set(orderId, next);
    return holdOf(orderId, structuredClone(next));
  }
}
