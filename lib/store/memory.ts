/**
 * MemoryStore: the default store. Single process only — two processes (or a restart) do not share
 * it; use PostgresStore behind a load balancer. Records expire after `ttl` and the store keeps at
 * most `maxEntries` records (the oldest go first). Active holds are never evicted.
 */
import { KitError } from '../shared/errors.js';
import { applyDocuments, applyPlace, emptyHoldState, holdOf, type HoldState } from './holds.js';
import { KeyedMutex } from './mutex.js';
import { checkKeys, parseDuration } from '../shared/options.js';
import { DEFAULT_TTL_MS } from './types.js';
import type { AcquireOptions, DocumentRef, FulfilmentHold, NewRecord, Store, StoreLock, StoredRecord } from './types.js';

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
  private readonly records = new Map<string, StoredRecord>();
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
    if (record.payment && !this.live(this.payments.get(record.orderId))) this.payments.set(record.orderId, record.key);
    this.latest.set(`${record.callback}\u0000${record.orderId}`, record.key);
    while (this.records.size > this.maxEntries) this.drop(this.records.keys().next().value as string);
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
