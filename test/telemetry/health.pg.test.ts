/**
 * checkHealth with PostgresStore.ping: a live database is healthy; PostgreSQL refusing connections
 * (a closed port) or accepting them and never answering (a hung server) is reported not ok within timeoutMs.
 */
import { createServer, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { checkHealth } from 'crossborder-merchant-kit';
import { PostgresStore } from 'crossborder-merchant-kit/store';
import { databaseUrl } from '../store/harness.js';
import { order } from '../helpers/orders.js';
import { testKit } from '../helpers/kit.js';

const pools: pg.Pool[] = [];
const poolAt = (connectionString: string) => {
  const pool = new pg.Pool({ connectionString, max: 2 });
  pool.on('error', () => {});
  pools.push(pool);
  return pool;
};
afterAll(async () => { await Promise.all(pools.map((p) => p.end().catch(() => {}))); });

async function listen(onConnection: (socket: Socket) => void): Promise<{ server: Server; port: number }> {
  const server = createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

/** A migrated schema of its own; the store over it on `url` (default the test database, as its owner). */
async function migrated(): Promise<string> {
  const schema = `t_h_${Math.random().toString(36).slice(2, 10)}`;
  await new PostgresStore({ pool: admin(), schema }).migrate();
  schemas.push(schema);
  return schema;
}
const schemas: string[] = [];
let adminPool: pg.Pool | undefined;
const admin = () => (adminPool ??= poolAt(databaseUrl()));
afterAll(async () => {
  for (const s of schemas) await admin().query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`).catch(() => {});
});
const withUser = (user: string, extra = '') => {
  const url = new URL(databaseUrl());
  url.username = user;
  url.password = '';
  return `${url.toString()}${extra}`;
};

test('a live PostgreSQL with the schema migrated: ok', async () => {
  const store = new PostgresStore({ pool: poolAt(databaseUrl()), schema: await migrated(), autoMigrate: false });
  expect(await checkHealth({ store, timeoutMs: 5000 })).toEqual({ ok: true, store: { ok: true, latencyMs: expect.any(Number) } });
});

describe('item 6: the probe walks the real path and says which check failed', () => {
  test('a SELECT-only role (every delivery would fail with 42501): PRIVILEGES, naming what it lacks', async () => {
    const schema = await migrated();
    const role = `cbk_ro_${schema}`;
    await admin().query(`CREATE ROLE ${role} LOGIN; GRANT USAGE ON SCHEMA "${schema}" TO ${role}; GRANT SELECT ON ALL TABLES IN SCHEMA "${schema}" TO ${role}`);
    try {
      const pool = poolAt(withUser(role));
      const report = await checkHealth({ store: new PostgresStore({ pool, schema, autoMigrate: false }), timeoutMs: 5000 });
      expect(report.store).toMatchObject({ ok: false, error: 'PRIVILEGES', detail: expect.stringContaining(`"${schema}".cbk_locks (SELECT, INSERT, UPDATE, DELETE)`) });
    } finally {
      await admin().query(`DROP OWNED BY ${role}; DROP ROLE ${role}`);
    }
  });

  test('a role with exactly the grants docs/stores.md lists is healthy and serves deliveries; without DELETE, healthy only with purge: false', async () => {
    const schema = await migrated();
    const role = `cbk_app_${schema}`;
    const q = (n: string) => `"${schema}".${n}`;
    await admin().query(`CREATE ROLE ${role} LOGIN; GRANT USAGE ON SCHEMA "${schema}" TO ${role};
      GRANT SELECT ON ${q('cbk_meta')} TO ${role};
      GRANT SELECT, INSERT, UPDATE ON ${['cbk_records', 'cbk_locks', 'cbk_holds', 'cbk_order_ids', 'cbk_attempts'].map(q).join(', ')} TO ${role};
      GRANT EXECUTE ON FUNCTION ${q('cbk_claim_v9')}, ${q('cbk_save_v9')} TO ${role}`);
    const pool = poolAt(withUser(role));
    try {
      const noPurge = new PostgresStore({ pool, schema, autoMigrate: false, purge: false });
      expect((await checkHealth({ store: noPurge, timeoutMs: 5000 })).store).toEqual({ ok: true, latencyMs: expect.any(Number) });
      const kit = testKit({ store: noPurge, answers: { sendOrderToMerchant: () => ({ InternalOrderId: 'INT-APP' }) } });
      expect((await kit.deliver('sendOrderToMerchant', order({ OrderId: 'APP-1' }))).status).toBe(200);
      expect((await kit.deliver('sendOrderToMerchant', order({ OrderId: 'APP-1' }))).headers['idempotency-replayed']).toBe('true');
      const purging = new PostgresStore({ pool, schema, autoMigrate: false });
      expect((await checkHealth({ store: purging, timeoutMs: 5000 })).store).toMatchObject({ ok: false, error: 'PRIVILEGES', detail: expect.stringContaining('DELETE') });
      await admin().query(`GRANT DELETE ON ${['cbk_records', 'cbk_locks', 'cbk_holds', 'cbk_order_ids', 'cbk_attempts'].map(q).join(', ')} TO ${role}`);
      expect((await checkHealth({ store: purging, timeoutMs: 5000 })).store.ok).toBe(true);
      expect(await purging.purgeExpired()).toBe(0);
    } finally {
      await pool.end();
      await admin().query(`DROP OWNED BY ${role}; DROP ROLE ${role}`);
    }
  });

  test('a read-only connection (25006 on every write): READ_ONLY', async () => {
    const schema = await migrated();
    const pool = poolAt(`${databaseUrl()}${databaseUrl().includes('?') ? '&' : '?'}options=-c%20default_transaction_read_only%3Don`);
    const report = await checkHealth({ store: new PostgresStore({ pool, schema, autoMigrate: false }), timeoutMs: 5000 });
    expect(report.store).toMatchObject({ ok: false, error: 'READ_ONLY' });
  });

  test('a missing function (42883 on every delivery) or an older schema version: SCHEMA_MISSING naming it, SCHEMA_OUTDATED', async () => {
    const schema = await migrated();
    const store = new PostgresStore({ pool: admin(), schema, autoMigrate: false });
    await admin().query(`DROP FUNCTION "${schema}".cbk_claim_v9`);
    expect((await checkHealth({ store, timeoutMs: 5000 })).store).toMatchObject({ ok: false, error: 'SCHEMA_MISSING', detail: expect.stringContaining(`"${schema}".cbk_claim_v9(`) });
    await store.migrate();
    await admin().query(`UPDATE "${schema}".cbk_meta SET version = 8`);
    expect((await checkHealth({ store, timeoutMs: 5000 })).store).toMatchObject({ ok: false, error: 'SCHEMA_OUTDATED' });
    // No schema at all.
    const none = new PostgresStore({ pool: admin(), schema: 'cbk_no_such_schema', autoMigrate: false });
    expect((await checkHealth({ store: none, timeoutMs: 5000 })).store).toMatchObject({ ok: false, error: 'SCHEMA_MISSING', detail: expect.stringContaining('cbk_no_such_schema') });
  });

  test('a table held ACCESS EXCLUSIVE by another transaction: LOCK_TIMEOUT naming it, answered while it is still held', async () => {
    const schema = await migrated();
    const holder = await admin().connect();
    await holder.query(`BEGIN; LOCK TABLE "${schema}".cbk_locks IN ACCESS EXCLUSIVE MODE`);
    try {
      const store = new PostgresStore({ pool: admin(), schema, autoMigrate: false, lockTimeoutMs: 200 });
      const report = await checkHealth({ store, timeoutMs: 3000 });
      expect(report.store).toMatchObject({ ok: false, error: 'LOCK_TIMEOUT', detail: expect.stringContaining(`"${schema}".cbk_locks`) });
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    // The probe wrote nothing and left no setting on the pool's connections.
    expect((await admin().query(`SELECT current_setting('lock_timeout') AS l`)).rows[0].l).toBe('0');
  });
});

test('PostgreSQL stopped (nothing listens on its port): ok false, ECONNREFUSED', async () => {
  const { server, port } = await listen(() => {});
  await new Promise<void>((resolve) => server.close(() => resolve())); // the port is now closed
  const store = new PostgresStore({ pool: poolAt(`postgres://app:s3cret@127.0.0.1:${port}/shop`), autoMigrate: false });
  const report = await checkHealth({ store, timeoutMs: 2000 });
  expect(report).toEqual({ ok: false, store: { ok: false, latencyMs: expect.any(Number), error: 'ECONNREFUSED' } });
});

test('PostgreSQL hung (accepts the connection, never answers): ok false, TIMEOUT, from ping and from checkHealth', async () => {
  const sockets: Socket[] = [];
  const { server, port } = await listen((socket) => { sockets.push(socket); });
  try {
    const store = new PostgresStore({ pool: poolAt(`postgres://app:s3cret@127.0.0.1:${port}/shop`), autoMigrate: false });
    await expect(store.ping({ timeoutMs: 50 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    const report = await checkHealth({ store, timeoutMs: 50 });
    expect(report.store).toEqual({ ok: false, latencyMs: expect.any(Number), error: 'TIMEOUT' });
    expect(JSON.stringify(report)).not.toContain('s3cret');
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
