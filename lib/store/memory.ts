/**
 * MemoryStore: the default store. Single process only — two processes (or a restart) do not share
 * it; use PostgresStore behind a load balancer. Records expire after `ttl` and the store keeps at
 * most `maxEntries` records: past it the oldest non-payment replies go first; a successful payment
 * is never evicted before its ttl, and when only payments remain `beginAttempt` refuses new work
 * (StoreFullError: the kit answers 503, retryable). Active holds are never evicted.
 */
import { KitError } from '../shared/errors.js';
import { applyDocuments, applyPlace, emptyHoldState, holdOf, type HoldState } from './holds.js';
import { KeyedMutex } from './mutex.js';
import { checkKeys, parseDuration } from '../shared/options.js';
import { DEFAULT_TTL_MS } from './types.js';
import type {
  AcquireOptions, AttemptOutcome, AttemptStart, DocumentRef, FulfilmentHold, NewRecord, Store, StoreLock, StoredRecord,
} from './types.js';

/** MemoryStore is full of successful payments (none may be forgotten before its ttl): no new work. */
export class StoreFullError extends Error {
  constructor(max: number) {
    super(`MemoryStore holds ${max} successful payments (maxEntries) that may not be evicted before their ttl`);
    this.name = 'StoreFullError';
  }
}

interface AttemptEntry { attempts: number; state: 'running' | 'done' | AttemptOutcome; startedAt: number; expiresAt: number }

export interface MemoryStoreOptions {
  /** How long a stored reply is kept: milliseconds or '30d' / '12h'; default 30 days. */
  ttl?: number | string;
  /** Most stored replies kept (and most order entries without an active hold); default 50 000. */
  maxEntries?: number;
}

interface HoldEntry extends HoldState { touchedAt: number }

const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const copyRecord = (r: StoredRecord): StoredRecord =>
  ({ ...r, response: json(r.response), createdAt: new Date(r.createdAt), expiresAt: new Date(r.expiresAt) });
const copyHold = (s: HoldState): HoldState =>
  ({ awaiting: s.awaiting ? json(s.awaiting) : null, received: json(s.received), since: s.since ? new Date(s.since) : null });

export class MemoryStore implements Store {
  readonly ttlMs: number;
  readonly maxEntries: number;
  private readonly mutex = new KeyedMutex();
  /** Every stored reply, in insertion order; `others` and `paid` split the keys by kind (insertion order too). */
  private readonly records = new Map<string, StoredRecord>();
  private readonly others = new Set<string>();
  private readonly paid = new Set<string>();
  private readonly attempts = new Map<string, AttemptEntry>();
  private readonly payments = new Map<string, string>();
  private readonly latest = new Map<string, string>();
  private readonly holds = new Map<string, HoldEntry>();
  private readonly merchantIds = new Map<string, { orderId: string; expiresAt: number }>();

  constructor(options: MemoryStoreOptions = {}) {
    if (typeof options !== 'object' || options === null) throw new KitError('ERR_CBK_OPTION_INVALID', 'MemoryStore options must be an object');
    checkKeys('MemoryStore.', options as Record<string, unknown>, ['ttl', 'maxEntries']);
    this.ttlMs = parseDuration(options.ttl, 'MemoryStore.ttl', DEFAULT_TTL_MS);
    const max = options.maxEntries ?? 50_000;
    if (!Number.isInteger(max) || max < 1) throw new KitError('ERR_CBK_OPTION_INVALID', 'Option MemoryStore.maxEntries must be a positive integer');
    this.maxEntries = max;
  }

  async acquire(orderId: string, options: AcquireOptions): Promise<StoreLock | null> {
    const held = await this.mutex.acquire(orderId, options.waitMs, options.leaseMs);
    if (!held) return null;
    return { recovered: held.recovered, release: async () => held.release() };
  }

  private live(key: string | undefined): StoredRecord | null {
    if (key === undefined) return null;
    const rec = this.records.get(key);
    if (!rec) return null;
    if (rec.expiresAt.getTime() <= Date.now()) {
      this.drop(key);
      return null;
    }
    return copyRecord(rec);
  }

  private drop(key: string): void {
    const rec = this.records.get(key);
    if (!rec) return;
    this.records.delete(key);
    this.others.delete(key);
    this.paid.delete(key);
    if (this.payments.get(rec.orderId) === key) this.payments.delete(rec.orderId);
    const latestKey = `${rec.callback}\u0000${rec.orderId}`;
    if (this.latest.get(latestKey) === key) this.latest.delete(latestKey);
  }

  async getRecord(key: string): Promise<StoredRecord | null> {
    return this.live(key);
  }

  async getPayment(orderId: string): Promise<StoredRecord | null> {
    return this.live(this.payments.get(orderId));
  }

  async getLatestRecord(orderId: string, callback: string): Promise<StoredRecord | null> {
    return this.live(this.latest.get(`${callback}\u0000${orderId}`));
  }

  async saveRecord(record: NewRecord): Promise<void> {
    if (this.live(record.key)) return;
    const now = Date.now();
    const stored: StoredRecord = { ...record, response: json(record.response), createdAt: new Date(now), expiresAt: new Date(now + this.ttlMs) };
    this.records.set(record.key, stored);
    (record.payment ? this.paid : this.others).add(record.key);
    if (record.payment && !this.live(this.payments.get(record.orderId))) this.payments.set(record.orderId, record.key);
    this.latest.set(`${record.callback}\u0000${record.orderId}`, record.key);
    this.evict(this.maxEntries);
  }

  /** Drops replies until at most `max` remain: expired payments, then the oldest other replies; never a live payment. */
  private evict(max: number): void {
    const now = Date.now();
    for (const key of this.paid) {
      if (this.records.size <= max) return;
      if (this.records.get(key)!.expiresAt.getTime() > now) break;
      this.drop(key);
    }
    for (const key of this.others) {
      if (this.records.size <= max) return;
      this.drop(key);
    }
  }

  async beginAttempt(key: string, orderId: string): Promise<AttemptStart> {
    void orderId;
    // Room for this attempt's reply; a store full of live payments refuses rather than forget one.
    this.evict(this.maxEntries - 1);
    if (this.records.size >= this.maxEntries) throw new StoreFullError(this.maxEntries);
    const now = Date.now();
    let entry = this.attempts.get(key);
    if (entry && entry.expiresAt <= now) entry = undefined;
    const start: AttemptStart = { attempt: (entry?.attempts ?? 0) + 1 };
    if (entry && entry.state !== 'done') {
      start.previousAttempt = { startedAt: new Date(entry.startedAt), outcome: entry.state === 'running' ? 'crashed' : entry.state };
    }
    this.attempts.delete(key);
    this.attempts.set(key, { attempts: start.attempt, state: 'running', startedAt: now, expiresAt: now + this.ttlMs });
    while (this.attempts.size > this.maxEntries) this.attempts.delete(this.attempts.keys().next().value as string);
    return start;
  }

  async endAttempt(key: string, outcome: AttemptOutcome | null): Promise<void> {
    const entry = this.attempts.get(key);
    if (entry) entry.state = outcome ?? 'done';
  }

  private hold(orderId: string): HoldEntry {
    const entry = this.holds.get(orderId);
    if (entry && !entry.awaiting && entry.touchedAt + this.ttlMs <= Date.now()) {
      this.holds.delete(orderId);
      return { ...emptyHoldState(), touchedAt: Date.now() };
    }
    return entry ?? { ...emptyHoldState(), touchedAt: Date.now() };
  }

  private setHold(orderId: string, state: HoldState): FulfilmentHold | null {
    this.holds.delete(orderId);
    this.holds.set(orderId, { ...copyHold(state), touchedAt: Date.now() });
    if (this.holds.size > this.maxEntries) {
      for (const [id, e] of this.holds) {
        if (this.holds.size <= this.maxEntries) break;
        if (!e.awaiting) this.holds.delete(id);
      }
    }
    return holdOf(orderId, state);
  }

  async placeFulfilmentHold(orderId: string, required: readonly DocumentRef[]): Promise<FulfilmentHold | null> {
    return this.setHold(orderId, applyPlace(this.hold(orderId), required, new Date()));
  }

  async recordDocuments(orderId: string, received: readonly DocumentRef[]): Promise<FulfilmentHold | null> {
    return this.setHold(orderId, applyDocuments(this.hold(orderId), received));
  }

  async getFulfilmentHold(orderId: string): Promise<FulfilmentHold | null> {
    return holdOf(orderId, this.holds.get(orderId));
  }

  async releaseFulfilmentHold(orderId: string): Promise<void> {
    const entry = this.holds.get(orderId);
    if (entry?.awaiting) this.setHold(orderId, { ...entry, awaiting: null, since: null });
  }

  async saveMerchantOrderIds(orderId: string, merchantOrderIds: readonly string[]): Promise<void> {
    const expiresAt = Date.now() + this.ttlMs;
    for (const id of merchantOrderIds) {
      this.merchantIds.delete(id);
      this.merchantIds.set(id, { orderId, expiresAt });
    }
    while (this.merchantIds.size > this.maxEntries) this.merchantIds.delete(this.merchantIds.keys().next().value as string);
  }

  async findOrderId(merchantOrderId: string): Promise<string | null> {
    const entry = this.merchantIds.get(merchantOrderId);
    if (!entry) return null;
    if (entry.expiresAt <= Date.now()) {
      this.merchantIds.delete(merchantOrderId);
      return null;
    }
    return entry.orderId;
  }
}
