/**
 * A store span of a failed PostgreSQL call keeps the database's own code: since pg's connection
 * errors became `ERR_CBK_STORE_CONNECTION` (error.type), the SQLSTATE that says which (3D000: no such
 * database, 28000: no such role) is `db.response.status_code` beside it (OpenTelemetry's database
 * conventions); a refused connection (ECONNREFUSED, no answer from a database) has none. Nothing of
 * the connection string (password, user, database name) reaches an exported span or metric.
 */
import { createServer } from 'node:net';
import pg from 'pg';
import { PostgresStore } from 'crossborder-merchant-kit/store';
import { databaseUrl } from '../store/harness.js';
import { order } from '../helpers/orders.js';
import { testKit } from '../helpers/kit.js';
import { installOtel, type OtelHarness } from '../helpers/otel.js';

const PASSWORD = 'pw-never-in-a-span-7f3a';
const pools: pg.Pool[] = [];
afterAll(async () => { await Promise.all(pools.map((p) => p.end().catch(() => {}))); });

let otel: OtelHarness;
beforeEach(() => { otel = installOtel(); });
afterEach(() => otel.uninstall());

/** The test database's URL with `change` applied and a password that must never be exported. */
function urlWith(change: (u: URL) => void): string {
  const url = new URL(databaseUrl());
  url.password = PASSWORD;
  change(url);
  return url.toString();
}

/** One delivery over a PostgresStore on `connectionString`: the failed store spans it made. */
async function failedStoreSpans(connectionString: string) {
  const pool = new pg.Pool({ connectionString, max: 1, connectionTimeoutMillis: 5000 });
  pool.on('error', () => {});
  pools.push(pool);
  const t = testKit({ store: new PostgresStore({ pool, autoMigrate: false }) });
  const reply = await t.deliver('sendOrderToMerchant', order({ OrderId: 'GE-DB-1' }));
  expect(reply.status).toBe(503);
  const failed = otel.spans().filter((s) => s.name.startsWith('store ') && s.attributes['error.type'] !== undefined);
  expect(failed.length).toBeGreaterThan(0);
  return failed;
}

async function expectNothingOf(connectionString: string, ...also: string[]) {
  const exported = await otel.everything();
  for (const secret of [PASSWORD, connectionString, ...also]) expect(exported).not.toContain(secret);
}

test.each([
  ['a database that does not exist', '3D000', (u: URL) => { u.pathname = '/cbk_no_such_database_41'; }, 'cbk_no_such_database_41'],
  ['a role that does not exist', '28000', (u: URL) => { u.username = 'cbk_no_such_role_41'; }, 'cbk_no_such_role_41'],
])('%s: error.type ERR_CBK_STORE_CONNECTION and db.response.status_code %s, nothing of the connection string', async (_what, sqlstate, change, name) => {
  const cs = urlWith(change);
  const failed = await failedStoreSpans(cs);
  for (const span of failed) {
    expect(span.attributes).toMatchObject({ 'error.type': 'ERR_CBK_STORE_CONNECTION', 'db.response.status_code': sqlstate });
  }
  await expectNothingOf(cs, name);
});

test('a refused connection (nothing listening): ERR_CBK_STORE_CONNECTION and no db.response.status_code (the database never answered)', async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const cs = urlWith((u) => { u.hostname = '127.0.0.1'; u.port = String(port); });
  const failed = await failedStoreSpans(cs);
  for (const span of failed) {
    expect(span.attributes['error.type']).toBe('ERR_CBK_STORE_CONNECTION');
    expect(span.attributes).not.toHaveProperty('db.response.status_code');
  }
  await expectNothingOf(cs);
});
