/**
 * Issue 35 items 4 and 5: migrate() cannot strand a fleet. It (re)creates this version's functions
 * whatever version the database claims, verifies every object it needs and fails naming what is
 * missing, records what it created, runs no no-op DDL (an up-to-date database is migrated beside a
 * long read transaction), waits for a DDL lock no longer than lockTimeoutMs (retried, so deliveries
 * never queue behind it), builds indexes CONCURRENTLY, and runs as a deploy step from the CLI.
 */
import pg from 'pg';
import { PostgresStore } from 'crossborder-merchant-kit/store';
import { main } from '../../lib/tools/cli/main.js';
import { migrateCommand } from '../../lib/tools/cli/migrate.js';
import { order } from '../helpers/orders.js';
import { testKit } from '../helpers/kit.js';
import { countingPool } from './counting-pool.js';
import { databaseUrl, postgresFactory } from './harness.js';

const h = postgresFactory();
afterAll(() => h.close());

const fresh = async () => ((await h.factory()).store as PostgresStore).schema!;
const io = () => {
  const out = { out: '', err: '' };
  return { out, io: { stdout: (t: string) => { out.out += t; }, stderr: (t: string) => { out.err += t; } } };
};
const delivered = async (store: PostgresStore, orderId: string) =>
  (await testKit({ store, answers: { sendOrderToMerchant: () => ({ InternalOrderId: `INT-${orderId}` }) } }).deliver('sendOrderToMerchant', order({ OrderId: orderId }))).status;

describe('item 4: migrate() verifies what it needs and always (re)creates its functions', () => {
  test('after a table-only restore (the functions gone) and on a database a newer kit marked version 99: the functions are back, deliveries work', async () => {
    const schema = await fresh();
    await h.pool.query(`DROP FUNCTION "${schema}".cbk_claim_v9; DROP FUNCTION "${schema}".cbk_save_v9; UPDATE "${schema}".cbk_meta SET version = 99`);
    const store = new PostgresStore({ pool: h.pool, schema, autoMigrate: false });
    expect(await delivered(store, 'R-1')).toBe(503); // 42883: what the rolled-back fleet saw
    expect(await store.migrate()).toEqual({ created: [] });
    expect(await delivered(store, 'R-2')).toBe(200);
    // A newer kit's version number stays (its own migrate() may rely on it).
    expect((await h.pool.query(`SELECT version FROM "${schema}".cbk_meta`)).rows[0].version).toBe(99);
  });

  test('an object it cannot get fails migrate() loudly, by name (StoreSchemaError, ERR_CBK_STORE_SCHEMA), also from the CLI', async () => {
    const schema = await fresh();
    const sabotage = `sabotage_${schema}`;
    // An event trigger drops the save function as soon as it is created (as a restore or a DBA script might leave it).
    await h.pool.query(`CREATE FUNCTION public.${sabotage}() RETURNS event_trigger LANGUAGE plpgsql AS $$
      DECLARE r record;
      BEGIN
        FOR r IN SELECT * FROM pg_event_trigger_ddl_commands() LOOP
          IF r.object_identity LIKE '${schema}.cbk_save_v9(%' THEN EXECUTE 'DROP FUNCTION ' || r.object_identity; END IF;
        END LOOP;
      END $$;
      CREATE EVENT TRIGGER ${sabotage} ON ddl_command_end WHEN TAG IN ('CREATE FUNCTION') EXECUTE FUNCTION public.${sabotage}()`);
    try {
      const store = new PostgresStore({ pool: h.pool, schema });
      await expect(store.migrate()).rejects.toMatchObject({
        name: 'StoreSchemaError', code: 'ERR_CBK_STORE_SCHEMA',
        missing: [`"${schema}".cbk_save_v9(text, text, text, text, json, boolean, double precision, text[], text, double precision, double precision)`],
      });
      const { out, io: cliIo } = io();
      expect(await main(['migrate', '--database-url', databaseUrl(), '--schema', schema], cliIo)).toBe(1);
      expect(out.err).toMatch(new RegExp(`the database lacks: "${schema}".cbk_save_v9\\(`));
    } finally {
      await h.pool.query(`DROP EVENT TRIGGER ${sabotage}; DROP FUNCTION public.${sabotage}()`);
    }
  });
});

describe('item 5: migrations that cannot strand a fleet', () => {
  test('an up-to-date database: migrate() runs no DDL on a table, so it completes beside a long read transaction', async () => {
    const schema = await fresh();
    const reader = await h.pool.connect();
    await reader.query(`BEGIN; SELECT count(*) FROM "${schema}".cbk_records; SELECT count(*) FROM "${schema}".cbk_locks`);
    try {
      const pool = countingPool(h.pool);
      expect(await new PostgresStore({ pool, schema, lockTimeoutMs: 100 }).migrate()).toEqual({ created: [] });
      expect(pool.names.filter((n) => /^\s*(ALTER|CREATE (TABLE|INDEX|SCHEMA)|DROP)/i.test(n))).toEqual([]);
    } finally {
      await reader.query('ROLLBACK');
      reader.release();
    }
  });

  test('a missing column behind a long read transaction: the ALTER waits at most lockTimeoutMs per try, deliveries never queue behind it, and it is retried until done and recorded', async () => {
    const schema = await fresh();
    await h.pool.query(`ALTER TABLE "${schema}".cbk_holds DROP COLUMN updated_at`);
    const reader = await h.pool.connect();
    await reader.query(`BEGIN; SELECT count(*) FROM "${schema}".cbk_holds`);
    const migrating = new PostgresStore({ pool: h.pool, schema, lockTimeoutMs: 100 }).migrate();
    try {
      // While the ALTER is tried and retried, deliveries (lock_timeout 1 s > the ALTER's 100 ms) are served.
      const store = new PostgresStore({ pool: h.pool, schema, autoMigrate: false });
      await new Promise((r) => setTimeout(r, 150));
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push(await delivered(store, `M-${i}`));
      // Each claim reads cbk_holds: it waits behind the ALTER's lock request at most the ALTER's 100 ms.
      expect(statuses).toEqual([200, 200, 200]);
    } finally {
      await reader.query('ROLLBACK');
      reader.release();
    }
    expect(await migrating).toEqual({ created: [`"${schema}".cbk_holds.updated_at`] });
    const recorded = (await h.pool.query(`SELECT version, created FROM "${schema}".cbk_migrations ORDER BY id`)).rows;
    expect(recorded).toHaveLength(2); // the schema's creation, then this
    expect(recorded[0].created).toContain(`"${schema}".cbk_records`);
    expect(recorded[1]).toEqual({ version: 9, created: [`"${schema}".cbk_holds.updated_at`] });
  });

  test('a missing index on an existing table is built CONCURRENTLY (an invalid one is dropped first)', async () => {
    const schema = await fresh();
    await h.pool.query(`DROP INDEX "${schema}".cbk_records_expires_idx`);
    const pool = countingPool(h.pool);
    expect(await new PostgresStore({ pool, schema }).migrate()).toEqual({ created: [`"${schema}".cbk_records_expires_idx`] });
    expect(pool.names.filter((n) => /INDEX/.test(n))).toEqual([
      `DROP INDEX CONCURRENTLY IF EXISTS "${schema}".cbk_records_expires_idx`,
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS cbk_records_expires_idx ON "${schema}".cbk_records (expires_at)`,
    ]);
    const valid = await h.pool.query(`SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass($1)`, [`"${schema}".cbk_records_expires_idx`]);
    expect(valid.rows).toEqual([{ indisvalid: true }]);
  });

  test('an index build that times out waiting for an older transaction is dropped and built again on the next try, not left invalid', async () => {
    const schema = await fresh();
    await h.pool.query(`DROP INDEX "${schema}".cbk_records_expires_idx`);
    // CREATE INDEX CONCURRENTLY waits for every transaction older than its build, of any table: this one outlives the first try.
    const older = await h.pool.connect();
    await older.query('BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT 1');
    try {
      const migrating = new PostgresStore({ pool: h.pool, schema, lockTimeoutMs: 100 }).migrate();
      await new Promise((r) => setTimeout(r, 400));
      await older.query('COMMIT');
      expect(await migrating).toEqual({ created: [`"${schema}".cbk_records_expires_idx`] });
    } finally {
      await older.query('ROLLBACK').catch(() => {});
      older.release();
    }
    const valid = await h.pool.query(`SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass($1)`, [`"${schema}".cbk_records_expires_idx`]);
    expect(valid.rows).toEqual([{ indisvalid: true }]);
  });

  test('the CLI: `crossborder-merchant-kit migrate` creates a schema from nothing, then finds nothing to create; a URL is required', async () => {
    const schema = `t_cli_${Math.random().toString(36).slice(2, 10)}`;
    try {
      const first = io();
      expect(await main(['migrate', '--database-url', databaseUrl(), '--schema', schema], first.io)).toBe(0);
      expect(first.out.out).toMatch(new RegExp(`created: schema ${schema}, "${schema}".cbk_meta, `));
      expect(first.out.out).toMatch(/schema verified/);
      const again = io();
      const pools: pg.Pool[] = [];
      expect(await migrateCommand(['--schema', schema, '--database-url', databaseUrl()], again.io, async (url) => {
        const pool = new pg.Pool({ connectionString: url, max: 1 });
        pools.push(pool);
        return { pool, end: () => pool.end() };
      })).toBe(0);
      expect(again.out.out).toMatch(/^nothing to create\n/);
      const saved = process.env.DATABASE_URL;
      delete process.env.DATABASE_URL;
      const none = io();
      try {
        expect(await main(['migrate'], none.io)).toBe(2);
      } finally {
        if (saved !== undefined) process.env.DATABASE_URL = saved;
      }
      expect(none.out.err).toMatch(/--database-url <url> or \$DATABASE_URL/);
    } finally {
      await h.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  });
});
