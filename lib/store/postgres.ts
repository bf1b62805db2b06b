/**
 * PostgresStore: correct across any number of processes sharing one database.
 * - Per-OrderId lock: a lease row claimed with one `INSERT ... ON CONFLICT DO UPDATE ... WHERE
 *   expired` (atomic; no read-then-write), polled with back-off while someone else holds it. No
 *   connection is held while the adapter runs, so waiting deliveries cannot exhaust the pool.
 *   Within one process, waiters queue on an in-memory chain first, so only one of them polls.
 * - Replies: primary key on the idempotency key, `INSERT ... ON CONFLICT` (first write wins).
 * - Holds: one row per order, changed in a transaction under `SELECT ... FOR UPDATE`.
 * Tables are created by `migrate()` (idempotent, safe to run from several processes at once), and
 * lazily on first use unless `autoMigrate: false`.
 */
import { randomUUID } from 'node:crypto';
import { checkKeys, fail, parseDuration } from '../shared/options.js';
import { DEFAULT_TTL_MS } from './types.js';
import { applyDocuments, applyPlace, emptyHoldState, holdOf, type HoldState } from './holds.js';
import { storeKeyPart } from './canonical.js';
import { KeyedMutex } from './mutex.js';
import { ddl, SCHEMA_VERSION, statements, tables } from './postgres-sql.js';
import type {
  AcquireOptions, AttemptOutcome, AttemptStart, DocumentRef, FulfilmentHold, NewRecord, Store, StoreLock, StoredRecord,
} from './types.js';

/** The part of a `pg` Pool the store uses. */
export interface PgPoolLike {
  query(text: string, values?: unknown[]): Promise<{ rows: any[]; rowCount: number | null }>;
  connect(): Promise<PgClientLike>;
  /** The store listens for the pool's 'error' events (an idle client lost), which would otherwise crash the process. */
  on?(event: 'error', listener: (err: Error) => void): unknown;
}
export interface PgClientLike {
  query(text: string, values?: unknown[]): Promise<{ rows: any[]; rowCount: number | null }>;
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
   * Where the pool's 'error' events are logged (pino-style: `error(obj, msg)`); default: one line on
   * stderr. The store always listens for them: without a listener an idle client's error (PostgreSQL
   * restarting) would kill the process.
   */
  logger?: { error(obj: object, msg?: string): void };
}

const KEYS = ['pool', 'schema', 'ttl', 'autoMigrate', 'logger'];
const stderrLogger: { error(obj: object, msg?: string): void } = {
  error: (obj, msg) => {
    const err = (obj as { err?: Error }).err;
    process.stderr.write(`crossborder-merchant-kit: ${msg ?? 'error'}${err ? `: ${err.message}` : ''}\n`);
  },
};
const PURGE_EVERY_MS = 60 * 60 * 1000;
const sleep = (ms: number) => new Promise<void>((r) => { setTimeout(r, ms); });

function toRecord(row: Record<string, any>): StoredRecord {
  return {
    key: row.key, callback: row.callback, orderId: row.order_id, hash: row.hash, response: row.response,
    payment: row.payment, createdAt: new Date(row.created_at), expiresAt: new Date(row.expires_at),
  };
}

export class PostgresStore implements Store {
  readonly ttlMs: number;
  readonly schema?: string;
  private readonly pool: PgPoolLike;
  private readonly autoMigrate: boolean;
  private readonly sql: ReturnType<typeof statements>;
  private readonly ddl: string[];
  private readonly mutex = new KeyedMutex();
  private ready?: Promise<void>;
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
    if (options.logger !== undefined && (typeof options.logger !== 'object' || options.logger === null || typeof options.logger.error !== 'function')) {
      fail('ERR_CBK_OPTION_INVALID', 'Option PostgresStore.logger must be a logger with an error(obj, msg) method');
    }
    this.pool = options.pool;
    const logger = options.logger ?? stderrLogger;
    if (typeof options.pool.on === 'function') {
      options.pool.on('error', (err: Error) => {
        try {
          logger.error({ err: { type: err?.name, message: err?.message, code: (err as { code?: unknown })?.code } },
            'PostgreSQL pool error (an idle connection was lost); the pool reconnects on next use');
        } catch { /* a failing logger must not turn a pool error into a crash */ }
      });
    }
    this.schema = options.schema;
    this.ttlMs = parseDuration(options.ttl, 'PostgresStore.ttl', DEFAULT_TTL_MS);
    this.autoMigrate = options.autoMigrate ?? true;
    const t = tables(options.schema);
    this.sql = statements(t);
    this.ddl = ddl(t);
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

  private ensure(): Promise<void> {
    if (!this.autoMigrate) return Promise.resolve();
    this.ready ??= this.migrate().catch((err) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  private async query(text: string, values: unknown[]): Promise<Record<string, any>[]> {
    await this.ensure();
    return (await this.pool.query(text, values)).rows;
  }

  async acquire(orderId: string, options: AcquireOptions): Promise<StoreLock | null> {
    const deadline = Date.now() + options.waitMs;
    const local = await this.mutex.acquire(orderId, options.waitMs, options.leaseMs);
    if (!local) return null;
    const owner = randomUUID();
    let delay = 5;
    try {
      for (;;) {
        const rows = await this.query(this.sql.acquire, [orderId, owner, options.leaseMs]);
        if (rows.length > 0) {
          let done = false;
          return {
            recovered: !rows[0].inserted || local.recovered,
            release: async () => {
              if (done) return;
              done = true;
              try {
                await this.pool.query(this.sql.release, [orderId, owner]);
              } finally {
                local.release();
              }
            },
          };
        }
        const left = deadline - Date.now();
        if (left <= 0) {
          local.release();
          return null;
        }
        await sleep(Math.min(left, delay + Math.random() * delay));
        delay = Math.min(delay * 2, 50);
      }
    } catch (err) {
      local.release();
      throw err;
    }
  }

  async getRecord(key: string): Promise<StoredRecord | null> {
    const rows = await this.query(this.sql.getRecord, [key]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async getPayment(orderId: string): Promise<StoredRecord | null> {
    const rows = await this.query(this.sql.getPayment, [orderId]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async getLatestRecord(orderId: string, callback: string): Promise<StoredRecord | null> {
    const rows = await this.query(this.sql.getLatest, [orderId, callback]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async saveRecord(record: NewRecord): Promise<void> {
    await this.query(this.sql.saveRecord, [
      record.key, record.callback, record.orderId, record.hash, JSON.stringify(record.response), record.payment, this.ttlMs,
    ]);
    if (Date.now() - this.lastPurge > PURGE_EVERY_MS) {
      this.lastPurge = Date.now();
      this.purgeExpired().catch(() => { /* expired rows are filtered on read; the next purge retries */ });
    }
  }

  async beginAttempt(key: string, orderId: string): Promise<AttemptStart> {
    const row = (await this.query(this.sql.beginAttempt, [key, orderId, this.ttlMs]))[0];
    const start: AttemptStart = { attempt: Number(row.attempts) };
    if (row.prev_state !== null && row.prev_state !== undefined && row.prev_state !== 'done') {
      start.previousAttempt = {
        startedAt: new Date(row.prev_started_at),
        outcome: row.prev_state === 'running' ? 'crashed' : row.prev_state as AttemptOutcome,
      };
    }
    return start;
  }

  async endAttempt(key: string, outcome: AttemptOutcome | null): Promise<void> {
    await this.query(this.sql.endAttempt, [key, outcome ?? 'done']);
  }

  /** Deletes expired replies and merchant order ids, inactive hold rows past the ttl and long-expired locks (also run hourly by itself). */
  async purgeExpired(): Promise<void> {
    await this.query(this.sql.purgeRecords, []);
    await this.query(this.sql.purgeHolds, []);
    await this.query(this.sql.purgeLocks, []);
    await this.query(this.sql.purgeOrderIds, []);
    await this.query(this.sql.purgeAttempts, []);
  }

  private async changeHold(orderId: string, change: (state: HoldState) => HoldState): Promise<FulfilmentHold | null> {
    await this.ensure();
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(this.sql.ensureHold, [orderId, this.ttlMs]);
      const row = (await client.query(this.sql.lockHold, [orderId])).rows[0];
      const current: HoldState = !row || row.stale ? emptyHoldState()
        : { awaiting: row.awaiting ?? null, received: row.received ?? [], since: row.since ? new Date(row.since) : null };
      const next = change(current);
      await client.query(this.sql.writeHold, [
        orderId, next.awaiting ? JSON.stringify(next.awaiting) : null, JSON.stringify(next.received), next.since, this.ttlMs,
      ]);
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
    const row = (await this.query(this.sql.getHold, [orderId]))[0];
    return row ? holdOf(orderId, { awaiting: row.awaiting, received: [], since: new Date(row.since) }) : null;
  }

  async releaseFulfilmentHold(orderId: string): Promise<void> {
    await this.query(this.sql.releaseHold, [orderId, this.ttlMs]);
  }

  async saveMerchantOrderIds(orderId: string, merchantOrderIds: readonly string[]): Promise<void> {
    if (merchantOrderIds.length === 0) return;
    await this.query(this.sql.saveOrderIds, [orderId, merchantOrderIds.map(storeKeyPart), this.ttlMs]);
  }

  async findOrderId(merchantOrderId: string): Promise<string | null> {
    const rows = await this.query(this.sql.findOrderId, [storeKeyPart(merchantOrderId)]);
    return rows[0]?.order_id ?? null;
  }
}
