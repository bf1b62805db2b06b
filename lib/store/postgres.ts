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
 * Tables are created by `migrate()` (idempotent, safe to run from several processes at once), and
 * lazily on first use unless `autoMigrate: false`.
 */
import { explainingPool } from './pg-errors.js';
import { listenForPoolErrors } from './pool-errors.js';
import { createHash } from 'node:crypto';
import { checkKeys, fail, parseDuration } from '../shared/options.js';
import { withTimeLimit } from '../shared/time-limit.js';
import { DEFAULT_TTL_MS } from './types.js';
import { applyDocuments, applyPlace, emptyHoldState, holdOf, type HoldState } from './holds.js';
import { storeKeyPart } from './canonical.js';
import { KeyedMutex } from './mutex.js';
import { ddl, SCHEMA_VERSION, statements, type StatementName } from './postgres-sql.js';
import { tables } from './postgres-tables.js';
import { acquireLock, byOrderId, claimOrReplay, claimValues, saveValues, type ClaimItem, type Locking, type SaveItem } from './postgres-lock.js';
import { StatementBatcher, type BatchRunner } from './postgres-batch.js';
import { attemptStart, toRecord } from './postgres-rows.js';
import type {
  AcquireOptions, AttemptOutcome, AttemptStart, Claim, ClaimOptions, CountHoldsOptions, DocumentRef, FulfilmentHold, NewRecord, Store, StoreLock, StoredRecord,
} from './types.js';

/** The part of a `pg` Pool the store uses. */
/** A query as text, or as pg's query config (a `name` makes it a prepared statement, parsed once per connection). */
export type PgQuery = string | { name?: string; text: string; values?: unknown[] };

export interface PgPoolLike {
  query(query: PgQuery, values?: unknown[]): Promise<{ rows: any[]; rowCount: number | null }>;
  connect(): Promise<PgClientLike>;
  /** The store listens for the pool's 'error' events (an idle client lost), which would otherwise crash the process. */
  on?(event: 'error', listener: (err: Error) => void): unknown;
}
export interface PgClientLike {
  query(query: PgQuery, values?: unknown[]): Promise<{ rows: any[]; rowCount: number | null }>;
  release(err?: Error | boolean): void;
}

export interface PostgresStoreOptions {
  /** A `pg` Pool (new Pool({ connectionString })). The store never ends it. */
  pool: PgPoolLike;
  /** Schema of the kit's tables (created if missing); default: the connection's search_path. */
  schema?: string;
  /** How long a stored reply is kept: milliseconds or '30d' / '12h'; default 30 days. */
  ttl?: number | string;
  /** Create the tables on first use; default true. Set false if the app's database user may not run DDL. */
  autoMigrate?: boolean;
  /**
   * Where the pool's 'error' events and failed background purges are logged (pino-style: `error(obj, msg)`); default: one line on
   * stderr. The store always listens for them: without a listener an idle client's error (PostgreSQL
   * restarting) would kill the process.
   */
  logger?: { error(obj: object, msg?: string): void };
  /**
   * Run the store's statements as named prepared statements (parsed and planned once per
   * connection; pg's `{ name, text, values }` query config); default true. Set false for a pool
   * that does not take query configs, or behind a pooler in transaction mode without prepared
   * statement support.
   */
  preparedStatements?: boolean;
  /**
   * Send the claims (and the saves) of concurrent deliveries together: one statement for those that
   * come within one event-loop turn or while two batches are on their way; default true. A delivery
   * alone is sent as its own statement, as without batching. Set false for one statement per claim
   * and per save. See docs/stores.md (Batching).
   */
  batchStatements?: boolean;
}

const KEYS = ['pool', 'schema', 'ttl', 'autoMigrate', 'logger', 'preparedStatements', 'batchStatements'];
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

export class PostgresStore implements Store {
  readonly ttlMs: number;
  readonly schema?: string;
  private readonly pool: PgPoolLike;
  private readonly autoMigrate: boolean;
  private readonly sql: Statements;
  private readonly prepared: boolean;
  /** Prepared statement names: the statement's name and a digest of its text (schemas differ). */
  private readonly names: Record<StatementName, string>;
  private readonly ddl: string[];
  /** The claim and save statements, batched unless `batchStatements: false`. */
  private readonly claimRunner: BatchRunner<ClaimItem, Record<string, any> | undefined> = {
    one: async (item) => (await this.query('claim', claimValues(item)))[0]?.r,
    many: async (items) => (await this.query('claimBatch', [JSON.stringify(items)]))[0]?.r ?? [],
  };
  private readonly saveRunner: BatchRunner<SaveItem, unknown> = {
    one: async (item) => (await this.query('saveAndRelease', saveValues(item)))[0]?.released,
    many: async (items) => (await this.query('saveBatch', [JSON.stringify(items)]))[0]?.r ?? [],
  };
  private readonly locking: Locking = {
    query: (name, values) => this.query(name, values),
    claim: (item) => this.claimRunner.one(item),
    save: (item) => this.saveRunner.one(item),
    mutex: new KeyedMutex(),
    ttlMs: 0,
    firstAttempts: new Map(),
    afterSave: () => this.purgeNowAndThen(),
  };
  private ready?: Promise<void>;
  private readonly logger: { error(obj: object, msg?: string): void };
  private lastPurge = Date.now();

  constructor(options: PostgresStoreOptions) {
    if (typeof options !== 'object' || options === null) fail('ERR_CBK_OPTION_REQUIRED', 'PostgresStore needs options: { pool }');
    checkKeys('PostgresStore.', options as unknown as Record<string, unknown>, KEYS);
    const pool = options.pool as unknown as Record<string, unknown> | undefined;
    if (!pool || typeof pool.query !== 'function' || typeof pool.connect !== 'function') {
      fail('ERR_CBK_OPTION_REQUIRED', 'Option PostgresStore.pool is required: a pg Pool (new Pool({ connectionString }))');
    }
    if (options.schema !== undefined && (typeof options.schema !== 'string' || !/^[a-z_][a-z0-9_]{0,62}$/.test(options.schema))) {
      fail('ERR_CBK_OPTION_INVALID', 'Option PostgresStore.schema must be a lower-case SQL identifier (letters, digits, _; at most 63)');
    }
    if (options.autoMigrate !== undefined && typeof options.autoMigrate !== 'boolean') {
      fail('ERR_CBK_OPTION_INVALID', 'Option PostgresStore.autoMigrate must be a boolean');
    }
    if (options.preparedStatements !== undefined && typeof options.preparedStatements !== 'boolean') {
      fail('ERR_CBK_OPTION_INVALID', 'Option PostgresStore.preparedStatements must be a boolean');
    }
    if (options.batchStatements !== undefined && typeof options.batchStatements !== 'boolean') {
      fail('ERR_CBK_OPTION_INVALID', 'Option PostgresStore.batchStatements must be a boolean');
    }
    if (options.logger !== undefined && (typeof options.logger !== 'object' || options.logger === null || typeof options.logger.error !== 'function')) {
      fail('ERR_CBK_OPTION_INVALID', 'Option PostgresStore.logger must be a logger with an error(obj, msg) method');
    }
    this.pool = explainingPool(options.pool);
    const logger = options.logger ?? stderrLogger;
    this.logger = logger;
    if (typeof options.pool.on === 'function') listenForPoolErrors(options.pool, logger);
    this.schema = options.schema;
    this.ttlMs = parseDuration(options.ttl, 'PostgresStore.ttl', DEFAULT_TTL_MS);
    this.locking.ttlMs = this.ttlMs;
    this.autoMigrate = options.autoMigrate ?? true;
    const t = tables(options.schema);
    this.sql = statements(t);
    this.prepared = options.preparedStatements ?? true;
    this.names = Object.fromEntries(Object.entries(this.sql).map(([name, text]) =>
      [name, `cbk_${name}_${createHash('sha256').update(text).digest('hex').slice(0, 12)}`])) as Record<StatementName, string>;
    this.ddl = ddl(t);
    if (options.batchStatements ?? true) {
      const claim = new StatementBatcher(this.claimRunner, BATCH_IN_FLIGHT, BATCH_MAX, byOrderId);
      const save = new StatementBatcher(this.saveRunner, BATCH_IN_FLIGHT, BATCH_MAX, byOrderId);
      this.locking.claim = (item) => claim.push(item);
      this.locking.save = (item) => save.push(item);
    }
  }

  /** Creates or upgrades the tables; idempotent, and safe from several processes at once. */
  async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(this.sql.migrateLock, [`crossborder-merchant-kit:migrate:${this.schema ?? ''}`]);
      const meta = this.schema ? `"${this.schema}".cbk_meta` : 'cbk_meta';
      const present = (await client.query(this.sql.metaExists, [meta])).rows[0]?.present;
      const version = present ? (await client.query(this.sql.version)).rows[0]?.version ?? 0 : 0;
      if (version < SCHEMA_VERSION) for (const statement of this.ddl) await client.query(statement);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
    this.ready = Promise.resolve();
  }

  /** One round trip (`SELECT 1`, no migration); rejects when it fails or takes longer than `timeoutMs` (default 2000). */
  async ping(options: { timeoutMs?: number } = {}): Promise<void> {
    await withTimeLimit(this.pool.query('SELECT 1'), options.timeoutMs ?? 2000);
  }

  private ensure(): Promise<void> {
    if (!this.autoMigrate) return Promise.resolve();
    this.ready ??= this.migrate().catch((err) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  /** One of the store's statements as a query: named (prepared) unless `preparedStatements: false`. */
  private statement(name: StatementName, values: unknown[]): PgQuery {
    return this.prepared ? { name: this.names[name], text: this.sql[name], values } : { text: this.sql[name], values };
  }

  private async query(name: StatementName, values: unknown[]): Promise<Record<string, any>[]> {
    await this.ensure();
    return (await this.pool.query(this.statement(name, values))).rows;
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
    if (Date.now() - this.lastPurge > PURGE_EVERY_MS) {
      this.lastPurge = Date.now();
      // Expired rows are filtered on read and the next purge retries, but a failing purge is never silent.
      this.purgeExpired().catch((err: unknown) => {
        try {
          this.logger.error({ err: { type: (err as Error)?.name, message: (err as Error)?.message, code: (err as { code?: unknown })?.code } },
            'PostgresStore failed to purge expired rows; expired rows are ignored on read and the next purge retries');
        } catch { /* a failing logger must not turn a purge failure into an unhandled rejection */ }
      });
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

  /** Deletes expired replies and merchant order ids, inactive hold rows past the ttl and long-expired locks (also run hourly by itself). */
  async purgeExpired(): Promise<void> {
    await this.query('purgeRecords', []);
    await this.query('purgeHolds', []);
    await this.query('purgeLocks', []);
    await this.query('purgeOrderIds', []);
    await this.query('purgeAttempts', []);
  }

  private async changeHold(orderId: string, change: (state: HoldState) => HoldState): Promise<FulfilmentHold | null> {
    await this.ensure();
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
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
