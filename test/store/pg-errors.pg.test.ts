/**
 * PostgresStore's misconfiguration messages (issue 41, item 7), against a real server: pg's raw
 * ECONNREFUSED / unknown database / unknown role become a KitError naming the setting to check and
 * the host, port and database — never the password; a malformed connection string is refused when
 * the store is built, instead of pg quietly connecting to the default host and port.
 */
import net from 'node:net';
import pg from 'pg';
import { KitError } from '../../lib/shared/errors.js';
import { PostgresStore } from '../../lib/store/index.js';
import { order } from '../helpers/orders.js';
import { kitWith } from '../idempotency/harness.js';

const url = process.env.TEST_DATABASE_URL;
if (!url) throw new Error('TEST_DATABASE_URL is required for *.pg.test.ts (test/setup starts a server)');
const base = new URL(url);
const PASSWORD = 's3cret-Pa55word';

const pools: pg.Pool[] = [];
afterAll(async () => { await Promise.all(pools.map((p) => p.end())); });
const storeFor = (connectionString: string) => {
  const pool = new pg.Pool({ connectionString, connectionTimeoutMillis: 5000 });
  pools.push(pool);
  return new PostgresStore({ pool, logger: { error() {} } });
};
const withUrl = (change: (u: URL) => void) => { const u = new URL(url); change(u); return u.toString(); };

async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

async function failure(store: PostgresStore): Promise<KitError> {
  const err = await store.migrate().then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(KitError);
  expect((err as KitError).code).toBe('ERR_CBK_STORE_CONNECTION');
  expect((err as Error).message).not.toContain(PASSWORD);
  expect(JSON.stringify(err)).not.toContain(PASSWORD);
  return err as KitError;
}

test('nothing listening: names host and port, says to check them; the password is not in the message', async () => {
  const port = await closedPort();
  const err = await failure(storeFor(`postgres://shop:${PASSWORD}@127.0.0.1:${port}/shop`));
  expect(err.message).toBe(`PostgresStore could not connect (ECONNREFUSED at 127.0.0.1:${port}, database "shop"): nothing accepts connections at 127.0.0.1:${port}: is PostgreSQL running there? Check the host and port of the connection string [ERR_CBK_STORE_CONNECTION]`);
  expect((err as Error & { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
});

test('a database that does not exist: names it, the host and port, and the setting to check', async () => {
  const err = await failure(storeFor(withUrl((u) => { u.pathname = '/no_such_db_41'; u.password = PASSWORD; })));
  expect(err.message).toContain(`the database "no_such_db_41" does not exist on ${base.hostname}:${base.port}: check the database of the connection string`);
});

test('a role that does not exist: names the user and the setting to check', async () => {
  const err = await failure(storeFor(withUrl((u) => { u.username = 'no_such_role_41'; u.password = PASSWORD; })));
  expect(err.message).toMatch(/refused the role "no_such_role_41": check the user of the connection string|the password of "no_such_role_41" was refused/);
  expect(err.message).toContain(`${base.hostname}:${base.port}`);
});

test('a query error that is neither about connecting nor about missing tables is passed through unchanged', async () => {
  const pool = new pg.Pool({ connectionString: url });
  pools.push(pool);
  const store = new PostgresStore({ pool, logger: { error() {} } });
  const err = await (store as unknown as { pool: pg.Pool }).pool.query('SELECT 1/0').then(() => undefined, (e: unknown) => e);
  expect(err).not.toBeInstanceOf(KitError);
  expect((err as { code?: string }).code).toBe('22012');
});

test('a store never migrated (autoMigrate off, a schema of its own): says to run `crossborder-merchant-kit migrate`, pg\'s error as cause', async () => {
  const pool = new pg.Pool({ connectionString: url });
  pools.push(pool);
  const store = new PostgresStore({ pool, schema: `never_migrated_${process.pid}`, autoMigrate: false, logger: { error() {} } });
  const err = await store.getRecord('k').then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(KitError);
  expect((err as KitError).code).toBe('ERR_CBK_STORE_NOT_MIGRATED');
  expect((err as Error).message).toContain(`PostgresStore's tables are not in database "${base.pathname.slice(1)}" at ${base.hostname}:${base.port} (`);
  expect((err as Error).message).toContain('run `crossborder-merchant-kit migrate` (or `await store.migrate()`) with the same connection and schema before serving');
  expect(['42P01', '3F000', '42883']).toContain((err as Error & { cause?: { code?: string } }).cause?.code);
});

test('a delivery on a store never migrated: the 503 is logged with what to run', async () => {
  const pool = new pg.Pool({ connectionString: url });
  pools.push(pool);
  const store = new PostgresStore({ pool, schema: `never_migrated_d_${process.pid}`, autoMigrate: false, logger: { error() {} } });
  const t = kitWith(store);
  expect((await t.deliver('sendOrderToMerchant', order())).status).toBe(503);
  const failed = t.log.lines.find((l) => l.level === 'error' && (l.obj as { err?: { code?: string } }).err?.code === 'ERR_CBK_STORE_NOT_MIGRATED');
  expect(JSON.stringify(failed?.obj)).toContain('run `crossborder-merchant-kit migrate`');
});

test.each([
  ['a slash missing', 'postgres:/127.0.0.1:55433/shop', /does not start with postgres:\/\/ \(a slash missing\?\)/],
  ['another scheme', 'mysql://127.0.0.1/shop', /does not start with postgres:\/\/ or postgresql:\/\//],
  ['a port that is not a number', 'postgresql://127.0.0.1:port/shop', /is not a URL/],
  ['no scheme at all', '127.0.0.1:5432/shop', /does not start with postgres:\/\//],
])('a malformed connection string (%s) is refused when the store is built', (_name, connectionString, message) => {
  const pool = new pg.Pool({ connectionString });
  pools.push(pool);
  let err: unknown;
  try { new PostgresStore({ pool }); } catch (e) { err = e; }
  expect(err).toBeInstanceOf(KitError);
  expect((err as KitError).code).toBe('ERR_CBK_OPTION_INVALID');
  expect((err as Error).message).toMatch(message);
});
