/**
 * PostgresStore's schema and its migration (`migrate()`): a deploy step, safe from several processes
 * at once (a session advisory lock), that never strands a fleet:
 * - every object is looked up in the catalog first, and only what is missing is created (no
 *   `ALTER TABLE` for a column that exists: a no-op that would still queue behind every reader);
 * - each DDL statement runs under `lock_timeout`, retried with a pause, so it never holds a queue of
 *   deliveries behind it; indexes are built `CONCURRENTLY` (a failed build's invalid index is
 *   rebuilt);
 * - this version's functions are always (re)created, whatever version number the database claims;
 * - afterwards every object this version needs is verified (tables, columns, valid indexes,
 *   functions by signature), and a missing one fails loudly, by name;
 * - what ran is recorded in `cbk_migrations`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { FUNCTIONS, functionsDdl } from './postgres-functions.js';
import type { Tables } from './postgres-tables.js';
import { StoreSchemaError } from './store-errors.js';

/** The schema version of this kit (9: the fenced save and the bounded functions of postgres-functions.ts). */
export const SCHEMA_VERSION = 9;

/** One object of the schema: how to tell it is there (a boolean SQL expression) and the DDL that creates it. */
export interface SchemaObject {
  name: string;
  present: string;
  create: string[];
  /** A column's or an index's table (a column of a table created by the same run came with it). */
  table?: string;
  /** An index's DDL when its table was created by the same run (nothing reads it yet: no CONCURRENTLY). */
  createFresh?: string[];
}

/** An object's name as a string constant: only the kit's own names (a checked schema, fixed table names), never a value. */
export const nameLiteral = (name: string): string => {
  if (!/^[\w".(), [\]]+$/.test(name)) throw new TypeError(`not an object name: ${name}`);
  return `'${name}'`;
};
const lit = nameLiteral;

/** The objects of version 9, in creation order. */
export function schemaObjects(t: Tables): SchemaObject[] {
  const s = t.schema;
  const q = (name: string) => (s ? `"${s}".${name}` : name);
  const column = (tbl: string, col: string, type: string): SchemaObject => ({
    name: `${tbl}.${col}`,
    table: tbl,
    present: `EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass(${lit(tbl)}) AND attname = ${lit(col)} AND NOT attisdropped)`,
    create: [`ALTER TABLE ${tbl} ADD COLUMN IF NOT EXISTS ${col} ${type}`],
  });
  const index = (name: string, on: string): SchemaObject => ({
    name: q(name),
    present: `EXISTS (SELECT 1 FROM pg_index WHERE indexrelid = to_regclass(${lit(q(name))}) AND indisvalid)`,
    // An invalid index (a CONCURRENTLY build that failed) is dropped and built again.
    create: [`DROP INDEX CONCURRENTLY IF EXISTS ${q(name)}`, `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name} ON ${on}`],
    table: on.slice(0, on.indexOf(' (')),
    createFresh: [`CREATE INDEX IF NOT EXISTS ${name} ON ${on}`],
  });
  /** A table and every column of it (each verified, and added when missing); `keys`: its key columns, created with it. */
  const table = (name: string, keys: string, columns: Array<[string, string]>): SchemaObject[] => [
    { name, present: `to_regclass(${lit(name)}) IS NOT NULL`, create: [`CREATE TABLE IF NOT EXISTS ${name} (${[keys, ...columns.map((c) => c.join(' '))].join(', ')})`] },
    ...columns.map(([col, type]) => column(name, col, type)),
  ];
  return [
    ...(s ? [{ name: `schema ${s}`, present: `to_regnamespace(${lit(`"${s}"`)}) IS NOT NULL`, create: [`CREATE SCHEMA IF NOT EXISTS "${s}"`] }] : []),
    ...table(t.meta, 'id int PRIMARY KEY CHECK (id = 1)', [['version', 'int NOT NULL']]),
    ...table(t.migrations, 'id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY', [
      ['version', 'int NOT NULL'], ['applied_at', 'timestamptz NOT NULL DEFAULT now()'], ['created', 'text[] NOT NULL']]),
    ...table(t.records, 'key text PRIMARY KEY', [
      ['seq', 'bigint GENERATED ALWAYS AS IDENTITY'], ['callback', 'text NOT NULL'], ['order_id', 'text NOT NULL'], ['hash', 'text NOT NULL'],
      ['response', 'json NOT NULL'], ['payment', 'boolean NOT NULL DEFAULT false'], ['created_at', 'timestamptz NOT NULL DEFAULT now()'],
      ['expires_at', 'timestamptz NOT NULL'], ['merchant_id1', 'text'], ['merchant_id2', 'text']]),
    index('cbk_records_order_idx', `${t.records} (order_id, callback, seq)`),
    index('cbk_records_payment_idx', `${t.records} (order_id, seq) WHERE payment`),
    index('cbk_records_expires_idx', `${t.records} (expires_at)`),
    index('cbk_records_merchant_id1_idx', `${t.records} (merchant_id1) WHERE merchant_id1 IS NOT NULL`),
    index('cbk_records_merchant_id2_idx', `${t.records} (merchant_id2) WHERE merchant_id2 IS NOT NULL`),
    ...table(t.locks, 'order_id text PRIMARY KEY', [
      ['owner', 'text NOT NULL'], ['acquired_at', 'timestamptz NOT NULL'], ['expires_at', 'timestamptz NOT NULL'],
      ['version', 'bigint NOT NULL DEFAULT 0'], ['taken_over', 'boolean NOT NULL DEFAULT false'], ['attempt_key', 'text'],
      ['crashed_key', 'text'], ['crashed_started', 'timestamptz']]),
    ...table(t.holds, 'order_id text PRIMARY KEY', [
      ['awaiting', 'jsonb'], ['received', "jsonb NOT NULL DEFAULT '[]'"], ['since', 'timestamptz'],
      ['updated_at', 'timestamptz NOT NULL DEFAULT now()'], ['expires_at', 'timestamptz']]),
    ...table(t.orderIds, 'merchant_order_id text PRIMARY KEY', [['order_id', 'text NOT NULL'], ['expires_at', 'timestamptz NOT NULL']]),
    ...table(t.attempts, 'key text PRIMARY KEY', [
      ['order_id', 'text NOT NULL'], ['attempts', 'int NOT NULL'], ['state', 'text NOT NULL'],
      ['started_at', 'timestamptz NOT NULL'], ['expires_at', 'timestamptz NOT NULL']]),
  ];
}

/** This version's functions as objects to verify (by signature: an older version's function does not count). */
export function functionObjects(t: Tables): Array<{ name: string; present: string }> {
  const q = (name: string) => (t.schema ? `"${t.schema}".${name}` : name);
  return Object.values(FUNCTIONS).map((f) => ({ name: `${q(f.name)}(${f.args})`, present: `to_regprocedure(${lit(`${q(f.name)}(${f.args})`)}) IS NOT NULL` }));
}

/** One SELECT telling which of `objects` are missing: an array of booleans, true when present. */
export const presenceQuery = (objects: ReadonlyArray<{ present: string }>): string =>
  `SELECT ARRAY[${objects.map((o) => o.present).join(', ')}]::boolean[] AS present`;

interface MigrationClient {
  query(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

export interface MigrateSettings {
  /** lock_timeout of each DDL statement, in ms. */
  lockTimeoutMs: number;
  /** Tries of a DDL statement that hit its lock time-out (55P03) before migrate() fails. */
  tries: number;
}

/**
 * Runs `texts` in order under lock_timeout; while one times out on a lock (55P03), all of them again
 * from the first, after a pause. Each statement is idempotent, and a try must start over: a
 * `CREATE INDEX CONCURRENTLY` that timed out waiting for an older transaction leaves an invalid index
 * behind, which only the object's `DROP INDEX CONCURRENTLY IF EXISTS` removes (`IF NOT EXISTS` alone
 * would keep it).
 */
async function underLockTimeout(client: MigrationClient, texts: readonly string[], settings: MigrateSettings, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      for (const text of texts) await client.query(text);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '55P03' || attempt >= settings.tries) {
        if ((err as { code?: string }).code === '55P03') {
          throw new StoreSchemaError(`migrate() could not take the lock to create ${name} within ${settings.tries} tries of ${settings.lockTimeoutMs} ms (lock_timeout): a long transaction holds the table; run migrate() again`, [name]);
        }
        throw err;
      }
      await sleep(Math.min(2_000, 100 * attempt));
    }
  }
}

/**
 * The migration, on one client the caller holds (and releases). Session settings it changes
 * (lock_timeout, its advisory lock) are reset before it returns, whatever happens.
 */
export async function runMigration(client: MigrationClient, t: Tables, settings: MigrateSettings): Promise<{ created: string[] }> {
  const key = `crossborder-merchant-kit:migrate:${t.schema ?? ''}`;
  // Tried, not waited for: a session waiting for it would hold a transaction open, which a
  // CREATE INDEX CONCURRENTLY of the holder would wait for in turn (a deadlock).
  for (let pause = 20; !(await client.query('SELECT pg_try_advisory_lock(hashtext($1)) AS got', [key])).rows[0]?.got; pause = Math.min(pause * 2, 500)) {
    await sleep(pause);
  }
  try {
    await client.query(`SET lock_timeout = '${Math.max(1, Math.floor(settings.lockTimeoutMs))}ms'`);
    const objects = schemaObjects(t);
    const present: boolean[] = (await client.query(presenceQuery(objects))).rows[0].present;
    const created: string[] = [];
    for (const [i, object] of objects.entries()) {
      // A column of a table created by this run came with it.
      if (present[i] || (object.table !== undefined && !object.createFresh && created.includes(object.table))) continue;
      const fresh = object.table !== undefined && object.createFresh && created.includes(object.table);
      await underLockTimeout(client, fresh ? object.createFresh! : object.create, settings, object.name);
      created.push(object.name);
    }
    // This version's functions, always: a table-only restore, or an older kit's migrate, leaves them out.
    for (const text of functionsDdl(t)) await underLockTimeout(client, [text], settings, 'the functions');
    await underLockTimeout(client, [`INSERT INTO ${t.meta} AS m (id, version) VALUES (1, ${SCHEMA_VERSION})
      ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version WHERE m.version < EXCLUDED.version`], settings, t.meta);
    if (created.length > 0) await client.query(`INSERT INTO ${t.migrations} (version, created) VALUES ($1, $2)`, [SCHEMA_VERSION, created]);
    const missing = await missingObjects(client, t);
    if (missing.length > 0) throw new StoreSchemaError(`migrate() finished but the database lacks: ${missing.join(', ')}`, missing);
    return { created };
  } finally {
    await client.query('RESET lock_timeout').catch(() => {});
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]).catch(() => {});
  }
}

/** The names of the objects this version needs that the database lacks (or has invalid). */
export async function missingObjects(client: MigrationClient, t: Tables): Promise<string[]> {
  const needed = [...schemaObjects(t), ...functionObjects(t)];
  const present: boolean[] = (await client.query(presenceQuery(needed))).rows[0].present;
  return needed.filter((_, i) => !present[i]).map((o) => o.name);
}
