/**
 * `crossborder-merchant-kit/store/redis`: RedisStore, correct across any number of processes
 * sharing one Redis (or Valkey) server. You pass a connected client: node-redis (`redis` 4 or 5) or
 * ioredis; the store never connects, quits or configures it.
 * - Per-OrderId lock: a lease claimed by one Lua script (lease-lock.ts), judged by the server's clock.
 * - The save is fenced: one script stores the reply, ends the attempt, keeps the merchant ids and
 *   releases the lock only while the lease is its holder's (else LeaseLostError, nothing stored).
 * - Every other operation is one command or one script: one round trip. Expiry is the keys' TTL.
 * - Durability is the server's: without AOF (appendonly yes, appendfsync everysec or always) a
 *   restart loses the records, and exactly-once then holds only within a lease. See docs/stores.md.
 *
 * @module crossborder-merchant-kit/store/redis
 */
import { storeKeyPart } from '../../json/canonical.js';
import { checkKeys, fail, parseDuration } from '../../shared/options.js';
import { TimeLimitError, withTimeLimit } from '../../shared/time-limit.js';
import { applyDocuments, applyPlace, holdOf } from '../holds.js';
import { changeHold, stateOf } from '../hold-cas.js';
import type { HoldEntry } from '../hold-cas.js';
import { leaseLock } from '../lease-lock.js';
import type { LeaseEngine } from '../lease-lock.js';
import { KeyedMutex } from '../mutex.js';
import { LeaseLostError } from '../store-errors.js';
import { DEFAULT_TTL_MS } from '../types.js';
import type {
  AcquireOptions, AttemptOutcome, AttemptStart, CountHoldsOptions, DocumentRef, FulfilmentHold, NewRecord, Store, StoreLock, StoredRecord,
} from '../types.js';
import { senderOf } from './client.js';
import type { RedisClientLike, Script, Send } from './client.js';
import * as lua from './scripts.js';

export type { RedisClientLike, NodeRedisLike, IoRedisLike } from './client.js';

/**
 * Options of `RedisStore`: your connected client, the key prefix, how long replies are kept, and the
 * time-outs. See docs/stores.md#redisstore.
 */
export interface RedisStoreOptions {
  /** A connected node-redis client (`await createClient({ url }).connect()`, redis 4 or 5) or an ioredis instance (`new Redis(url)`). The store never closes it. */
  client: RedisClientLike;
  /**
   * Put before every key of the store; default 'cbk:'. Two shops (or environments) on one server
   * use two prefixes. On Redis Cluster, give it a hash tag (`'{cbk}:'`): the scripts touch several
   * keys at once, which Cluster allows only within one slot (see docs/stores.md).
   */
  keyPrefix?: string;
  /** How long a stored reply is kept: milliseconds or '30d' / '12h'; default 30 days. */
  ttl?: number | string;
  /**
   * The longest any command of the store may take: milliseconds or '5s'; default 5000. Past it the
   * call fails (the delivery is answered 503 STORE_UNAVAILABLE and retried by the service), also
   * while the client queues commands for a server it lost. A save is also bounded by its lease.
   */
  timeoutMs?: number | string;
}

/** How long a lock's key outlives its lease, so that a take-over is told apart from a free OrderId (`recovered`). */
const EXPIRED_LEASE_KEPT_MS = 60 * 60 * 1000;
const DEFAULT_TIMEOUT_MS = 5_000;

/** A stored reply as kept under `r:<key>`. */
interface Kept { k: string; c: string; o: string; h: string; r: StoredRecord['response']; p: boolean; t: number; e: number }

const outcomeOf = (s: string): AttemptOutcome => s as AttemptOutcome;

export class RedisStore implements Store {
  readonly ttlMs: number;
  readonly keyPrefix: string;
  readonly timeoutMs: number;
  private readonly send: Send;
  private readonly mutex = new KeyedMutex();
  private readonly engine: LeaseEngine = {
    claim: async (orderId, owner, leaseMs) => {
      const sent = this.run(lua.CLAIM, [this.k('l', orderId)], [owner, Math.ceil(leaseMs), EXPIRED_LEASE_KEPT_MS], 0);
      let r: number;
      try {
        r = Number(await withTimeLimit(sent, this.timeoutMs));
      } catch (err) {
        // Given up on, but maybe still to run (a client queueing for a lost server): what it claims then is released.
        if (err instanceof TimeLimitError) sent.then((late) => (Number(late) >= 0 ? this.engine.release(orderId, owner) : undefined)).catch(() => {});
        throw err;
      }
      return r < 0 ? null : { recovered: r === 1 };
    },
    release: async (orderId, owner) => {
      await this.run(lua.RELEASE, [this.k('l', orderId)], [owner]);
    },
    saveAndRelease: async (orderId, owner, record, ids, boundMs) => {
      const { keys, args } = this.saveParts(record);
      await this.run(lua.SAVE_AND_RELEASE,
        [this.k('l', orderId), ...keys, this.k('a', record.key), ...ids.map((id) => this.k('m', storeKeyPart(id)))],
        [owner, ...args, record.orderId], Math.min(boundMs, this.timeoutMs));
    },
  };

  constructor(options: RedisStoreOptions) {
    if (typeof options !== 'object' || options === null) fail('ERR_CBK_OPTION_REQUIRED', 'RedisStore needs options: { client }');
    checkKeys('RedisStore.', options as unknown as Record<string, unknown>, ['client', 'keyPrefix', 'ttl', 'timeoutMs']);
    this.send = senderOf(options.client);
    const prefix = options.keyPrefix ?? 'cbk:';
    if (typeof prefix !== 'string') fail('ERR_CBK_OPTION_INVALID', 'Option RedisStore.keyPrefix must be a string');
    this.keyPrefix = prefix;
    this.ttlMs = parseDuration(options.ttl, 'RedisStore.ttl', DEFAULT_TTL_MS);
    this.timeoutMs = parseDuration(options.timeoutMs, 'RedisStore.timeoutMs', DEFAULT_TIMEOUT_MS);
  }

  /** One command, bounded by `timeoutMs`. */
  private cmd(args: string[]): Promise<unknown> {
    return withTimeLimit(this.send(args), this.timeoutMs);
  }

  private k(kind: string, id: string): string {
    return `${this.keyPrefix}${kind}:${id}`;
  }

  /** A script, bounded by `bound` ms (default `timeoutMs`; 0: none); the server's refusal of a fenced save becomes LeaseLostError. */
  private async run(script: Script, keys: readonly string[], args: readonly (string | number)[], bound = this.timeoutMs): Promise<unknown> {
    try {
      const sent = script.run(this.send, keys, args);
      return await (bound > 0 ? withTimeLimit(sent, Math.max(1, bound)) : sent);
    } catch (err) {
      if (String((err as Error)?.message).includes(lua.LEASE_LOST_REPLY)) throw new LeaseLostError();
      throw err;
    }
  }

  /** The keys (record, payments, latest) and arguments (json, ttl, paid, callback, member, time) of a save. */
  private saveParts(record: NewRecord): { keys: string[]; args: (string | number)[] } {
    const t = Date.now();
    const kept: Kept = { k: record.key, c: record.callback, o: record.orderId, h: record.hash, r: record.response, p: record.payment, t, e: t + this.ttlMs };
    return {
      keys: [this.k('r', record.key), this.k('p', record.orderId), this.k('n', record.orderId)],
      args: [JSON.stringify(kept), this.ttlMs, record.payment ? '1' : '0', record.callback, record.key, t],
    };
  }

  private recordOf(value: unknown): StoredRecord | null {
    if (typeof value !== 'string' && !Buffer.isBuffer(value)) return null;
    const kept = JSON.parse(String(value)) as Kept;
    return {
      key: kept.k, callback: kept.c, orderId: kept.o, hash: kept.h, response: kept.r, payment: kept.p, createdAt: new Date(kept.t), expiresAt: new Date(kept.e),
    };
  }

  acquire(orderId: string, options: AcquireOptions): Promise<StoreLock | null> {
    return leaseLock(this.engine, this.mutex, orderId, options);
  }

  async getRecord(key: string): Promise<StoredRecord | null> {
    return this.recordOf(await this.cmd(['GET', this.k('r', key)]));
  }

  async getPayment(orderId: string): Promise<StoredRecord | null> {
    return this.recordOf(await this.run(lua.FIRST_PAYMENT, [this.k('p', orderId)], [this.k('r', '')]));
  }

  async getLatestRecord(orderId: string, callback: string): Promise<StoredRecord | null> {
    return this.recordOf(await this.run(lua.LATEST, [this.k('n', orderId)], [callback, this.k('r', '')]));
  }

  async saveRecord(record: NewRecord): Promise<void> {
    const { keys, args } = this.saveParts(record);
    await this.run(lua.SAVE, keys, args);
  }

  async beginAttempt(key: string, orderId: string): Promise<AttemptStart> {
    void orderId;
    const [n, prev, at] = await this.run(lua.BEGIN_ATTEMPT, [this.k('a', key)], [this.ttlMs]) as [unknown, unknown, unknown];
    const start: AttemptStart = { attempt: Number(n) };
    if (String(prev) !== '') start.previousAttempt = { startedAt: new Date(Number(at)), outcome: outcomeOf(String(prev)) };
    return start;
  }

  async endAttempt(key: string, outcome: AttemptOutcome | null): Promise<void> {
    await this.run(lua.END_ATTEMPT, [this.k('a', key), this.k('r', key)], [outcome ?? '']);
  }

  private changeHold(orderId: string, change: Parameters<typeof changeHold>[4]): Promise<FulfilmentHold | null> {
    const key = this.k('h', orderId);
    return changeHold(orderId, 'RedisStore', async () => {
      const raw = await this.cmd(['GET', key]);
      const token = raw === null || raw === undefined ? '' : String(raw);
      return { entry: token === '' ? null : JSON.parse(token) as HoldEntry, token };
    }, async (token, next) => Number(await this.run(lua.SET_HOLD, [key, this.k('holds', '')],
      [token, JSON.stringify(next), next.a ? '1' : '0', orderId, this.ttlMs])) === 1, change);
  }

  placeFulfilmentHold(orderId: string, required: readonly DocumentRef[]): Promise<FulfilmentHold | null> {
    return this.changeHold(orderId, (state) => applyPlace(state, required, new Date()));
  }

  recordDocuments(orderId: string, received: readonly DocumentRef[]): Promise<FulfilmentHold | null> {
    return this.changeHold(orderId, (state) => applyDocuments(state, received));
  }

  async getFulfilmentHold(orderId: string): Promise<FulfilmentHold | null> {
    const raw = await this.cmd(['GET', this.k('h', orderId)]);
    return raw === null || raw === undefined ? null : holdOf(orderId, stateOf(JSON.parse(String(raw)) as HoldEntry));
  }

  async releaseFulfilmentHold(orderId: string): Promise<void> {
    if (!(await this.getFulfilmentHold(orderId))) return; // no active hold: nothing written
    await this.changeHold(orderId, (state) => (state.awaiting ? { awaiting: null, received: state.received, since: null } : state));
  }

  /** One ZLEXCOUNT over the OrderIds with an active hold (ZCARD without a prefix). */
  async countActiveHolds(options: CountHoldsOptions = {}): Promise<number> {
    return Number(await this.run(lua.COUNT_HOLDS, [this.k('holds', '')], [options.prefix ?? '']));
  }

  async saveMerchantOrderIds(orderId: string, merchantOrderIds: readonly string[]): Promise<void> {
    if (merchantOrderIds.length === 0) return;
    await this.run(lua.SAVE_IDS, merchantOrderIds.map((id) => this.k('m', storeKeyPart(id))), [orderId, this.ttlMs]);
  }

  async findOrderId(merchantOrderId: string): Promise<string | null> {
    const raw = await this.cmd(['GET', this.k('m', storeKeyPart(merchantOrderId))]);
    return raw === null || raw === undefined ? null : String(raw);
  }

  /** One PING; rejects when it fails or takes longer than `timeoutMs` (default 2000). */
  async ping(options: { timeoutMs?: number } = {}): Promise<void> {
    const reply = await withTimeLimit(this.send(['PING']), options.timeoutMs ?? 2000);
    if (String(reply) !== 'PONG') throw new Error(`RedisStore: PING answered ${String(reply).slice(0, 40)}`);
  }
}
