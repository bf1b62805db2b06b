/**
 * PostgresStore's health probe (`ping()`, which `checkHealth` calls): the store's real path, not
 * `SELECT 1`. In one transaction under a lock time-out, rolled back: the connection is writable (not
 * read-only, not a standby), this version's tables, columns, indexes and functions exist, the role
 * has the privileges the statements need, the schema version is this one's or newer, no table is
 * locked past the lock time-out, and a row can be written. The first failed check rejects with a
 * StoreHealthError whose `code` names the check and `detail` the objects (never a message of the
 * database, never a value).
 */
import { functionObjects, presenceQuery, schemaObjects, SCHEMA_VERSION } from './postgres-migrate.js';
import type { Tables } from './postgres-tables.js';

export type HealthCheckCode = 'READ_ONLY' | 'IN_RECOVERY' | 'SCHEMA_MISSING' | 'SCHEMA_OUTDATED' | 'PRIVILEGES' | 'LOCK_TIMEOUT' | 'NOT_WRITABLE';

/** A failed check of the health probe: `code` the check, `detail` what failed (object names). */
export class StoreHealthError extends Error {
  constructor(readonly code: HealthCheckCode, readonly detail: string) {
    super(`PostgresStore health check ${code}: ${detail}`);
    this.name = 'StoreHealthError';
  }
}

const lit = (text: string) => `'${text.replace(/'/g, "''")}'`;

function tableList(t: Tables): string[] {
  return [t.meta, t.records, t.locks, t.holds, t.orderIds, t.attempts];
}

/** The part of a pg pool the probe uses. */
interface ProbePool {
  connect(): Promise<{ query(text: string): Promise<{ rows: any[] }>; release(err?: Error | boolean): void }>;
}

export async function probeHealth(pool: ProbePool, t: Tables, settings: { timeoutMs: number; lockTimeoutMs: number }): Promise<void> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(`BEGIN; SET LOCAL statement_timeout = '${Math.max(1, Math.floor(settings.timeoutMs))}ms'; `
      + `SET LOCAL lock_timeout = '${Math.max(1, Math.floor(settings.lockTimeoutMs))}ms'`);
    try {
      await checks(client, t);
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

async function checks(client: { query(text: string): Promise<{ rows: any[] }> }, t: Tables): Promise<void> {
  const state = (await client.query(`SELECT current_setting('transaction_read_only') = 'on' AS read_only, pg_is_in_recovery() AS recovery`)).rows[0];
  if (state.recovery) throw new StoreHealthError('IN_RECOVERY', 'the connection is to a standby (pg_is_in_recovery()); the store needs the primary');
  if (state.read_only) throw new StoreHealthError('READ_ONLY', 'the connection is read-only (transaction_read_only = on)');
  const needed = [...schemaObjects(t), ...functionObjects(t)];
  const present: boolean[] = (await client.query(presenceQuery(needed))).rows[0].present;
  const missing = needed.filter((_, i) => !present[i]).map((o) => o.name);
  if (missing.length > 0) throw new StoreHealthError('SCHEMA_MISSING', `missing: ${missing.join(', ')} (run migrate())`);
  const tablesNeeded = tableList(t);
  const functions = functionObjects(t);
  const privileges: boolean[] = (await client.query(`SELECT ARRAY[${[
    // One privilege a call: given several, has_table_privilege is true when any one is held.
    ...tablesNeeded.map((n) => `coalesce(${['SELECT', 'INSERT', 'UPDATE', 'DELETE'].map((p) => `has_table_privilege(to_regclass(${lit(n)}), '${p}')`).join(' AND ')}, false)`),
    ...functions.map((f) => `coalesce(has_function_privilege(${f.present.replace(' IS NOT NULL', '')}, 'EXECUTE'), false)`),
  ].join(', ')}]::boolean[] AS granted`)).rows[0].granted;
  const names = [...tablesNeeded.map((n) => `${n} (SELECT, INSERT, UPDATE, DELETE)`), ...functions.map((f) => `${f.name} (EXECUTE)`)];
  const denied = names.filter((_, i) => !privileges[i]);
  if (denied.length > 0) throw new StoreHealthError('PRIVILEGES', `the role lacks: ${denied.join(', ')}`);
  const version = (await client.query(`SELECT version FROM ${t.meta} WHERE id = 1`)).rows[0]?.version ?? 0;
  if (version < SCHEMA_VERSION) throw new StoreHealthError('SCHEMA_OUTDATED', `schema version ${version}, this kit needs ${SCHEMA_VERSION} (run migrate())`);
  for (const table of tablesNeeded) {
    try {
      await client.query(`LOCK TABLE ${table} IN ROW EXCLUSIVE MODE`);
    } catch (err) {
      if ((err as { code?: unknown }).code === '55P03') throw new StoreHealthError('LOCK_TIMEOUT', `${table} is locked by another transaction (lock_timeout)`);
      throw err;
    }
  }
  try {
    await client.query(`UPDATE ${t.meta} SET version = version WHERE id = 1`);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === '25006' || code === '42501') throw new StoreHealthError('NOT_WRITABLE', `a row of ${t.meta} cannot be written (SQLSTATE ${String(code)})`);
    throw err;
  }
}
