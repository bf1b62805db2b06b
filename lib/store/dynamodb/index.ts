/**
 * `crossborder-merchant-kit/store/dynamodb`: DynamoDBStore, correct across any number of processes
 * (Lambda invocations, containers) sharing one DynamoDB table. You pass a `DynamoDBClient` of
 * `@aws-sdk/client-dynamodb` (an optional peer dependency, loaded only by this entry point).
 * - Per-OrderId lock: a lease item claimed with one conditional write (lease-lock.ts).
 * - The save is fenced: one conditional write on the lock item, refused unless the lease is still
 *   its holder's (LeaseLostError, nothing stored), ends the lease and keeps the reply (with its
 *   merchant ids) in the lock item; the reply's own items are written next, and whoever takes the
 *   OrderId's lock next completes them first if that was cut short: the save is all or nothing.
 * - Replies: first write wins (a conditional put). Holds: compare-and-set on a version.
 * - Expiry: DynamoDB's TTL deletes expired items (within days); every read ignores them at once.
 * Items and keys: items.ts. The table (CloudFormation/SAM, CDK, IAM): docs/stores.md.
 *
 * @module crossborder-merchant-kit/store/dynamodb
 */
import { DeleteItemCommand, GetItemCommand, PutItemCommand, QueryCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBClient, QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { storeKeyPart } from '../../json/canonical.js';
import { checkKeys, fail, parseDuration } from '../../shared/options.js';
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
import { busy, isConditionFailed, storeError } from './errors.js';
import {
  attemptKey, holdKey, key, latestSk, lockKey, merchantKey, N, num, orderPk, paymentSk, pendingOf, pendingValue, recordKey, recordOf,
  replyAttributes, S, str, ttlOf,
} from './items.js';
import type { Item, Pending } from './items.js';
import { ACTIVE_HOLDS_INDEX, createTable } from './table.js';

export { tableDefinition, ACTIVE_HOLDS_INDEX, TTL_ATTRIBUTE } from './table.js';

/**
 * Options of `DynamoDBStore`: your `DynamoDBClient`, the table (create it with `createTable` or from
 * {@link tableDefinition}), how long replies are kept, and the time-outs. See docs/stores.md#dynamodbstore.
 */
export interface DynamoDBStoreOptions {
  /** A `DynamoDBClient` of `@aws-sdk/client-dynamodb` (its region, credentials, retries and time-outs are yours). The store never destroys it. */
  client: DynamoDBClient;
  /** The table (see docs/stores.md: partition key `pk`, sort key `sk`, TTL attribute `ttl`, index `active-holds`). */
  tableName: string;
  /** How long a stored reply is kept: milliseconds or '30d' / '12h'; default 30 days. */
  ttl?: number | string;
  /**
   * The longest any request of the store may take, the SDK's retries included: milliseconds or '5s';
   * default 5000. Past it the request is aborted and the call fails (the delivery is answered 503
   * STORE_UNAVAILABLE and retried by the service). A save is also bounded by its lease.
   */
  timeoutMs?: number | string;
}

/** How long a lock item outlives its lease, so that a take-over is told apart from a free OrderId (`recovered`). */
const EXPIRED_LEASE_KEPT_MS = 60 * 60 * 1000;
const ATTEMPT_TRIES = 5;

export class DynamoDBStore implements Store {
  readonly ttlMs: number;
  readonly tableName: string;
  readonly timeoutMs: number;
  private readonly client: DynamoDBClient;
  private readonly mutex = new KeyedMutex();
  private readonly engine: LeaseEngine = {
    claim: (orderId, owner, leaseMs) => this.claim(orderId, owner, leaseMs),
    release: async (orderId, owner) => {
      try {
        await this.send(new UpdateItemCommand({
          TableName: this.tableName, Key: lockKey(orderId), UpdateExpression: 'REMOVE w, e',
          ConditionExpression: 'w = :w', ExpressionAttributeValues: { ':w': S(owner) },
        }));
      } catch (err) {
        if (!isConditionFailed(err)) throw err; // another's lease now: nothing to free
      }
    },
    saveAndRelease: (orderId, owner, record, ids, boundMs) => this.fencedSave(orderId, owner, record, ids, boundMs),
  };

  constructor(options: DynamoDBStoreOptions) {
    if (typeof options !== 'object' || options === null) fail('ERR_CBK_OPTION_REQUIRED', 'DynamoDBStore needs options: { client, tableName }');
    checkKeys('DynamoDBStore.', options as unknown as Record<string, unknown>, ['client', 'tableName', 'ttl', 'timeoutMs']);
    if (typeof (options.client as { send?: unknown } | undefined)?.send !== 'function') {
      fail('ERR_CBK_OPTION_REQUIRED', 'Option DynamoDBStore.client is required: a DynamoDBClient of @aws-sdk/client-dynamodb (new DynamoDBClient({}))');
    }
    if (typeof options.tableName !== 'string' || !/^[A-Za-z0-9_.-]{3,255}$/.test(options.tableName)) {
      fail('ERR_CBK_OPTION_INVALID', 'Option DynamoDBStore.tableName must be a DynamoDB table name (3 to 255 of A-Z a-z 0-9 _ . -)');
    }
    this.client = options.client;
    this.tableName = options.tableName;
    this.ttlMs = parseDuration(options.ttl, 'DynamoDBStore.ttl', DEFAULT_TTL_MS);
    this.timeoutMs = parseDuration(options.timeoutMs, 'DynamoDBStore.timeoutMs', 5_000);
  }

  /** Creates the table (on-demand billing, TTL on) unless it exists; for development and tests. Resolves whether it created it. */
  createTable(): Promise<boolean> {
    return createTable(this.client, this.tableName);
  }

  /** One request, aborted after `boundMs` (default `timeoutMs`); throttling past the SDK's retries becomes ERR_CBK_STORE_BUSY. */
  private async send<T>(command: object, boundMs = this.timeoutMs): Promise<T> {
    try {
      return await this.client.send(command as never, { abortSignal: AbortSignal.timeout(Math.max(1, Math.floor(boundMs))) }) as T;
    } catch (err) {
      throw storeError(err);
    }
  }

  private async get(k: Item): Promise<Item | undefined> {
    return (await this.send<{ Item?: Item }>(new GetItemCommand({ TableName: this.tableName, Key: k, ConsistentRead: true }))).Item;
  }

  private async claim(orderId: string, owner: string, leaseMs: number): Promise<{ recovered: boolean } | null> {
    const now = Date.now();
    let old: Item | undefined;
    try {
      old = (await this.send<{ Attributes?: Item }>(new UpdateItemCommand({
        TableName: this.tableName, Key: lockKey(orderId), UpdateExpression: 'SET w = :w, e = :e, #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(w) OR e <= :now', ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':w': S(owner), ':e': N(now + leaseMs), ':ttl': ttlOf(now + leaseMs + EXPIRED_LEASE_KEPT_MS), ':now': N(now) },
        ReturnValues: 'ALL_OLD',
      }))).Attributes;
    } catch (err) {
      if (isConditionFailed(err)) return null;
      throw err;
    }
    const pending = pendingOf(old);
    if (pending) {
      try {
        await this.complete(orderId, pending, owner);
      } catch (err) {
        await this.engine.release(orderId, owner).catch(() => { /* free again when its lease ends */ });
        throw err;
      }
    }
    return { recovered: old?.w !== undefined };
  }

  /**
   * The fenced save: one conditional write on the lock item ends the lease and keeps the save in it
   * (refused unless the lease is `owner`'s and unexpired: LeaseLostError); then completes it.
   */
  private async fencedSave(orderId: string, owner: string, record: NewRecord, ids: readonly string[], boundMs: number): Promise<void> {
    const t = Date.now();
    const pending: Pending = { record, t, e: t + this.ttlMs, ids: ids.map(storeKeyPart) };
    try {
      await this.send(new UpdateItemCommand({
        TableName: this.tableName, Key: lockKey(orderId), UpdateExpression: 'SET q = :q REMOVE w, e',
        ConditionExpression: 'w = :w AND e > :now', ExpressionAttributeValues: { ':q': pendingValue(pending), ':w': S(owner), ':now': N(t) },
      }), Math.min(boundMs, this.timeoutMs));
    } catch (err) {
      if (isConditionFailed(err)) throw new LeaseLostError();
      throw err;
    }
    // Kept in the lock item: if completing it fails now, whoever takes the lock next completes it.
    await this.complete(orderId, pending).catch(() => {});
  }

  /** Writes a kept save's items (each idempotent), then clears it from the lock item (unless another save replaced it). */
  private async complete(orderId: string, p: Pending, owner?: string): Promise<void> {
    await this.store(p.record, p.t, p.e);
    await this.send(new DeleteItemCommand({ TableName: this.tableName, Key: attemptKey(p.record.key) }));
    await this.putMerchantIds(p.record.orderId, p.ids, p.t);
    try {
      await this.send(new UpdateItemCommand({
        TableName: this.tableName, Key: lockKey(orderId), UpdateExpression: 'REMOVE q',
        ConditionExpression: owner === undefined ? 'q = :q' : 'q = :q AND w = :w',
        ExpressionAttributeValues: { ':q': pendingValue(p), ...(owner === undefined ? {} : { ':w': S(owner) }) },
      }));
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
    }
  }

  /** The reply (first write wins), then, when it was stored, its payment and latest copies. */
  private async store(record: NewRecord, t: number, e: number): Promise<void> {
    const attributes = replyAttributes(record, t, e);
    try {
      await this.send(new PutItemCommand({
        TableName: this.tableName, Item: { ...recordKey(record.key), ...attributes },
        ConditionExpression: 'attribute_not_exists(pk) OR e <= :now', ExpressionAttributeValues: { ':now': N(Date.now()) },
      }));
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
      // Stored already: by an earlier save, or by this one cut short (then its copies are written below).
      const stored = await this.get(recordKey(record.key));
      if (num(stored, 't') !== t) return;
    }
    const pk = orderPk(record.orderId);
    const latest = this.send(new PutItemCommand({
      TableName: this.tableName, Item: { ...attributes, ...key(pk, latestSk(record.callback)) },
      ConditionExpression: 'attribute_not_exists(pk) OR t <= :t', ExpressionAttributeValues: { ':t': N(t) },
    })).catch((err: unknown) => {
      if (!isConditionFailed(err)) throw err; // a later reply is the latest already
    });
    const payment = record.payment
      ? this.send(new PutItemCommand({ TableName: this.tableName, Item: { ...attributes, ...key(pk, paymentSk(t, record.key)) } }))
      : undefined;
    await Promise.all([latest, payment]);
  }

  private async putMerchantIds(orderId: string, ids: readonly string[], t: number): Promise<void> {
    const e = t + this.ttlMs;
    await Promise.all([...new Set(ids)].map((id) => this.send(new PutItemCommand({
      TableName: this.tableName, Item: { ...merchantKey(id), o: S(orderId), e: N(e), ttl: ttlOf(e) },
    }))));
  }

  acquire(orderId: string, options: AcquireOptions): Promise<StoreLock | null> {
    return leaseLock(this.engine, this.mutex, orderId, options);
  }

  async getRecord(k: string): Promise<StoredRecord | null> {
    return recordOf(await this.get(recordKey(k)));
  }

  async getPayment(orderId: string): Promise<StoredRecord | null> {
    const now = Date.now();
    let start: Item | undefined;
    do {
      const page = await this.send<{ Items?: Item[]; LastEvaluatedKey?: Item }>(new QueryCommand({
        TableName: this.tableName, ConsistentRead: true, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :pay)',
        ExpressionAttributeValues: { ':pk': S(orderPk(orderId)), ':pay': S('pay#') }, ...(start ? { ExclusiveStartKey: start } : {}),
      }));
      for (const item of page.Items ?? []) {
        const r = recordOf(item, now);
        if (r) return r;
      }
      start = page.LastEvaluatedKey;
    } while (start);
    return null;
  }

  async getLatestRecord(orderId: string, callback: string): Promise<StoredRecord | null> {
    return recordOf(await this.get(key(orderPk(orderId), latestSk(callback))));
  }

  async saveRecord(record: NewRecord): Promise<void> {
    const t = Date.now();
    await this.store(record, t, t + this.ttlMs);
  }

  async beginAttempt(k: string, orderId: string): Promise<AttemptStart> {
    void orderId;
    for (let i = 0; i < ATTEMPT_TRIES; i++) {
      const now = Date.now();
      const e = now + this.ttlMs;
      const values = { ':running': S('running'), ':now': N(now), ':e': N(e), ':ttl': ttlOf(e) };
      try {
        const old = (await this.send<{ Attributes?: Item }>(new UpdateItemCommand({
          TableName: this.tableName, Key: attemptKey(k), UpdateExpression: 'SET n = if_not_exists(n, :zero) + :one, s = :running, t = :now, e = :e, #ttl = :ttl',
          ConditionExpression: 'attribute_not_exists(pk) OR e > :now', ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ...values, ':zero': N(0), ':one': N(1) }, ReturnValues: 'ALL_OLD',
        }))).Attributes;
        const start: AttemptStart = { attempt: (num(old, 'n') ?? 0) + 1 };
        const state = str(old, 's');
        if (old && state !== 'done') {
          start.previousAttempt = { startedAt: new Date(num(old, 't') ?? now), outcome: (state === 'running' ? 'crashed' : state) as AttemptOutcome };
        }
        return start;
      } catch (err) {
        if (!isConditionFailed(err)) throw err;
      }
      // The attempt record expired: a fresh one (unless another writer replaced it first).
      try {
        await this.send(new PutItemCommand({
          TableName: this.tableName, Item: { ...attemptKey(k), n: N(1), s: S('running'), t: N(now), e: N(e), ttl: ttlOf(e) },
          ConditionExpression: 'attribute_not_exists(pk) OR e <= :now', ExpressionAttributeValues: { ':now': N(now) },
        }));
        return { attempt: 1 };
      } catch (err) {
        if (!isConditionFailed(err)) throw err;
      }
    }
    throw busy('beginAttempt', undefined);
  }

  async endAttempt(k: string, outcome: AttemptOutcome | null): Promise<void> {
    // A clean end with the reply stored: that reply answers every later delivery of the key; the attempt is forgotten.
    if (outcome === null && (await this.getRecord(k))) {
      await this.send(new DeleteItemCommand({ TableName: this.tableName, Key: attemptKey(k) }));
      return;
    }
    try {
      await this.send(new UpdateItemCommand({
        TableName: this.tableName, Key: attemptKey(k), UpdateExpression: 'SET s = :s',
        ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeValues: { ':s': S(outcome ?? 'done') },
      }));
    } catch (err) {
      if (!isConditionFailed(err)) throw err; // no attempt begun for the key: nothing to end
    }
  }

  private changeHold(orderId: string, change: Parameters<typeof changeHold>[4]): Promise<FulfilmentHold | null> {
    return changeHold(orderId, 'DynamoDBStore', async () => {
      const item = await this.get(holdKey(orderId));
      const e = num(item, 'e');
      // An inactive hold untouched for the ttl is forgotten (its received documents too).
      const entry = item && !(e !== undefined && e <= Date.now()) ? JSON.parse(str(item, 'a')!) as HoldEntry : null;
      return { entry, token: num(item, 'v') };
    }, async (version, next) => {
      const active = next.a !== null;
      const e = Date.now() + this.ttlMs;
      const item: Item = {
        ...holdKey(orderId), a: S(JSON.stringify(next)), v: N((version ?? 0) + 1),
        ...(active ? { hp: S('active'), hs: S(orderId) } : { e: N(e), ttl: ttlOf(e) }),
      };
      try {
        await this.send(new PutItemCommand({
          TableName: this.tableName, Item: item,
          ...(version === undefined ? { ConditionExpression: 'attribute_not_exists(pk)' } : { ConditionExpression: 'v = :v', ExpressionAttributeValues: { ':v': N(version) } }),
        }));
        return true;
      } catch (err) {
        if (isConditionFailed(err)) return false;
        throw err;
      }
    }, change);
  }

  placeFulfilmentHold(orderId: string, required: readonly DocumentRef[]): Promise<FulfilmentHold | null> {
    return this.changeHold(orderId, (state) => applyPlace(state, required, new Date()));
  }

  recordDocuments(orderId: string, received: readonly DocumentRef[]): Promise<FulfilmentHold | null> {
    return this.changeHold(orderId, (state) => applyDocuments(state, received));
  }

  async getFulfilmentHold(orderId: string): Promise<FulfilmentHold | null> {
    const item = await this.get(holdKey(orderId));
    return item ? holdOf(orderId, stateOf(JSON.parse(str(item, 'a')!) as HoldEntry)) : null;
  }

  async releaseFulfilmentHold(orderId: string): Promise<void> {
    if (!(await this.getFulfilmentHold(orderId))) return; // no active hold: nothing written
    await this.changeHold(orderId, (state) => (state.awaiting ? { awaiting: null, received: state.received, since: null } : state));
  }

  /**
   * A count (Select COUNT) over the sparse index of active holds, under `prefix` if given. The index
   * is eventually consistent: a hold placed or released a moment ago may not be counted yet.
   */
  async countActiveHolds(options: CountHoldsOptions = {}): Promise<number> {
    const prefix = options.prefix ?? '';
    let count = 0;
    let start: Item | undefined;
    do {
      const input: QueryCommandInput = {
        TableName: this.tableName, IndexName: ACTIVE_HOLDS_INDEX, Select: 'COUNT',
        KeyConditionExpression: prefix === '' ? 'hp = :hp' : 'hp = :hp AND begins_with(hs, :prefix)',
        ExpressionAttributeValues: { ':hp': S('active'), ...(prefix === '' ? {} : { ':prefix': S(prefix) }) },
        ...(start ? { ExclusiveStartKey: start } : {}),
      };
      const page = await this.send<{ Count?: number; LastEvaluatedKey?: Item }>(new QueryCommand(input));
      count += page.Count ?? 0;
      start = page.LastEvaluatedKey;
    } while (start);
    return count;
  }

  async saveMerchantOrderIds(orderId: string, merchantOrderIds: readonly string[]): Promise<void> {
    await this.putMerchantIds(orderId, merchantOrderIds.map(storeKeyPart), Date.now());
  }

  async findOrderId(merchantOrderId: string): Promise<string | null> {
    const item = await this.get(merchantKey(storeKeyPart(merchantOrderId)));
    const e = num(item, 'e');
    return item && e !== undefined && e > Date.now() ? str(item, 'o') ?? null : null;
  }

  /** One consistent GetItem (of a key nothing writes); rejects when it fails or takes longer than `timeoutMs` (default 2000). */
  async ping(options: { timeoutMs?: number } = {}): Promise<void> {
    await this.send(new GetItemCommand({ TableName: this.tableName, Key: key('ping'), ConsistentRead: true }), options.timeoutMs ?? 2000);
  }
}

