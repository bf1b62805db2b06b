/**
 * PostgresStore: correct across any number of processes sharing one database.
 * - Per-OrderId lock: a lease row claimed with one `INSERT ... ON CONFLICT DO UPDATE ... WHERE
 *   expired` (atomic; no read-then-write), polled with back-off while someone else holds it. No
 *   connection is held while the adapter runs, so waiting deliveries cannot exhaust the pool.
 *   Within one process, waiters queue on an in-memory chain first, so only one of them polls.
 * - A delivery: one call of the claim function (its stored answer, else the lock and the reads made
 *   under it; postgres-functions.ts), one of the save function (reply, attempt end, merchant ids,
 *   release).
 * - Replies: primary key on the idempotency key, `INSERT ... ON CONFLICT` (first write wins).
 * - Holds: one row per order, changed in a transaction under `SELECT ... FOR UPDATE`.
 * - Every statement is bounded (`statementTimeoutMs`, `lockTimeoutMs`): a store that does not answer
 *   in time fails the delivery (503 STORE_UNAVAILABLE) instead of holding it.
 * - The save is fenced by the lease: it fails and keeps nothing when the lock is no longer its
 *   attempt's and unexpired (LeaseLostError), and is bounded by the lease's remaining time.
 * Tables are created by `migrate()` (postgres-migrate.ts: a deploy step, idempotent, safe to run from
 * several processes at once), and lazily on first use unless `autoMigrate: false`.
 */
import { explainingPool } from './pg-errors.js';
import { listenForPoolErrors } from './pool-errors.js';
import { DEFAULT_LOCK_TIMEOUT_MS, resolvePostgresOptions, type PgPoolLike, type PgQuery, type PostgresStoreOptions } from './postgres-options.js';

export type { PgClientLike, PgPoolLike, PgQuery, PostgresStoreOptions } from './postgres-options.js';
import { createHash } from 'node:crypto';
import { TimeLimitError, withTimeLimit } from '../shared/time-limit.js';
import { boundedQueryMaker, queryClassOf, type BoundedQueryMaker } from './postgres-pipeline.js';
import { applyDocuments, applyPlace, emptyHoldState, holdOf, type HoldState } from './holds.js';
import { storeKeyPart } from '../json/canonical.js';
import { KeyedMutex } from './mutex.js';
import { statements, type StatementName } from './postgres-sql.js';
import { tables, type Tables } from './postgres-tables.js';
import { runMigration } from './postgres-migrate.js';
import { isPerItemError } from './postgres-errors.js';
import { LEASE_LOST_SQLSTATE } from './postgres-functions.js';
import { LeaseLostError } from './store-errors.js';
import { probeHealth } from './postgres-health.js';
import { acquireLock, byOrderId, claimOrReplay, claimValues, saveValues, type ClaimItem, type Locking, type SaveItem } from './postgres-lock.js';
import { StatementBatcher, type BatchRunner } from './postgres-batch.js';
import { attemptStart, toRecord } from './postgres-rows.js';
import type {
  AcquireOptions, AttemptOutcome, AttemptStart, Claim, ClaimOptions, CountHoldsOptions, DocumentRef, FulfilmentHold, NewRecord, Store, StoreLock, StoredRecord,
} from './types.js';

/**
 * The client's own limit on a statement comes this much after its bound: PostgreSQL's own time-out
 * answers first when the server is alive; the client's when it does not answer at all.
 */
const CLIENT_SLACK_MS = 100;
/** Rows one purge statement deletes at most, and statements of one kind one purge runs at most. */
export const PURGE_BATCH = 5_000;
const PURGE_MAX_BATCHES = 200;
/** Batches of one kind under way at once, and deliveries in one batch (measured in docs/performance.md). */
const BATCH_IN_FLIGHT = 2;
const BATCH_MAX = 32;
type Statements = ReturnType<typeof statements>;
const stderrLogger: { error(obj: object, msg?: string): void } = {
  error: (obj, msg) => {
    const err = (obj as { err?: Error }).err;
    process.stderr.write(`crossborder-merchant-kit: ${msg ?? 'error'}${err ? `: ${err.message}` : ''}\n`);
  },
};
const PURGE_EVERY_MS = 60 * 60 * 1000;
/** The first purge of a process comes after a random delay of up to this (processes started together do not purge together). */
const FIRST_PURGE_JITTER_MS = 60 * 1000;
/** Raises PostgreSQL's lost-lease error (the save function's CBK01) as LeaseLostError. */
const asStoreError = (err: unknown): unknown => ((err as { code?: unknown } | null)?.code === LEASE_LOST_SQLSTATE ? new LeaseLostError() : err);

/** A batch's bound: its items' shortest (0: none). */
const boundOf = (items: ReadonlyArray<{ x: number }>): number => {
  const bounds = items.map((i) => i.x).filter((x) => x > 0);
  return bounds.length > 0 ? Math.min(...bounds) : 0;
};

export class PostgresStore implements Store {
  readonly ttlMs: number;
  readonly schema?: string;
  private readonly pool: PgPoolLike;
  /** The bounded saves' query maker, over the pool's own pg (postgres-pipeline.ts). */
  private readonly makeBounded: BoundedQueryMaker;
  private readonly autoMigrate: boolean;
  private readonly sql: Statements;
  private readonly prepared: boolean;
  /** Prepared statement names: the statement's name and a digest of its text (schemas differ). */
  private readonly names: Record<StatementName, string>;
  /** The claim and save statements, batched unless `batchStatements: false`. */
  private readonly claimRunner: BatchRunner<ClaimItem, Record<string, any> | undefined> = {
    one: async (item) => (await this.query('claim', claimValues(item), item.x, (rows) => this.releaseLate([item], [rows[0]?.r])))[0]?.r,
    many: async (items) => (await this.query('claimBatch', [JSON.stringify(items)], boundOf(items), (rows) => this.releaseLate(items, rows[0]?.r ?? [])))[0]?.r ?? [],
  };
  private readonly saveRunner: BatchRunner<SaveItem, unknown> = {
    one: async (item) => (await this.bounded('saveAndRelease', saveValues(item), item.x))[0]?.released,
    many: async (items) => (await this.bounded('saveBatch', [JSON.stringify(items)], boundOf(items)))[0]?.r ?? [],
  };
  private readonly locking: Locking = {
    query: (name, values, late) => this.query(name, values, this.statementTimeoutMs, late),
    claim: (item) => this.claimRunner.one(item),
    save: (item) => this.saveRunner.one(item),
    mutex: new KeyedMutex(),
    ttlMs: 0,
    statementTimeoutMs: 0,
    lockTimeoutMs: 0,
    firstAttempts: new Map(),
    afterSave: () => this.purgeNowAndThen(),
  };
  private ready?: Promise<void>;
  private readonly logger: { error(obj: object, msg?: string): void };
  /** When this process purges next (ms since the epoch); Infinity with `purge: false`. */
  private nextPurge: number;
  /** The statement bound and lock time-out, in ms (0: none). */
  readonly statementTimeoutMs: number;
  readonly lockTimeoutMs: number;
  private readonly tables: Tables;

  constructor(options: PostgresStoreOptions) {
    const o = resolvePostgresOptions(options);
    this.statementTimeoutMs = o.statementTimeoutMs;
    this.lockTimeoutMs = o.lockTimeoutMs;
    this.locking.statementTimeoutMs = this.statementTimeoutMs;
    this.locking.lockTimeoutMs = this.lockTimeoutMs;
    this.nextPurge = options.purge === false ? Infinity : Date.now() + Math.random() * FIRST_PURGE_JITTER_MS;
    this.pool = explainingPool(options.pool);
    this.makeBounded = boundedQueryMaker(queryClassOf(options.pool));
    const logger = options.logger ?? stderrLogger;
    this.logger = logger;
    if (typeof options.pool.on === 'function') listenForPoolErrors(options.pool, logger);
    this.schema = options.schema;
    this.ttlMs = o.ttlMs;
    this.locking.ttlMs = this.ttlMs;
    this.autoMigrate = options.autoMigrate ?? true;
    const t = tables(options.schema);
    this.tables = t;
    this.sql = statements(t);
    this.prepared = options.preparedStatements ?? true;
    this.names = Object.fromEntries(Object.entries(this.sql).map(([name, text]) =>
      [name, `cbk_${name}_${createHash('sha256').update(text).digest('hex').slice(0, 12)}`])) as Record<StatementName, string>;
    if (options.batchStatements ?? true) {
      const claim = new StatementBatcher(this.claimRunner, BATCH_IN_FLIGHT, BATCH_MAX, byOrderId, isPerItemError);
      const save = new StatementBatcher(this.saveRunner, BATCH_IN_FLIGHT, BATCH_MAX, byOrderId, isPerItemError);
      this.locking.claim = (item) => claim.push(item);
      this.locking.save = (item) => save.push(item);
    }
  }

  /**
   * Creates or upgrades the tables, and (re)creates this version's functions; idempotent, and safe
   * from several processes at once. Creates only what is missing (each DDL statement under
   * `lockTimeoutMs`, retried; indexes CONCURRENTLY), then verifies every object this version needs
   * and rejects with StoreSchemaError naming what is missing. Run it as a deploy step
   * (`crossborder-merchant-kit migrate`, docs/stores.md); returns the objects it created.
   */
  async migrate(): Promise<{ created: string[] }> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      const result = await runMigration(client, this.tables, { lockTimeoutMs: this.lockTimeoutMs || DEFAULT_LOCK_TIMEOUT_MS, tries: 10 });
      this.ready = Promise.resolve();
      return result;
    } catch (err) {
      // A connection that failed mid-way may hold the session advisory lock: it is not given back to the pool.
      if (!(err as { code?: unknown }).code || /^(08|57P)/.test(String((err as { code?: unknown }).code))) broken = err as Error;
      throw err;
    } finally {
      client.release(broken);
    }
  }

  /**
   * The health check's probe (checkHealth calls it): rejects, with a code naming the failed check,
   * unless the store's real path works: connected, writable (not read-only, not a standby), the
   * privileges its statements need, this version's schema and functions, and no table locked past
   * `lockTimeoutMs`; all within `timeoutMs` (default 2000). See docs/observability.md.
   */
  async ping(options: { timeoutMs?: number } = {}): Promise<void> {
    const timeoutMs = options.timeoutMs ?? 2000;
    const lockTimeoutMs = Math.min(this.lockTimeoutMs || timeoutMs, timeoutMs);
    await withTimeLimit(probeHealth(this.pool, this.tables, { timeoutMs, lockTimeoutMs, purge: this.nextPurge !== Infinity }), timeoutMs);
  }

  private ensure(): Promise<void> {
    if (!this.autoMigrate) return Promise.resolve();
    const ready = this.ready ?? this.migrate().then(() => {}, (err: unknown) => {
      this.ready = undefined;
      throw err;
    });
    this.ready ??= ready;
    return ready;
  }

  /** One of the store's statements as a query: named (prepared) unless `preparedStatements: false`. */
  private statement(name: StatementName, values: unknown[]): PgQuery {
    return this.prepared ? { name: this.names[name], text: this.sql[name], values } : { text: this.sql[name], values };
  }

  /**
   * One statement, bounded by `bound` ms (default the statement time-out; 0: none) on the client's
   * side too: a server that never answers fails the statement at its bound (TimeLimitError, code
   * TIMEOUT). The function statements bound themselves on the server (postgres-functions.ts).
   */
  private async query(name: StatementName, values: unknown[], bound: number = this.statementTimeoutMs, late?: (rows: Record<string, any>[]) => void): Promise<Record<string, any>[]> {
    await this.ensure();
    const sent = this.pool.query(this.statement(name, values));
    try {
      return (bound > 0 ? await withTimeLimit(sent, bound + CLIENT_SLACK_MS) : await sent).rows;
    } catch (err) {
      // Given up on (the client's limit) but maybe still to run, e.g. after waiting for a pool connection:
      // what it does then is undone (a claim's lock released), or the OrderId would stay locked for a lease.
      if (late && err instanceof TimeLimitError) sent.then((res) => late(res.rows), () => {});
      throw asStoreError(err);
    }
  }

  /**
   * One statement in a transaction of its own whose `statement_timeout` is `bound` ms and whose
   * `lock_timeout` the store's (local to that transaction), in one round trip: the saves, bounded
   * by what is left of their lease, so a save that stalls (a slow trigger, I/O) is cancelled and
   * rolled back by PostgreSQL before anyone may take its lease over. The values go only as bound
   * parameters (postgres-pipeline.ts: the settings and the save pipelined before one Sync); the
   * text is named by a leading comment.
   */
  private async bounded(name: StatementName, values: unknown[], bound: number): Promise<Record<string, any>[]> {
    await this.ensure();
    const ms = Math.max(1, Math.floor(bound));
    const query = this.makeBounded(`/* ${this.names[name]} */ ${this.sql[name]}`, values, ms, this.lockTimeoutMs > 0 ? Math.max(1, Math.floor(this.lockTimeoutMs)) : 0);
    try {
      const results = await withTimeLimit(this.pool.query(query) as Promise<unknown>, ms + CLIENT_SLACK_MS);
      const last = (Array.isArray(results) ? results[results.length - 1] : results) as { rows: Record<string, any>[] };
      return last.rows;
    } catch (err) {
      throw asStoreError(err);
    }
  }

  /** Releases the locks that claims given up on took when they ran after all (`results`: the claim function's, per item). */
  private releaseLate(items: readonly ClaimItem[], results: ReadonlyArray<Record<string, any> | undefined>): void {
    items.forEach((item, i) => {
      if (!results[i]?.claimed) return;
      this.query('release', [item.o, item.w]).catch((err: unknown) => {
        try {
          this.logger.error({ err: { type: (err as Error)?.name, message: (err as Error)?.message, code: (err as { code?: unknown })?.code } },
            'PostgresStore could not release the lock of a claim that ran after it was given up; it is free again when its lease ends');
        } catch { /* a failing logger must not turn this into an unhandled rejection */ }
      });
    });
  }

  acquire(orderId: string, options: AcquireOptions): Promise<StoreLock | null> {
    return acquireLock(this.locking, orderId, options);
  }

  /**
   * The delivery's stored answer (then no lock is taken) or its OrderId's lock, in one statement;
   * see postgres-lock.ts.
   */
  claimOrReplay(orderId: string, options: ClaimOptions): Promise<Claim | null> {
    return claimOrReplay(this.locking, orderId, options);
  }

  async getRecord(key: string): Promise<StoredRecord | null> {
    const rows = await this.query('getRecord', [key]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async getPayment(orderId: string): Promise<StoredRecord | null> {
    const rows = await this.query('getPayment', [orderId]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async getLatestRecord(orderId: string, callback: string): Promise<StoredRecord | null> {
    const rows = await this.query('getLatest', [orderId, callback]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async saveRecord(record: NewRecord): Promise<void> {
    await this.query('saveRecord', [
      record.key, record.callback, record.orderId, record.hash, JSON.stringify(record.response), record.payment, this.ttlMs,
    ]);
    this.purgeNowAndThen();
  }

  private purgeNowAndThen(): void {
    if (Date.now() < this.nextPurge) return;
    this.nextPurge = Date.now() + PURGE_EVERY_MS;
    // Expired rows are filtered on read and the next purge retries, but a failing purge is never silent.
    this.purgeElected().catch((err: unknown) => {
      try {
        this.logger.error({ err: { type: (err as Error)?.name, message: (err as Error)?.message, code: (err as { code?: unknown })?.code } },
          'PostgresStore failed to purge expired rows; expired rows are ignored on read and the next purge retries');
      } catch { /* a failing logger must not turn a purge failure into an unhandled rejection */ }
    });
  }

  /**
   * The background purge: only the process holding the purge's advisory lock purges (the others
   * skip this round); resolves whether this process purged.
   */
  async purgeElected(): Promise<boolean> {
    await this.ensure();
    const client = await this.pool.connect();
    const key = `crossborder-merchant-kit:purge:${this.schema ?? ''}`;
    let broken: Error | undefined;
    try {
      const elected = (await client.query(this.statement('purgeElect', [key]))).rows[0]?.elected === true;
      if (!elected) return false;
      try {
        await this.purgeExpired();
      } finally {
        await client.query(this.statement('purgeResign', [key])).catch((err: Error) => { broken = err; });
      }
      return true;
    } finally {
      client.release(broken);
    }
  }

  async beginAttempt(key: string, orderId: string): Promise<AttemptStart> {
    return attemptStart((await this.query('beginAttempt', [key, orderId, this.ttlMs]))[0]);
  }

  async endAttempt(key: string, outcome: AttemptOutcome | null): Promise<void> {
    const orderId = this.locking.firstAttempts.get(key);
    if (orderId !== undefined) await this.query('endFirstAttempt', [key, outcome ?? 'done', orderId, this.ttlMs]);
    else await this.query('endAttempt', [key, outcome ?? 'done']);
  }

  /**
   * Deletes expired replies and merchant order ids, inactive hold rows past the ttl and lock rows
   * released or expired over an hour ago, in batches of at most PURGE_BATCH rows (each its own short
   * statement); resolves the number of rows deleted. Also run by the store itself unless `purge: false`.
   */
  async purgeExpired(): Promise<number> {
    let deleted = 0;
    for (const name of ['purgeRecords', 'purgeHolds', 'purgeLocks', 'purgeOrderIds', 'purgeAttempts'] as const) {
      for (let i = 0; i < PURGE_MAX_BATCHES; i++) {
        await this.ensure();
        const sent = this.pool.query(this.statement(name, [PURGE_BATCH]));
        const n = (this.statementTimeoutMs > 0 ? await withTimeLimit(sent, this.statementTimeoutMs + CLIENT_SLACK_MS) : await sent).rowCount ?? 0;
        deleted += n;
        if (n < PURGE_BATCH) break;
      }
    }
    return deleted;
  }

  private async changeHold(orderId: string, change: (state: HoldState) => HoldState): Promise<FulfilmentHold | null> {
    await this.ensure();
    const client = await this.pool.connect();
    try {
      await client.query(this.beginBounded());
      await client.query(this.statement('ensureHold', [orderId, this.ttlMs]));
      const row = (await client.query(this.statement('lockHold', [orderId]))).rows[0];
      const current: HoldState = !row || row.stale ? emptyHoldState()
        : { awaiting: row.awaiting ?? null, received: row.received ?? [], since: row.since ? new Date(row.since) : null };
      const next = change(current);
      await client.query(this.statement('writeHold', [
        orderId, next.awaiting ? JSON.stringify(next.awaiting) : null, JSON.stringify(next.received), next.since, this.ttlMs,
      ]));
      await client.query('COMMIT');
      return holdOf(orderId, next);
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  /** BEGIN, with the time-outs set for the transaction (one round trip); `statementMs` the statement time-out's. */
  private beginBounded(statementMs = this.statementTimeoutMs): string {
    const set = (name: string, ms: number) => (ms > 0 ? `; SET LOCAL ${name} = '${Math.max(1, Math.floor(ms))}ms'` : '');
    return `BEGIN${set('statement_timeout', statementMs)}${set('lock_timeout', this.lockTimeoutMs)}`;
  }

  placeFulfilmentHold(orderId: string, required: readonly DocumentRef[]): Promise<FulfilmentHold | null> {
    return this.changeHold(orderId, (state) => applyPlace(state, required, new Date()));
  }

  recordDocuments(orderId: string, received: readonly DocumentRef[]): Promise<FulfilmentHold | null> {
    return this.changeHold(orderId, (state) => applyDocuments(state, received));
  }

  async getFulfilmentHold(orderId: string): Promise<FulfilmentHold | null> {
    const row = (await this.query('getHold', [orderId]))[0];
    return row ? holdOf(orderId, { awaiting: row.awaiting, received: [], since: new Date(row.since) }) : null;
  }

  async releaseFulfilmentHold(orderId: string): Promise<void> {
    await this.query('releaseHold', [orderId, this.ttlMs]);
  }

  /** One COUNT over the hold rows still awaiting documents (among the OrderIds starting with `prefix`). */
  async countActiveHolds(options: CountHoldsOptions = {}): Promise<number> {
    return (await this.query('countHolds', [options.prefix ?? '']))[0].active;
  }

  async saveMerchantOrderIds(orderId: string, merchantOrderIds: readonly string[]): Promise<void> {
    if (merchantOrderIds.length === 0) return;
    await this.query('saveOrderIds', [orderId, merchantOrderIds.map(storeKeyPart), this.ttlMs]);
  }

  async findOrderId(merchantOrderId: string): Promise<string | null> {
    const rows = await this.query('findOrderId', [storeKeyPart(merchantOrderId)]);
    return rows[0]?.order_id ?? null;
  }
}
