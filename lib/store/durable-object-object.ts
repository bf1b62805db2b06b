/**
 * CallbackStoreObject: the Durable Object behind DurableObjectStore (durable-object.ts), exported by
 * the Worker and bound in wrangler.toml (docs/bindings.md). One instance per OrderId (its lock,
 * replies, attempts and hold), per merchant order id, and one index of active holds: see
 * durable-object-protocol.ts. An object runs one request at a time between awaits, and its storage
 * calls are atomic with respect to other requests (the input gate): a read and the write that
 * follows it, with no other await between, are one step. So the per-OrderId lock is a `lock` entry
 * taken and released by such steps; a waiting claim sleeps in the object until a release wakes it
 * or the holder's lease ends. Several writes made in one step are committed together (write
 * coalescing): a fenced save stores the reply, ends its attempt and releases the lock all or nothing.
 * Expired entries are filtered on read and deleted by the object's alarm.
 */
import { applyDocuments, applyPlace, emptyHoldState, holdOf, type HoldState } from './holds.js';
import { LEASE_LOST, type Answer, type ClaimAnswer, type HoldAnswer, type Request, type WireAttemptStart, type WireHold, type WirePrefetch, type WireRecord } from './durable-object-protocol.js';
import type { AttemptOutcome, DocumentRef } from './types.js';

/** The part of a Durable Object's storage the object uses (`state.storage` in workerd). */
export interface DurableObjectStorageLike {
  /** Reads one value (undefined when absent). */
  get<T = unknown>(key: string): Promise<T | undefined>;
  /** Writes one value. */
  put(key: string, value: unknown): Promise<void>;
  /** Writes several values at once (atomically). */
  put(entries: Record<string, unknown>): Promise<void>;
  /** Deletes one key or several. */
  delete(key: string | string[]): Promise<unknown>;
  /** Lists values by key order, optionally from a prefix or start key, up to a limit. */
  list<T = unknown>(options?: { prefix?: string; start?: string; limit?: number }): Promise<Map<string, T>>;
  /** The time of the object's alarm (ms since the epoch), or null. */
  getAlarm(): Promise<number | null>;
  /** Sets the object's alarm (used to purge expired entries). */
  setAlarm(scheduledTime: number): Promise<void>;
}
/** What workerd hands a Durable Object's constructor (the part used). */
export interface DurableObjectStateLike { storage: DurableObjectStorageLike }

interface Lock { owner: string; until: number }
interface AttemptEntry { attempts: number; state: 'running' | 'done' | AttemptOutcome; startedAt: number; expiresAt: number }
interface HoldEntry {
  awaiting: DocumentRef[] | null; received: DocumentRef[]; since: number | null; version: number; expiresAt: number | null;
  /** The order has had a hold: its changes are told to the index (again on a retry, should telling it have failed). */
  held: boolean;
}
interface IdEntry { orderId: string; expiresAt: number }
interface IndexEntry { active: boolean; version: number; at: number }

/** How long an index entry of a released hold is kept (a late, older message about the hold is then still refused). */
const INDEX_TOMBSTONE_MS = 60_000;
/** How far ahead of the object's clock a caller's may move the object's time (see now()). */
const CLOCK_LEAD_MS = 1_000;
/** Entries a count or a clean-up reads at once. */
const PAGE = 1_000;

const live = <T extends { expiresAt: number }>(r: T | undefined, now: number): T | undefined => (r !== undefined && r.expiresAt > now ? r : undefined);

/**
 * The Durable Object class that holds the kit's store on Cloudflare Workers: export it from your Worker
 * (`export { CallbackStoreObject } from 'crossborder-merchant-kit/store/durable-object'`) and bind it
 * in wrangler's `durable_objects` (with a migration), then give the binding to {@link DurableObjectStore}.
 * Its protocol is internal. See docs/stores.md#durableobjectstore.
 */
export class CallbackStoreObject {
  private readonly storage: DurableObjectStorageLike;
  /** Claims waiting for this object's lock: woken by a release (each then tries again). */
  private readonly waiters = new Set<() => void>();

  constructor(state: DurableObjectStateLike, env?: unknown) {
    void env;
    this.storage = state.storage;
  }

  /** The latest caller's clock seen (ms), at most CLOCK_LEAD_MS ahead of the object's: see now(). */
  private floor = 0;

  /**
   * The object's time: its clock, or the latest caller's when that is later (by at most
   * CLOCK_LEAD_MS). workerd's clock stands still between I/O; an object just started reads the time
   * it started at (seen 100+ ms behind on a loaded machine), which would shorten a reply's ttl.
   */
  private now(): number {
    return Math.max(Date.now(), this.floor);
  }

  /** The step running now: each step starts when the one before it ended. */
  private last: Promise<unknown> = Promise.resolve();

  /**
   * Runs `step` once every step before it ended. The input gate keeps new requests out while a
   * storage call runs, but two requests already started may both read before either writes: each
   * read-then-write is one step.
   */
  private step<T>(step: () => Promise<T>): Promise<T> {
    const run = this.last.then(step, step);
    this.last = run.catch(() => {});
    return run;
  }

  /** One request of DurableObjectStore: a JSON body (durable-object-protocol.ts), a JSON answer. */
  async fetch(request: { json(): Promise<unknown> }): Promise<Response> {
    let answer: Answer;
    try {
      const req = await request.json() as Request;
      if (typeof req.at === 'number') this.floor = Math.max(this.floor, Math.min(req.at, Date.now() + CLOCK_LEAD_MS));
      answer = { r: await (req.op === 'claim' ? this.claim(req) : this.step(() => this.handle(req))) };
    } catch (err) {
      const code = (err as { code?: unknown }).code === LEASE_LOST ? LEASE_LOST : 'failed';
      answer = { e: code, m: err instanceof Error ? err.message : String(err) };
    }
    return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
  }

  private handle(req: Request): Promise<unknown> {
    switch (req.op) {
      case 'release': return this.release(req.owner);
      case 'save': return this.save(req);
      case 'get': return this.record(req.key, this.now()).then((r) => r ?? null);
      case 'payment': return this.records().then((all) => pick(all, (r) => r.payment, 'first'));
      case 'latest': return this.records().then((all) => pick(all, (r) => r.callback === req.callback, 'last'));
      case 'begin': return this.begin(req.key, req.ttlMs);
      case 'end': return this.end(req.key, req.outcome);
      case 'hold': return this.hold(req);
      case 'setOrderId': return this.setOrderId(req.orderId, req.ttlMs);
      case 'findOrderId': return this.storage.get<IdEntry>('id').then((e) => live(e, this.now())?.orderId ?? null);
      case 'indexHold': return this.indexHold(req.orderId, req.active, req.version);
      case 'countHolds': return this.countHolds(req.prefix);
      case 'ping': return this.storage.get('ping').then(() => null);
      default: return Promise.reject(new Error(`unknown request ${String((req as { op?: unknown }).op)}`));
    }
  }

  private async record(key: string, now: number): Promise<WireRecord | undefined> {
    return live(await this.storage.get<WireRecord>(`r:${key}`), now);
  }

  /** The live replies of this object. */
  private async records(): Promise<WireRecord[]> {
    const now = this.now();
    return [...(await this.storage.list<WireRecord>({ prefix: 'r:' })).values()].filter((r) => r.expiresAt > now);
  }

  /**
   * The stored answer (`replay`), else the lock: taken at once when free or when its lease ended
   * (`recovered`), else waited for until `waitMs` passed (each release wakes the waiters, each lease
   * end the waiter's own timer).
   */
  private async claim(req: Extract<Request, { op: 'claim' }>): Promise<ClaimAnswer> {
    const start = this.now();
    const deadline = start + req.waitMs;
    for (;;) {
      const tried = await this.step(async (): Promise<ClaimAnswer | number> => {
        const now = this.now();
        if (req.replay && req.prefetch) {
          const stored = await this.storedAnswer(req.prefetch, now);
          if (stored) return { stored };
        }
        const lock = await this.storage.get<Lock>('lock');
        if (!lock || lock.until <= now) {
          await this.storage.put('lock', { owner: req.owner, until: now + req.leaseMs } satisfies Lock);
          const prefetched = req.prefetch ? await this.prefetch(req.prefetch, req.ttlMs, now) : undefined;
          return { claimed: true, recovered: lock !== undefined, waitedMs: now - start, ...(prefetched ? { prefetched } : {}) };
        }
        const left = deadline - now;
        return left <= 0 ? { claimed: false } : Math.min(left, lock.until - now + 1);
      });
      if (typeof tried !== 'number') return tried;
      // Asleep outside the step: other requests run meanwhile (the release that wakes it).
      await this.sleep(tried);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(0, ms));
      this.waiters.add(wake);
    });
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }

  private async storedAnswer(p: WirePrefetch, now: number): Promise<{ record: WireRecord | null; payment: WireRecord | null } | null> {
    const record = (await this.record(p.key, now)) ?? null;
    if (record) return { record, payment: null };
    const payment = p.payment ? pick(await this.records(), (r) => r.payment, 'first') : null;
    return payment ? { record: null, payment } : null;
  }

  /** What the kit reads right after the lock, read with it; the attempt begun unless a reply answers the delivery. */
  private async prefetch(p: WirePrefetch, ttlMs: number, now: number) {
    const all = await this.records();
    const record = all.find((r) => r.key === p.key) ?? null;
    const payment = p.payment ? pick(all, (r) => r.payment, 'first') : null;
    const latest = pick(all, (r) => r.callback === p.latestOf, 'last');
    const hold = holdWire(await this.storage.get<HoldEntry>('hold'));
    const attempt = p.beginAttempt && !record && !payment ? await this.begin(p.key, ttlMs, now) : undefined;
    return { record, payment, latest, hold, ...(attempt ? { attempt } : {}) };
  }

  private async release(owner: string): Promise<null> {
    const lock = await this.storage.get<Lock>('lock');
    if (lock?.owner === owner) {
      await this.storage.delete('lock');
      this.wake();
    }
    return null;
  }

  /**
   * A reply (the first saved under its key is kept). With `owner`, fenced: refused (nothing stored)
   * unless the lock is still `owner`'s and its lease not ended; then the reply, its attempt's clean
   * end and the lock's release are written in one step.
   */
  private async save(req: Extract<Request, { op: 'save' }>): Promise<null> {
    const now = this.now();
    if (req.owner !== undefined) {
      const lock = await this.storage.get<Lock>('lock');
      if (lock?.owner !== req.owner || lock.until <= now) {
        throw Object.assign(new Error('the lease of this attempt was lost before its reply was stored; nothing was stored'), { code: LEASE_LOST });
      }
    }
    const key = req.record.key;
    const stored = await this.record(key, now);
    const seq = ((await this.storage.get<number>('seq')) ?? 0) + 1;
    const writes: Record<string, unknown> = {};
    if (!stored) {
      writes[`r:${key}`] = { ...req.record, createdAt: now, expiresAt: now + req.ttlMs, seq } satisfies WireRecord;
      writes.seq = seq;
    }
    // No await between the writes: committed together (write coalescing).
    const written: Promise<unknown>[] = [];
    if (!stored) written.push(this.storage.put(writes));
    if (req.owner !== undefined) written.push(this.storage.delete([`a:${key}`, 'lock']));
    await Promise.all(written);
    if (req.owner !== undefined) this.wake();
    if (!stored) await this.expireAt(now + req.ttlMs);
    return null;
  }

  private async begin(key: string, ttlMs: number, now = this.now()): Promise<WireAttemptStart> {
    const entry = live(await this.storage.get<AttemptEntry>(`a:${key}`), now);
    const start: WireAttemptStart = { attempt: (entry?.attempts ?? 0) + 1 };
    if (entry && entry.state !== 'done') start.previousAttempt = { startedAt: entry.startedAt, outcome: entry.state === 'running' ? 'crashed' : entry.state };
    await this.storage.put(`a:${key}`, { attempts: start.attempt, state: 'running', startedAt: now, expiresAt: now + ttlMs } satisfies AttemptEntry);
    await this.expireAt(now + ttlMs);
    return start;
  }

  private async end(key: string, outcome: AttemptOutcome | null): Promise<null> {
    const now = this.now();
    const entry = live(await this.storage.get<AttemptEntry>(`a:${key}`), now);
    if (!entry) return null;
    // A clean end with the reply stored: the reply answers every later delivery of the key.
    if (outcome === null && await this.record(key, now)) await this.storage.delete(`a:${key}`);
    else await this.storage.put(`a:${key}`, { ...entry, state: outcome ?? 'done' });
    return null;
  }

  private async hold(req: Extract<Request, { op: 'hold' }>): Promise<HoldAnswer> {
    const now = this.now();
    const entry = await this.storage.get<HoldEntry>('hold');
    const current: HoldState = entry && (entry.awaiting || (entry.expiresAt ?? 0) > now)
      ? { awaiting: entry.awaiting, received: entry.received, since: entry.since === null ? null : new Date(entry.since) } : emptyHoldState();
    if (req.change === 'get') return { hold: holdWire(entry), active: entry?.awaiting != null, version: entry?.version ?? 0, indexed: false };
    if (req.change === 'release' && !current.awaiting) return { hold: null, active: false, version: entry?.version ?? 0, indexed: entry?.held ?? false };
    const next = req.change === 'place' ? applyPlace(current, req.refs, new Date(now))
      : req.change === 'documents' ? applyDocuments(current, req.refs) : { ...current, awaiting: null, since: null };
    const version = (entry?.version ?? 0) + 1;
    const expiresAt = next.awaiting ? null : now + req.ttlMs;
    const held = (entry?.held ?? false) || next.awaiting !== null;
    await this.storage.put('hold', { awaiting: next.awaiting, received: next.received, since: next.since?.getTime() ?? null, version, expiresAt, held } satisfies HoldEntry);
    if (expiresAt !== null) await this.expireAt(expiresAt);
    const hold = holdOf(req.orderId, next);
    return { hold: hold && { awaiting: hold.awaiting, since: hold.since.getTime() }, active: hold !== null, version, indexed: held };
  }

  private async setOrderId(orderId: string, ttlMs: number): Promise<null> {
    const now = this.now();
    await this.storage.put('id', { orderId, expiresAt: now + ttlMs } satisfies IdEntry);
    await this.expireAt(now + ttlMs);
    return null;
  }

  /** The index of active holds: the newest version of each order's hold state wins. */
  private async indexHold(orderId: string, active: boolean, version: number): Promise<null> {
    const key = `h:${orderId}`;
    const entry = await this.storage.get<IndexEntry>(key);
    if (entry && entry.version >= version) return null;
    const now = this.now();
    await this.storage.put(key, { active, version, at: now } satisfies IndexEntry);
    if (!active) await this.expireAt(now + INDEX_TOMBSTONE_MS);
    return null;
  }

  private async countHolds(prefix: string): Promise<number> {
    let count = 0;
    let start: string | undefined;
    for (;;) {
      const page = await this.storage.list<IndexEntry>({ prefix: `h:${prefix}`, limit: PAGE, ...(start === undefined ? {} : { start }) });
      for (const [key, entry] of page) if (entry.active && key !== start) count++;
      if (page.size < PAGE) return count;
      start = [...page.keys()].pop();
    }
  }

  /** Makes the object's alarm come by `at` (it deletes what expired then). */
  private async expireAt(at: number): Promise<void> {
    const current = await this.storage.getAlarm();
    if (current === null || current > at) await this.storage.setAlarm(at);
  }

  /** Deletes what has expired (replies, attempts, ended locks, inactive holds, merchant ids, index entries), then sets the next alarm. */
  async alarm(): Promise<void> {
    const now = this.now();
    let next = Infinity;
    const expired: string[] = [];
    for (const [key, value] of await this.storage.list<Record<string, unknown>>()) {
      const at = expiryOf(key, value);
      if (at === null) continue;
      if (at <= now) expired.push(key);
      else next = Math.min(next, at);
    }
    for (let i = 0; i < expired.length; i += 128) await this.storage.delete(expired.slice(i, i + 128));
    if (next !== Infinity) await this.storage.setAlarm(next);
  }
}

/** When an entry may be deleted (null: not by time). */
function expiryOf(key: string, value: Record<string, unknown>): number | null {
  if (key === 'lock') return (value as unknown as Lock).until;
  if (key.startsWith('h:')) return (value as unknown as IndexEntry).active ? null : (value as unknown as IndexEntry).at + INDEX_TOMBSTONE_MS;
  if (key === 'hold') return (value as unknown as HoldEntry).expiresAt;
  return typeof value?.expiresAt === 'number' ? value.expiresAt : null;
}

/** The first (oldest) or last (newest) reply matching. */
function pick(all: readonly WireRecord[], match: (r: WireRecord) => boolean, which: 'first' | 'last'): WireRecord | null {
  let best: WireRecord | null = null;
  for (const r of all) {
    if (!match(r)) continue;
    if (best === null || (which === 'first' ? r.seq < best.seq : r.seq > best.seq)) best = r;
  }
  return best;
}

const holdWire = (entry: HoldEntry | undefined): WireHold | null =>
  (entry?.awaiting && entry.awaiting.length > 0 ? { awaiting: entry.awaiting, since: entry.since ?? Date.now() } : null);
