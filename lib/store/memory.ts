/**
 * MemoryStore: the default store. Single process only — two processes (or a restart) do not share
 * it; use PostgresStore behind a load balancer. Records expire after `ttl` and the store keeps at
 * most `maxEntries` records: past it the oldest non-payment replies go first; a successful payment
 * is never evicted before its ttl, and when only payments remain `beginAttempt` refuses new work
 * (StoreFullError: the kit answers 503, retryable). Active holds are never evicted.
 */
import { KitError } from '../shared/errors.js';
import { applyDocuments, applyPlace, emptyHoldState, holdOf, type HoldState } from './holds.js';
import { jsonCopy } from '../json/json-copy.js';
import { Attempt, copyRefs, flat, hashInKey, Hold, MerchantIds, Reply } from './memory-entries.js';
import { KeyedMutex } from './mutex.js';
import { OldestFirst } from './oldest-first.js';
import { checkKeys, parseDuration } from '../shared/options.js';
import { DEFAULT_TTL_MS } from './types.js';
import type {
  AcquireOptions, AttemptOutcome, AttemptStart, CountHoldsOptions, DocumentRef, FulfilmentHold, NewRecord, Store, StoreLock, StoredRecord,
} from './types.js';

/** MemoryStore is full of successful payments (none may be forgotten before its ttl): no new work. */
export class StoreFullError extends Error {
  constructor(max: number) {
    super(`MemoryStore holds ${max} successful payments (maxEntries) that may not be evicted before their ttl`);
    this.name = 'StoreFullError';
  }
}

/** Options of `MemoryStore` (one process: tests, a single instance): how long replies are kept and how many. */
export interface MemoryStoreOptions {
  /** How long a stored reply is kept: milliseconds or '30d' / '12h'; default 30 days. */
  ttl?: number | string;
  /** Most stored replies kept (and most order entries without an active hold); default 50 000. */
  maxEntries?: number;
}

export class MemoryStore implements Store {
  readonly ttlMs: number;
  readonly maxEntries: number;
  private readonly mutex = new KeyedMutex();
  /** Times are kept as ms since this instant. */
  private readonly epoch = Date.now();
  /** Stored replies by key, in the order saved: successful payments apart (never evicted before their ttl). */
  private readonly replies = new Map<string, Reply>();
  private readonly paid = new Map<string, Reply>();
  /** The newest reply of each OrderId; older ones through `Reply.older`. */
  private readonly byOrder = new Map<string, Reply>();
  /** Attempts of keys without a stored reply (running, failed, declined), in the order begun. */
  private readonly attempts = new Map<string, Attempt>();
  private readonly holds = new Map<string, Hold>();
  private readonly merchantIds = new Map<string, MerchantIds>();
  /** Eviction walks the maps oldest first without rescanning deleted slots (see oldest-first.ts). */
  private readonly oldestPaid = new OldestFirst(this.paid);
  private readonly oldestReply = new OldestFirst(this.replies);
  private readonly oldestAttempt = new OldestFirst(this.attempts);
  private readonly oldestMerchantIds = new OldestFirst(this.merchantIds);

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

  private clock(): number {
    return Date.now() - this.epoch;
  }

  private get size(): number {
    return this.replies.size + this.paid.size;
  }

  /** The reply, or undefined when it has expired (it is then dropped). */
  private alive(reply: Reply | undefined): Reply | undefined {
    if (reply === undefined || reply.at + this.ttlMs > this.clock()) return reply;
    this.drop(reply);
    return undefined;
  }

  private reply(key: string): Reply | undefined {
    return this.alive(this.replies.get(key) ?? this.paid.get(key));
  }

  private toRecord(r: Reply | undefined): StoredRecord | null {
    if (r === undefined) return null;
    return {
      key: r.key, callback: r.callback, orderId: r.orderId, hash: r.hash ?? r.key.slice(r.key.lastIndexOf(':') + 1), response: jsonCopy(r.response),
      payment: r.payment, createdAt: new Date(this.epoch + r.at), expiresAt: new Date(this.epoch + r.at + this.ttlMs),
    };
  }

  private drop(reply: Reply): void {
    (reply.payment ? this.paid : this.replies).delete(reply.key);
    const head = this.byOrder.get(reply.orderId);
    if (head === reply) {
      if (reply.older) this.byOrder.set(reply.orderId, reply.older);
      else this.byOrder.delete(reply.orderId);
      return;
    }
    for (let r = head; r; r = r.older) {
      if (r.older === reply) {
        r.older = reply.older;
        return;
      }
    }
  }

  async getRecord(key: string): Promise<StoredRecord | null> {
    return this.toRecord(this.reply(key));
  }

  async getPayment(orderId: string): Promise<StoredRecord | null> {
    const payments: Reply[] = [];
    for (let r = this.byOrder.get(orderId); r; r = r.older) if (r.payment) payments.push(r);
    // The first live one: replies expire in the order they were saved.
    for (let i = payments.length - 1; i >= 0; i--) {
      const live = this.alive(payments[i]);
      if (live) return this.toRecord(live);
    }
    return null;
  }

  async getLatestRecord(orderId: string, callback: string): Promise<StoredRecord | null> {
    for (let r = this.byOrder.get(orderId); r; r = r.older) if (r.callback === callback) return this.toRecord(this.alive(r));
    return null;
  }

  async saveRecord(record: NewRecord): Promise<void> {
    if (this.reply(record.key)) return;
    const key = flat(record.key);
    const response = jsonCopy(record.response);
    // The reply's OrderId is usually the record's: keep one string.
    if (response.OrderId === record.orderId) response.OrderId = record.orderId;
    const hash = hashInKey(key, record.hash) ? null : record.hash;
    const reply = new Reply(key, record.callback, record.orderId, hash, response, record.payment, this.clock(), this.byOrder.get(record.orderId));
    (reply.payment ? this.paid : this.replies).set(reply.key, reply);
    this.byOrder.set(reply.orderId, reply);
    this.evict(this.maxEntries);
  }

  /** Drops replies until at most `max` remain: expired payments, then the oldest other replies; never a live payment. */
  private evict(max: number): void {
    if (this.size <= max) return;
    const now = this.clock();
    while (this.size > max) {
      const payment = this.oldestPaid.oldest()?.[1];
      if (payment === undefined || payment.at + this.ttlMs > now) break;
      this.drop(payment);
    }
    while (this.size > max) {
      const reply = this.oldestReply.oldest()?.[1];
      if (reply === undefined) return;
      this.drop(reply);
    }
  }

  async beginAttempt(key: string, orderId: string): Promise<AttemptStart> {
    void orderId;
    // Room for this attempt's reply; a store full of live payments refuses rather than forget one.
    this.evict(this.maxEntries - 1);
    if (this.size >= this.maxEntries) throw new StoreFullError(this.maxEntries);
    const now = this.clock();
    let entry = this.attempts.get(key);
    if (entry && entry.startedAt + this.ttlMs <= now) entry = undefined;
    const start: AttemptStart = { attempt: (entry?.attempts ?? 0) + 1 };
    if (entry && entry.state !== 'done') {
      start.previousAttempt = { startedAt: new Date(this.epoch + entry.startedAt), outcome: entry.state === 'running' ? 'crashed' : entry.state };
    }
    this.attempts.delete(key);
    this.attempts.set(key, new Attempt(start.attempt, 'running', now));
    while (this.attempts.size > this.maxEntries) this.attempts.delete((this.oldestAttempt.oldest() as [string, Attempt])[0]);
    return start;
  }

  async endAttempt(key: string, outcome: AttemptOutcome | null): Promise<void> {
    const entry = this.attempts.get(key);
    if (!entry) return;
    // A clean end with the reply stored: that reply answers every later delivery of the key, so
    // the attempt record is not needed (it would only count attempts after the reply is gone).
    if (outcome === null && this.reply(key)) this.attempts.delete(key);
    else entry.state = outcome ?? 'done';
  }

  private stateOf(hold: Hold): HoldState {
    return { awaiting: hold.awaiting, received: hold.received, since: hold.since === null ? null : new Date(this.epoch + hold.since) };
  }

  /** The order's hold state; an inactive one untouched for the ttl is forgotten. */
  private hold(orderId: string): HoldState {
    const entry = this.holds.get(orderId);
    if (entry && !entry.awaiting && entry.touchedAt + this.ttlMs <= this.clock()) {
      this.holds.delete(orderId);
      return emptyHoldState();
    }
    return entry ? this.stateOf(entry) : emptyHoldState();
  }

  private setHold(orderId: string, state: HoldState): FulfilmentHold | null {
    const since = state.since ? state.since.getTime() - this.epoch : null;
    this.holds.delete(orderId);
    this.holds.set(orderId, new Hold(state.awaiting ? copyRefs(state.awaiting) : null, copyRefs(state.received), since, this.clock()));
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
    const entry = this.holds.get(orderId);
    return entry ? holdOf(orderId, this.stateOf(entry)) : null;
  }

  async releaseFulfilmentHold(orderId: string): Promise<void> {
    const entry = this.holds.get(orderId);
    if (entry?.awaiting) this.setHold(orderId, { awaiting: null, received: entry.received, since: null });
  }

  /** The holds still awaiting documents (among the OrderIds starting with `prefix`); one pass over the hold entries. */
  async countActiveHolds(options: CountHoldsOptions = {}): Promise<number> {
    const prefix = options.prefix ?? '';
    let active = 0;
    for (const [orderId, hold] of this.holds) if (hold.awaiting && orderId.startsWith(prefix)) active++;
    return active;
  }

  async saveMerchantOrderIds(orderId: string, merchantOrderIds: readonly string[]): Promise<void> {
    const entry = new MerchantIds(orderId, this.clock());
    for (const id of merchantOrderIds) {
      const key = id === orderId ? orderId : id; // one string kept, not two equal ones
      this.merchantIds.delete(key);
      this.merchantIds.set(key, entry);
    }
    while (this.merchantIds.size > this.maxEntries) this.merchantIds.delete((this.oldestMerchantIds.oldest() as [string, MerchantIds])[0]);
  }

  /** Always answers: the data is in this process. */
  async ping(): Promise<void> {}

  async findOrderId(merchantOrderId: string): Promise<string | null> {
    const entry = this.merchantIds.get(merchantOrderId);
    if (!entry) return null;
    if (entry.at + this.ttlMs <= this.clock()) {
      this.merchantIds.delete(merchantOrderId);
      return null;
    }
    return entry.orderId;
  }
}
