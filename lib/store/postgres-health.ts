/**
 * PostgresStore's health probe (`ping()`, which `checkHealth` calls): the store's real path, not
 * `SELECT 1`. In one transaction under a lock time-out, rolled back: the connection is writable (not
 * read-only, not a standby), this version's tables, columns, indexes and functions exist, the role
 * has the privileges the statements need, the schema version is this one's or newer, no table is
 * locked past the lock time-out, and a row can be written. The first failed check rejects with a
 * StoreHealthError whose `code` names the check and `detail` the objects (never a message of the
 * database, never a value).
 */
import { functionObjects, nameLiteral as lit, presenceQuery, schemaObjects, SCHEMA_VERSION } from './postgres-migrate.js';
import type { Tables } from './postgres-tables.js';

/**
 * Why PostgresStore's health probe failed (`HealthReport.store.error`): the database is read-only or a
 * standby, the kit's tables are missing or older than this version (run `crossborder-merchant-kit
 * migrate`), privileges are lacking, a table is locked, or a write failed.
 */
export type HealthCheckCode = 'READ_ONLY' | 'IN_RECOVERY' | 'SCHEMA_MISSING' | 'SCHEMA_OUTDATED' | 'PRIVILEGES' | 'LOCK_TIMEOUT' | 'NOT_WRITABLE';

/** A failed check of the health probe: `code` the check, `detail` what failed (object names). */
export class StoreHealthError extends Error {
  constructor(readonly code: HealthCheckCode, readonly detail: string) {
    super(`PostgresStore health check ${code}: ${detail}`);
    this.name = 'StoreHealthError';
  }
}


/**
 * The tables the store's statements use and the privileges they need: cbk_meta is only read (by this
 * probe; migrate() runs as its own role), DELETE only when this process purges. cbk_migrations is
 * migrate()'s alone.
 */
function tablePrivileges(t: Tables, purge: boolean): Array<[string, string[]]> {
  const dml = ['SELECT', 'INSERT', 'UPDATE', ...(purge ? ['DELETE'] : [])];
  return [[t.meta, ['SELECT']], ...[t.records, t.locks, t.holds, t.orderIds, t.attempts].map((n): [string, string[]] => [n, dml])];
}

/** The part of a pg pool the probe uses. */
interface ProbePool {
  connect(): Promise<{ query(text: string): Promise<{ rows: any[] }>; release(err?: Error | boolean): void }>;
}

export async function probeHealth(pool: ProbePool, t: Tables, settings: { timeoutMs: number; lockTimeoutMs: number; purge: boolean }): Promise<void> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(`BEGIN; SET LOCAL statement_timeout = '${Math.max(1, Math.floor(settings.timeoutMs))}ms'; `
      + `SET LOCAL lock_timeout = '${Math.max(1, Math.floor(settings.lockTimeoutMs))}ms'`);
    try {
      await checks(client, t, settings.purge);
    } finally {
      await client.query('ROLLBACK').catch((err: Error) => { broken = err; });
    }
  } catch (err) {
    if (!(err instanceof StoreHealthError) && !(err as { code?: unknown }).code) broken = err as Error;
    throw err;
  } finally {
    client.release(broken);
  }
}

async function checks(client: { query(text: string): Promise<{ rows: any[] }> }, t: Tables, purge: boolean): Promise<void> {
  const state = (await client.query(`SELECT current_setting('transaction_read_only') = 'on' AS read_only, pg_is_in_recovery() AS recovery`)).rows[0];
  if (state.recovery) throw new StoreHealthError('IN_RECOVERY', 'the connection is to a standby (pg_is_in_recovery()); the store needs the primary');
  if (state.read_only) throw new StoreHealthError('READ_ONLY', 'the connection is read-only (transaction_read_only = on)');
  const needed = [...schemaObjects(t), ...functionObjects(t)];
  const present: boolean[] = (await client.query(presenceQuery(needed))).rows[0].present;
  const missing = needed.filter((_, i) => !present[i]).map((o) => o.name);
  if (missing.length > 0) throw new StoreHealthError('SCHEMA_MISSING', `missing: ${missing.join(', ')} (run migrate())`);
  const tables = tablePrivileges(t, purge);
  const functions = functionObjects(t);
  // One privilege a call: given several, has_table_privilege is true when any one is held.
  const privileges: boolean[] = (await client.query(`SELECT ARRAY[${[
    ...tables.map(([n, privs]) => `coalesce(${privs.map((p) => `has_table_privilege(to_regclass(${lit(n)}), '${p}')`).join(' AND ')}, false)`),
    ...functions.map((f) => `coalesce(has_function_privilege(${f.present.replace(' IS NOT NULL', '')}, 'EXECUTE'), false)`),
  ].join(', ')}]::boolean[] AS granted`)).rows[0].granted;
  const names = [...tables.map(([n, privs]) => `${n} (${privs.join(', ')})`), ...functions.map((f) => `${f.name} (EXECUTE)`)];
  const denied = names.filter((_, i) => !privileges[i]);
  if (denied.length > 0) throw new StoreHealthError('PRIVILEGES', `the role lacks: ${denied.join(', ')}`);
  const version = (await client.query(`SELECT version FROM ${t.meta} WHERE id = 1`)).rows[0]?.version ?? 0;
  if (version < SCHEMA_VERSION) throw new StoreHealthError('SCHEMA_OUTDATED', `schema version ${version}, this kit needs ${SCHEMA_VERSION} (run migrate())`);
  for (const [table, privs] of tables) {
    try {
      // The lock the store's own statements take (ROW EXCLUSIVE for the tables it writes): waits only behind a conflicting lock.
      await client.query(`LOCK TABLE ${table} IN ${privs.length === 1 ? 'ACCESS SHARE' : 'ROW EXCLUSIVE'} MODE`);
    } catch (err) {
      if ((err as { code?: unknown }).code === '55P03') throw new StoreHealthError('LOCK_TIMEOUT', `${table} is locked by another transaction (lock_timeout)`);
      throw err;
    }
  }
  try {
    // A write of no row: refused (25006, 42501) where the store could not write, changes nothing.
    await client.query(`UPDATE ${t.locks} SET owner = owner WHERE false`);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === '25006' || code === '42501') throw new StoreHealthError('NOT_WRITABLE', `${t.locks} cannot be written (SQLSTATE ${String(code)})`);
    throw err;
  }
}
