/** PostgresStore's options: their types, and their check at construction (did-you-mean on unknown keys). */
import { checkKeys, fail, parseDuration } from '../shared/options.js';
import { DEFAULT_TTL_MS } from './types.js';

/** A query as text, or as pg's query config (a `name` makes it a prepared statement, parsed once per connection). */
export type PgQuery = string | { name?: string; text: string; values?: unknown[] };

/** The part of a `pg` Pool the store uses. */
export interface PgPoolLike {
  /** Runs one query on any connection of the pool. */
  query(query: PgQuery, values?: unknown[]): Promise<{ rows: any[]; rowCount: number | null }>;
  /** Checks out a connection (for a transaction); the store releases it. */
  connect(): Promise<PgClientLike>;
  /** The store listens for the pool's 'error' events (an idle client lost), which would otherwise crash the process. */
  on?(event: 'error', listener: (err: Error) => void): unknown;
}
/** The part of a `pg` PoolClient the store uses (a connection checked out of the pool). */
export interface PgClientLike {
  /** Runs one query on this connection. */
  query(query: PgQuery, values?: unknown[]): Promise<{ rows: any[]; rowCount: number | null }>;
  /** Returns the connection to the pool (an error destroys it instead). */
  release(err?: Error | boolean): void;
}

/**
 * Options of `PostgresStore`: your `pg` Pool, the schema, how long replies are kept, and the time-outs
 * of its statements and locks. Checked when the store is built (KitError `ERR_CBK_OPTION_*`). See
 * docs/stores.md#postgresstore.
 */
export interface PostgresStoreOptions {
  /** A `pg` Pool (new Pool({ connectionString })). The store never ends it. */
  pool: PgPoolLike;
  /** Schema of the kit's tables (created if missing); default: the connection's search_path. */
  schema?: string;
  /** How long a stored reply is kept: milliseconds or '30d' / '12h'; default 30 days. */
  ttl?: number | string;
  /**
   * Run `migrate()` on first use; default true: for development. In production set false and run the
   * migration as a deploy step (`crossborder-merchant-kit migrate`, docs/stores.md).
   */
  autoMigrate?: boolean;
  /**
   * Where the pool's 'error' events and failed background purges are logged (pino-style: `error(obj, msg)`); default: one line on
   * stderr. The store always listens for them: without a listener an idle client's error (PostgreSQL
   * restarting) would kill the process.
   */
  logger?: {
    /** Writes one error line (pino-style): the object first, then the message. */
    error(obj: object, msg?: string): void;
  };
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
  /**
   * The longest any statement of the store may take: milliseconds or '5s'; default 5000; 0 for none.
   * Past it the statement fails (the delivery is answered 503 STORE_UNAVAILABLE, and retried by the
   * service). A save is also bounded by what is left of its lease. See docs/stores.md (Time-outs).
   */
  statementTimeoutMs?: number | string;
  /**
   * The longest a statement may wait for a table or row lock (PostgreSQL `lock_timeout`, set for
   * the statement's transaction only): milliseconds or '1s'; default 1000; 0 for none. Also each
   * DDL statement of `migrate()` (retried after a pause).
   */
  lockTimeoutMs?: number | string;
  /**
   * Purge expired rows from this process: soon after start (a random delay of up to a minute), then
   * hourly; one process at a time (an advisory lock elects it), in bounded batches. Default true. Set
   * false when a job (pg_cron, a cron task calling `purgeExpired()`) purges instead. See docs/stores.md.
   */
  purge?: boolean;
}

const KEYS = ['pool', 'schema', 'ttl', 'autoMigrate', 'logger', 'preparedStatements', 'batchStatements', 'statementTimeoutMs', 'lockTimeoutMs', 'purge'];

/** Defaults of the time-outs, in ms. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;
export const DEFAULT_LOCK_TIMEOUT_MS = 1_000;

/** Checks `options` (KitError with a stable code on the first mistake); the durations in ms. */
export function resolvePostgresOptions(options: PostgresStoreOptions): { ttlMs: number; statementTimeoutMs: number; lockTimeoutMs: number } {
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
  if (options.purge !== undefined && typeof options.purge !== 'boolean') {
    fail('ERR_CBK_OPTION_INVALID', 'Option PostgresStore.purge must be a boolean');
  }
  if (options.logger !== undefined && (typeof options.logger !== 'object' || options.logger === null || typeof options.logger.error !== 'function')) {
    fail('ERR_CBK_OPTION_INVALID', 'Option PostgresStore.logger must be a logger with an error(obj, msg) method');
  }
  return {
    ttlMs: parseDuration(options.ttl, 'PostgresStore.ttl', DEFAULT_TTL_MS),
    statementTimeoutMs: parseDuration(options.statementTimeoutMs, 'PostgresStore.statementTimeoutMs', DEFAULT_STATEMENT_TIMEOUT_MS, { allowZero: true }),
    lockTimeoutMs: parseDuration(options.lockTimeoutMs, 'PostgresStore.lockTimeoutMs', DEFAULT_LOCK_TIMEOUT_MS, { allowZero: true }),
  };
}
