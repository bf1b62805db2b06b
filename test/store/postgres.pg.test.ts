import pgLib from 'pg';
import { PostgresStore } from 'crossborder-merchant-kit';
import { storeContract } from './contract.js';
import { databaseUrl, postgresFactory } from './harness.js';

const pg = postgresFactory();
afterAll(() => pg.close());

describe('PostgresStore: the Store contract', () => {
  storeContract(pg.factory);
});

describe('PostgresStore migrations', () => {
  test('migrate() is idempotent, also run by several instances at once', async () => {
    const schema = `t_mig_${Math.random().toString(36).slice(2, 8)}`;
    const stores = Array.from({ length: 4 }, () => new PostgresStore({ pool: pg.pool, schema }));
    try {
      await Promise.all(stores.map((s) => s.migrate()));
      await stores[0].migrate();
      const { rows } = await pg.pool.query(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`, [schema]);
      expect(rows.map((r) => r.table_name)).toEqual(['cbk_attempts', 'cbk_holds', 'cbk_locks', 'cbk_meta', 'cbk_order_ids', 'cbk_records']);
    } finally {
      await pg.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  });

  test('creates its tables on first use unless autoMigrate is false', async () => {
    const schema = `t_auto_${Math.random().toString(36).slice(2, 8)}`;
    try {
      const manual = new PostgresStore({ pool: pg.pool, schema, autoMigrate: false });
      await expect(manual.getRecord('k')).rejects.toThrow(/does not exist/);
      const auto = new PostgresStore({ pool: pg.pool, schema });
      expect(await auto.getRecord('k')).toBeNull();
      expect(await manual.getRecord('k')).toBeNull();
    } finally {
      await pg.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  });

  test('purgeExpired deletes expired replies', async () => {
    const h = await pg.factory();
    const short = h.withTtl(50) as PostgresStore;
    await short.saveRecord({ key: 'k', callback: 'sendOrderToMerchant', orderId: 'O', hash: 'h', response: { Success: true }, payment: false });
    await new Promise((r) => setTimeout(r, 120));
    await short.purgeExpired();
    expect(await h.scan()).not.toContain('"key":"k"');
  });
});

describe('PostgresStore and pool errors', () => {
  test('an idle connection killed by the server (a PostgreSQL restart) is logged, not an unhandled error event', async () => {
    const pool = new pgLib.Pool({ connectionString: databaseUrl(), max: 2, application_name: 'cbk-pool-error-test' });
    const logged: { obj: any; msg?: string }[] = [];
    const store = new PostgresStore({ pool, schema: `t_err_${Math.random().toString(36).slice(2, 8)}`, logger: { error: (obj, msg) => { logged.push({ obj, msg }); } } });
    try {
      expect(pool.listenerCount('error')).toBe(1);
      await store.migrate();
      await store.getRecord('k'); // leaves an idle client in the pool
      await pg.pool.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'cbk-pool-error-test'`);
      for (let i = 0; i < 50 && logged.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(logged[0].msg).toMatch(/PostgreSQL pool error/);
      expect(logged[0].obj.err.message).toMatch(/terminat/);
      // The pool reconnects on next use.
      expect(await store.getRecord('k')).toBeNull();
    } finally {
      await pool.query(`DROP SCHEMA IF EXISTS "${store.schema}" CASCADE`).catch(() => {});
      await pool.end();
    }
  });

  test('logger is checked when the store is built', () => {
    expect(() => new PostgresStore({ pool: pg.pool, logger: {} as never })).toThrow(/PostgresStore.logger/);
  });
});
