/**
 * PostgresStore rows of `npm run bench`: the kit (node:http binding) on a PostgresStore, one process
 * and two processes sharing one database, at 10 and 50 connections; throughput, p50/p99, server CPU
 * per request, statements per request (pg_stat_statements) and PostgreSQL CPU per request.
 * PostgreSQL: BENCH_DATABASE_URL, else a throwaway cluster started with .ci/postgres.sh (with
 * pg_stat_statements preloaded) and stopped at the end; without either the rows are skipped.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { load, startServer, stopServer, type LoadResult, type LoadSpec, type RunningServer } from './load.js';

const SCRIPT = fileURLToPath(new URL('../.ci/postgres.sh', import.meta.url));
/** Linux clock ticks per second (USER_HZ), the unit of /proc/<pid>/stat times. */
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;

export interface BenchPostgres { url: string; postmasterPid: number | null; stop(): void }

export function startBenchPostgres(): BenchPostgres | null {
  if (process.env.BENCH_DATABASE_URL) return { url: process.env.BENCH_DATABASE_URL, postmasterPid: null, stop() {} };
  if (spawnSync('bash', [SCRIPT, 'has'], { stdio: 'ignore' }).status !== 0) return null;
  const dir = mkdtempSync(join(tmpdir(), 'cbk-bench-pg-'));
  const out = execFileSync('bash', [SCRIPT, 'start', dir], {
    env: { ...process.env, PG_EXTRA_OPTS: '-c shared_preload_libraries=pg_stat_statements' },
  }).toString();
  const url = /TEST_DATABASE_URL=(\S+)/.exec(out)?.[1];
  if (!url) throw new Error(`could not start PostgreSQL: ${out}`);
  const pid = Number(readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  return { url, postmasterPid: pid, stop: () => { execFileSync('bash', [SCRIPT, 'stop', dir], { stdio: 'ignore' }); } };
}

/**
 * CPU time (user + system, µs) of a cluster: its postmaster, the processes it runs, and those that
 * ended (the postmaster's cutime/cstime: it waits for every backend it started).
 */
function clusterCpuUs(postmaster: number): number {
  let ticks = 0;
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(d) === postmaster) ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
      else if (Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
    } catch { /* the process ended */ }
  }
  return (ticks * 1e6) / CLK_TCK;
}

export interface PgRow {
  scenario: string; processes: number; connections: number; batched: boolean;
  reqPerSec: number; p50: number; p99: number; requests: number; non2xx: number;
  serverCpuUsPerReq: number;
  statementsPerReq: number | null;
  postgresCpuUsPerReq: number | null;
  statements: Array<{ calls: number; query: string }>;
}

async function statementCalls(pool: pg.Pool): Promise<Array<{ calls: number; query: string }> | null> {
  try {
    const { rows } = await pool.query(`SELECT calls::bigint AS calls, query FROM pg_stat_statements
      WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT ILIKE '%pg_stat_statements%'`);
    return rows.map((r) => ({ calls: Number(r.calls), query: String(r.query).replace(/\s+/g, ' ') }));
  } catch {
    return null;
  }
}

const EXACT_REQUESTS = 500;

export interface PgResults {
  rows: PgRow[];
  /** Statements per request over exactly 500 first deliveries (the rows' figures include requests cut off at the end of a round). */
  exactStatements: number | null;
  note: string;
}

/** Whether the rows with `batchStatements: false` run too (`BENCH_PG_UNBATCHED=0`: not). */
const UNBATCHED = process.env.BENCH_PG_UNBATCHED !== '0';

/** One row: the servers `used` under load together, with PostgreSQL's statements and CPU over the round. */
async function pgRow(pool: pg.Pool, cluster: BenchPostgres, used: RunningServer[], spec: Omit<LoadSpec, 'connections'>,
  connections: number, durationSec: number, batched: boolean): Promise<PgRow> {
  const processes = used.length;
  await pool.query('SELECT pg_stat_statements_reset()').catch(() => {});
  const cpuBefore = cluster.postmasterPid ? clusterCpuUs(cluster.postmasterPid) : null;
  const results: LoadResult[] = await Promise.all(used.map((s) => load(s, { ...spec, connections: connections / processes, durationSec })));
  const cpuAfter = cluster.postmasterPid ? clusterCpuUs(cluster.postmasterPid) : null;
  const calls = await statementCalls(pool);
  const requests = results.reduce((a, r) => a + r.requests, 0);
  return {
    scenario: `kit-node-pg x${processes}${batched ? '' : ' unbatched'}`, processes, connections, batched,
    reqPerSec: results.reduce((a, r) => a + r.reqPerSec, 0),
    p50: Math.max(...results.map((r) => r.p50)), p99: Math.max(...results.map((r) => r.p99)),
    requests, non2xx: results.reduce((a, r) => a + r.non2xx + r.errors, 0),
    serverCpuUsPerReq: results.reduce((a, r) => a + r.serverCpuUsPerReq * r.requests, 0) / Math.max(1, requests),
    statementsPerReq: calls ? calls.reduce((a, c) => a + c.calls, 0) / Math.max(1, requests) : null,
    postgresCpuUsPerReq: cpuBefore !== null && cpuAfter !== null ? (cpuAfter - cpuBefore) / Math.max(1, requests) : null,
    statements: (calls ?? []).sort((a, b) => b.calls - a.calls).slice(0, 8).map((c) => ({ calls: c.calls, query: c.query.slice(0, 90) })),
  };
}

export async function runPostgresRows(spec: Omit<LoadSpec, 'connections'>, durationSec: number, warmupSec: number, connectionSets: number[]): Promise<PgResults> {
  const cluster = startBenchPostgres();
  if (!cluster) return { rows: [], exactStatements: null, note: 'skipped: no BENCH_DATABASE_URL and no PostgreSQL binaries' };
  const pool = new pg.Pool({ connectionString: cluster.url, max: 2 });
  const servers: RunningServer[] = [];
  try {
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements').catch(() => {});
    await pool.query('DROP SCHEMA IF EXISTS cbk_bench CASCADE');
    process.env.BENCH_PG_URL = cluster.url;
    const rows: PgRow[] = [];
    // For comparison in the same run, first one statement per claim and save (10 connections), then the default (batchStatements).
    for (const batched of UNBATCHED ? [false, true] : [true]) {
      process.env.BENCH_PG_BATCH = batched ? '1' : '0';
      await Promise.all(servers.splice(0).map(stopServer));
      for (let i = 0; i < 2; i++) servers.push(await startServer('kit-node-pg'));
      for (const s of servers) await load(s, { ...spec, connections: 10, durationSec: warmupSec });
      for (const processes of [1, 2]) {
        for (const connections of batched ? connectionSets : connectionSets.filter((c) => c === 10)) {
          rows.push(await pgRow(pool, cluster, servers.slice(0, processes), spec, connections, durationSec, batched));
        }
      }
    }
    // Exactly counted: N requests (each a first delivery), the statements they caused.
    await pool.query('SELECT pg_stat_statements_reset()').catch(() => {});
    const exact = await load(servers[0], { ...spec, connections: 10, amount: EXACT_REQUESTS });
    const calls = await statementCalls(pool);
    const exactStatements = calls && exact.requests === EXACT_REQUESTS ? calls.reduce((a, c) => a + c.calls, 0) / EXACT_REQUESTS : null;
    return { rows, exactStatements, note: cluster.postmasterPid ? 'throwaway cluster (fsync off, synchronous_commit off), same machine' : `BENCH_DATABASE_URL (PostgreSQL CPU not measured)` };
  } finally {
    await Promise.all(servers.map(stopServer));
    await pool.end().catch(() => {});
    cluster.stop();
  }
}
