/**
 * Claims and saves per second of each store, on this machine: MemoryStore, PostgresStore (a
 * throwaway cluster, or BENCH_DATABASE_URL), RedisStore (a throwaway redis-server, node-redis client,
 * AOF with appendfsync everysec as docs/stores.md advises) and DynamoDBStore (dynalite: an emulator
 * on LevelDB, so its row says what the store costs here, not what DynamoDB answers in; see
 * docs/performance.md). A store whose engine is missing is skipped, with the reason.
 *
 * - claims/s: `acquire` then `release` of a fresh OrderId (what a delivery that fails does);
 * - saves/s: `acquire` then `lock.saveAndRelease` of a reply (what a successful delivery does:
 *   the claim, the fenced save and the release; MemoryStore, without it: saveRecord,
 *   saveMerchantOrderIds and release, as the kit does), the deliveries' own work left out.
 * Each runs CONCURRENCY deliveries at once (distinct OrderIds) for SECONDS seconds, after a warm-up.
 *
 *   node --import tsx bench/store-ops.ts [--seconds 3] [--concurrency 16] [--json bench/results/store-ops.json]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createClient } from 'redis';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { MemoryStore } from '../lib/store/memory.js';
import { PostgresStore } from '../lib/store/postgres.js';
import { RedisStore } from '../lib/store/redis/index.js';
import { DynamoDBStore } from '../lib/store/dynamodb/index.js';
import type { NewRecord, Store } from '../lib/store/types.js';
import { startBenchPostgres } from './pg.js';
import { freePort, listening } from '../test/store/engines/redis-server.js';

const args = process.argv.slice(2);
const flag = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const SECONDS = Number(flag('--seconds') ?? 3);
const CONCURRENCY = Number(flag('--concurrency') ?? 16);
const JSON_OUT = flag('--json');
const LEASE = { waitMs: 5_000, leaseMs: 30_000 };

let seq = 0;
const reply = (orderId: string): NewRecord => ({
  key: `sendOrderToMerchant:${orderId}:h${seq}`, callback: 'sendOrderToMerchant', orderId, hash: `h${seq}`,
  response: { Success: true, InternalOrderId: `INT-${orderId}`, OrderId: orderId }, payment: false,
});

/** Operations per second of `op` run CONCURRENCY at a time for `seconds`. */
async function rate(op: (orderId: string) => Promise<void>, seconds: number): Promise<number> {
  const until = Date.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (Date.now() < until) {
      await op(`BENCH-${process.pid}-${seq++}`);
      done++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return done / ((performance.now() - started) / 1000);
}

const claim = (store: Store) => async (orderId: string) => {
  const lock = await store.acquire(orderId, LEASE);
  await lock!.release();
};
const save = (store: Store) => async (orderId: string) => {
  const lock = (await store.acquire(orderId, LEASE))!;
  if (lock.saveAndRelease) return lock.saveAndRelease(reply(orderId), [`INT-${orderId}`]);
  // A store without it (MemoryStore): what the kit does instead.
  await store.saveRecord(reply(orderId));
  await store.saveMerchantOrderIds!(orderId, [`INT-${orderId}`]);
  await lock.release();
};

interface Engine { name: string; store?: Store; skipped?: string; stop(): Promise<void> }

async function memory(): Promise<Engine> {
  return { name: 'MemoryStore', store: new MemoryStore({ maxEntries: 5_000_000 }), stop: async () => {} };
}

async function postgres(): Promise<Engine> {
  const cluster = startBenchPostgres();
  if (!cluster) return { name: 'PostgresStore', skipped: 'no PostgreSQL (BENCH_DATABASE_URL, or initdb on PATH)', stop: async () => {} };
  const pool = new pg.Pool({ connectionString: cluster.url, max: 20 });
  const store = new PostgresStore({ pool, schema: `bench_ops_${process.pid}`, purge: false });
  await store.migrate();
  return { name: 'PostgresStore', store, stop: async () => { await pool.end(); cluster.stop(); } };
}

async function redis(): Promise<Engine> {
  const bin = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
  if (!fs.existsSync(bin)) return { name: 'RedisStore', skipped: `no ${bin} (apt-get install redis-server)`, stop: async () => {} };
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cbk-bench-redis-'));
  const child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'everysec'], { stdio: 'ignore' });
  await listening(port);
  const client = createClient({ url: `redis://127.0.0.1:${port}` });
  await client.connect();
  return {
    name: 'RedisStore', store: new RedisStore({ client }),
    stop: async () => { await client.quit(); child.kill('SIGKILL'); fs.rmSync(dir, { recursive: true, force: true }); },
  };
}

async function dynamodb(): Promise<Engine> {
  const port = await freePort();
  const cli = createRequire(import.meta.url).resolve('dynalite/cli.js');
  const child = spawn(process.execPath, [cli, '--port', String(port), '--host', '127.0.0.1', '--createTableMs', '0'], { stdio: 'ignore', env: { ...process.env, NODE_OPTIONS: '' } });
  await listening(port);
  const client = new DynamoDBClient({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' } });
  const store = new DynamoDBStore({ client, tableName: 'bench-ops' });
  await store.createTable();
  return { name: 'DynamoDBStore (dynalite)', store, stop: async () => { client.destroy(); child.kill('SIGKILL'); } };
}

const rows: { store: string; claimsPerSecond?: number; savesPerSecond?: number; skipped?: string }[] = [];
for (const start of [memory, postgres, redis, dynamodb]) {
  const engine = await start();
  try {
    if (!engine.store) {
      rows.push({ store: engine.name, skipped: engine.skipped });
      continue;
    }
    await rate(save(engine.store), 0.5); // warm-up: connections, prepared statements, scripts loaded
    const claimsPerSecond = await rate(claim(engine.store), SECONDS);
    const savesPerSecond = await rate(save(engine.store), SECONDS);
    rows.push({ store: engine.name, claimsPerSecond, savesPerSecond });
  } finally {
    await engine.stop();
  }
}

const load = os.loadavg();
process.stdout.write(`store operations, ${CONCURRENCY} at once, ${SECONDS} s each; node ${process.version}, ${os.cpus().length} CPUs, load average ${load.map((l) => l.toFixed(2)).join(' ')}\n`);
process.stdout.write(`${'store'.padEnd(28)}${'claims/s'.padStart(12)}${'saves/s'.padStart(12)}\n`);
for (const r of rows) {
  if (r.skipped) process.stdout.write(`${r.store.padEnd(28)}  skipped: ${r.skipped}\n`);
  else process.stdout.write(`${r.store.padEnd(28)}${Math.round(r.claimsPerSecond!).toString().padStart(12)}${Math.round(r.savesPerSecond!).toString().padStart(12)}\n`);
}
if (JSON_OUT) fs.writeFileSync(JSON_OUT, `${JSON.stringify({ node: process.version, seconds: SECONDS, concurrency: CONCURRENCY, loadavg: load, rows }, null, 2)}\n`);
process.exit(0);
