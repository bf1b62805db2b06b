/**
 * checkHealth with PostgresStore.ping: a live database is healthy; PostgreSQL refusing connections
 * (a closed port) or accepting them and never answering (a hung server) is reported not ok within timeoutMs.
 */
import { createServer, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { checkHealth } from 'crossborder-merchant-kit';
import { PostgresStore } from 'crossborder-merchant-kit/store';
import { databaseUrl } from '../store/harness.js';

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

test('a live PostgreSQL: ok', async () => {
  const store = new PostgresStore({ pool: poolAt(databaseUrl()), autoMigrate: false });
  expect(await checkHealth({ store, timeoutMs: 5000 })).toEqual({ ok: true, store: { ok: true, latencyMs: expect.any(Number) } });
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
