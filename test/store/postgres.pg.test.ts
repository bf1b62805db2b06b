import pgLib from 'pg';
import { PostgresStore } from 'crossborder-merchant-kit/store';
import { heldSaveAndReleasePool } from './counting-pool.js';
import { databaseUrl, postgresFactory } from './harness.js';

const pg = postgresFactory();
afterAll(() => pg.close());

// The Store contract: test/store/conformance.pg.test.ts (the exported conformance suite).

describe('PostgresStore migrations', () => {
  test('migrate() is idempotent, also run by several instances at once', async () => {
    const schema = `t_mig_${Math.random().toString(36).slice(2, 8)}`;
    const stores = Array.from({ length: 4 }, () => new PostgresStore({ pool: pg.pool, schema }));
    try {
      await Promise.all(stores.map((s) => s.migrate()));
      await stores[0].migrate();
      const { rows } = await pg.pool.query(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`, [schema]);
      expect(rows.map((r) => r.table_name)).toEqual(['cbk_attempts', 'cbk_holds', 'cbk_locks', 'cbk_meta', 'cbk_migrations', 'cbk_order_ids', 'cbk_records']);
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

describe('PostgresStore: the lock claimed and the reads made in one statement', () => {
  const prefetch = (key: string) => ({ key, payment: true, latestOf: 'sendOrderToMerchant', beginAttempt: true });
  const record = (key: string, orderId: string) => ({ key, callback: 'performOrderPayment', orderId, hash: 'h', response: { Success: true }, payment: true });
  const attemptsOf = async (schema: string, key: string) =>
    (await pg.pool.query(`SELECT attempts FROM "${schema}".cbk_attempts WHERE key = $1`, [key])).rows[0]?.attempts;

  test('an uncontended claim reads with the lock: nothing stored, the attempt begun; after a save, the stored reply and no attempt', async () => {
    const h = await pg.factory();
    const store = h.store as PostgresStore;
    const first = (await store.acquire('O-1', { waitMs: 1000, leaseMs: 10_000, prefetch: prefetch('k1') }))!;
    expect(first.recovered).toBe(false);
    expect(first.prefetched).toEqual({ record: null, payment: null, latest: null, hold: null, attempt: { attempt: 1 } });
    await first.saveAndRelease!(record('k1', 'O-1'), ['M-1']);
    expect(await store.findOrderId('M-1')).toBe('O-1');
    const again = (await h.twin().acquire('O-1', { waitMs: 1000, leaseMs: 10_000, prefetch: prefetch('k1') }))!;
    expect(again.prefetched?.record?.response).toEqual({ Success: true });
    expect(again.prefetched?.payment?.key).toBe('k1');
    expect(again.prefetched?.attempt).toBeUndefined();
    await again.release();
    expect(await attemptsOf(store.schema!, 'k1')).toBe(1);
  });

  test('a claim made while the holder\'s save-and-release is uncommitted neither claims nor waits on the row; once it committed, its reads are current (the reply), no attempt is begun', async () => {
    const h = await pg.factory();
    const schema = (h.store as PostgresStore).schema!;
    const client = await pg.pool.connect();
    // The holder's save-and-release runs in a transaction left open until we commit it.
    const holderPool = heldSaveAndReleasePool(pg.pool, client);
    try {
      const holder = new PostgresStore({ pool: holderPool, schema });
      const held = (await holder.acquire('O-2', { waitMs: 1000, leaseMs: 10_000, prefetch: prefetch('k2') }))!;
      expect(held.prefetched?.attempt).toEqual({ attempt: 1 });
      await held.saveAndRelease!(record('k2', 'O-2'), []);
      // The other claim's snapshot sees the lease held: it is not claimed (no row lock is waited for); the claim polls.
      let settled = false;
      const other = h.twin().acquire('O-2', { waitMs: 5000, leaseMs: 10_000, prefetch: prefetch('k2') }).finally(() => { settled = true; });
      await new Promise((r) => setTimeout(r, 300));
      expect(settled).toBe(false);
      await client.query('COMMIT');
      const lock = (await other)!;
      expect(lock).not.toBeNull();
      expect(lock.prefetched?.record?.response).toEqual({ Success: true });
      expect(lock.prefetched?.attempt).toBeUndefined();
      expect((await h.store.getRecord('k2'))?.response).toEqual({ Success: true });
      expect(await attemptsOf(schema, 'k2')).toBe(1);
      await lock.release();
    } finally {
      await client.query('ROLLBACK').catch(() => {});
      client.release();
    }
  });

  test('a lock taken over from an expired lease is recovered and trusts none of its reads', async () => {
    const h = await pg.factory();
    await h.store.acquire('O-3', { waitMs: 1000, leaseMs: 100, prefetch: prefetch('k3') });
    await new Promise((r) => setTimeout(r, 150));
    const next = (await h.twin().acquire('O-3', { waitMs: 1000, leaseMs: 10_000, prefetch: prefetch('k3') }))!;
    expect(next.recovered).toBe(true);
    expect(next.prefetched).toBeUndefined();
    await next.release();
  });

  test('preparedStatements: false sends plain text queries', async () => {
    const seen: unknown[] = [];
    const pool = { query: (q: any, v?: unknown[]) => { seen.push(q); return pg.pool.query(q, v); }, connect: () => pg.pool.connect() };
    const schema = `t_plain_${Math.random().toString(36).slice(2, 8)}`;
    try {
      const store = new PostgresStore({ pool, schema, preparedStatements: false });
      expect(await store.getRecord('k')).toBeNull();
      expect(seen.at(-1)).toEqual({ text: expect.stringContaining('SELECT'), values: ['k'] });
      const named = new PostgresStore({ pool, schema });
      expect(await named.getRecord('k')).toBeNull();
      expect(seen.at(-1)).toMatchObject({ name: expect.stringMatching(/^cbk_getRecord_[0-9a-f]{12}$/) });
      expect(() => new PostgresStore({ pool, schema, preparedStatements: 'yes' as never })).toThrow(/preparedStatements must be a boolean/);
    } finally {
      await pg.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  });
});

test('PostgresStore: a claim while an older kit deletes the held lock row (its release) waits for it, then reads what it committed', async () => {
  const h = await pg.factory();
  const schema = (h.store as PostgresStore).schema!;
  const first = (await h.store.acquire('O-4', { waitMs: 1000, leaseMs: 10_000 }))!;
  const client = await pg.pool.connect();
  try {
    // An older kit releases by deleting the row, together with its reply, in a transaction still open.
    await client.query('BEGIN');
    await client.query(`INSERT INTO "${schema}".cbk_records (key, callback, order_id, hash, response, payment, expires_at)
      VALUES ('k4', 'performOrderPayment', 'O-4', 'h', '{"Success":true}', true, now() + interval '1 day')`);
    await client.query(`DELETE FROM "${schema}".cbk_locks WHERE order_id = 'O-4'`);
    const other = h.twin().acquire('O-4', { waitMs: 5000, leaseMs: 10_000, prefetch: { key: 'k4', payment: true, latestOf: 'sendOrderToMerchant', beginAttempt: true } });
    await new Promise((r) => setTimeout(r, 300));
    await client.query('COMMIT');
    const lock = (await other)!;
    expect(lock.prefetched?.payment?.key).toBe('k4');
    expect((await h.store.getPayment('O-4'))?.key).toBe('k4');
    await lock.release();
    await first.release();
  } finally {
    await client.query('ROLLBACK').catch(() => {});
    client.release();
  }
});
