/** Child-process servers and autocannon load with a distinct OrderId in every request body. */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { KitFeatures } from './kit-options.js';
import { CALLBACK_PATH, ORDER_ID_PLACEHOLDER, type ServerKind } from './fixtures.js';

export interface RunningServer { kind: ServerKind; port: number; child: ChildProcess; features?: KitFeatures }
export interface LoadResult {
  reqPerSec: number; p50: number; p99: number; requests: number; non2xx: number; errors: number;
  /** Server process CPU time (user + system) per request, µs: the cost of one request, whatever the load generator took. */
  serverCpuUsPerReq: number;
  /** Share of one core used by the server / by the load generator (this process) during the run. */
  serverCores: number; generatorCores: number;
}

/** The median of a round's figures (the mean of the middle two for an even count). */
export const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
/** A figure as the summaries print it: grouped thousands, `d` decimals, 'n/a' when not finite. */
export const fmt = (n: number, d = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }) : 'n/a');

const SERVER_FILE = fileURLToPath(new URL('./server.ts', import.meta.url));

/** Node flags for EVERY benchmark server alike (BENCH_NODE_FLAGS, e.g. `--max-semi-space-size=32`): operator tuning, never the kit's only. */
export const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);

/** Node flags of every server process: TypeScript of bench/ through tsx, lib/ from its tsc output (bench/dist.ts). */
const BENCH_LOADERS = ['--import', 'tsx', '--import', fileURLToPath(new URL('./compiled-lib.mjs', import.meta.url))];

/**
 * Starts a server in a child process; a baseline kind runs this checkout's bench/server.ts over
 * `<BENCH_BASELINE>/dist` (its built package: `npm run build` there first).
 * `extraExecArgv` come after BENCH_NODE_FLAGS (so they win); `pipeStdout` leaves the child's stdout to read (bench/gc.ts).
 */
export function startServer(kind: ServerKind, extraExecArgv: string[] = [], pipeStdout = false): Promise<RunningServer> {
  const baseline = kind.startsWith('baseline-') ? process.env.BENCH_BASELINE : undefined;
  const args = baseline ? [kind.slice('baseline-'.length), join(baseline, 'dist')] : [kind];
  const child = fork(SERVER_FILE, args, {
    execArgv: [...BENCH_LOADERS, '--expose-gc', ...NODE_FLAGS, ...extraExecArgv],
    stdio: ['ignore', pipeStdout ? 'pipe' : 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`${kind} server exited with ${code} before listening`));
    child.once('exit', onExit);
    child.on('message', function onReady(msg: { type?: string; port?: number; features?: KitFeatures }) {
      if (msg?.type !== 'ready') return;
      child.off('message', onReady);
      child.off('exit', onExit);
      resolve({ kind, port: msg.port!, child, features: msg.features });
    });
  });
}

export function stopServer(server: RunningServer): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null) return resolve();
    const timer = setTimeout(() => server.child.kill('SIGKILL'), 5000);
    server.child.once('exit', () => { clearTimeout(timer); resolve(); });
    server.child.send({ type: 'exit' });
  });
}

export interface ServerStats { memory: NodeJS.MemoryUsage; cpu: NodeJS.CpuUsage; /** V8's new space (both semi-spaces), bytes. */ newSpaceBytes: number }

/** Memory and CPU usage of a server process (after a full GC when `gc`). */
export function statsOf(server: RunningServer, gc = false): Promise<ServerStats> {
  return new Promise((resolve) => {
    server.child.on('message', function onStats(msg: { type?: string } & ServerStats) {
      if (msg?.type !== 'stats') return;
      server.child.off('message', onStats);
      resolve({ memory: msg.memory, cpu: msg.cpu, newSpaceBytes: msg.newSpaceBytes });
    });
    server.child.send({ type: 'stats', gc });
  });
}

let sequence = 0;
const runTag = Date.now().toString(36);

/** Distinct OrderIds across rounds, servers and runs (so idempotency never short-cuts). */
export const nextOrderId = () => `GE${runTag}-${++sequence}`;

export interface LoadSpec { durationSec?: number; amount?: number; connections: number; template: string; headers: Record<string, string> }

export async function load(server: RunningServer, spec: LoadSpec): Promise<LoadResult> {
  const [head, tail] = spec.template.split(ORDER_ID_PLACEHOLDER);
  const before = await statsOf(server);
  const genBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}`,
    connections: spec.connections,
    ...(spec.amount ? { amount: spec.amount } : { duration: spec.durationSec ?? 10 }),
    requests: [{
      method: 'POST',
      path: CALLBACK_PATH,
      headers: { 'content-type': 'application/json', ...spec.headers },
      setupRequest: (req) => ({ ...req, body: head + nextOrderId() + tail }),
    }],
  });
  const wallUs = (performance.now() - wallBefore) * 1000;
  const gen = process.cpuUsage(genBefore);
  const after = await statsOf(server);
  const serverUs = after.cpu.user - before.cpu.user + after.cpu.system - before.cpu.system;
  return {
    serverCpuUsPerReq: serverUs / Math.max(1, result.requests.total),
    serverCores: serverUs / wallUs,
    generatorCores: (gen.user + gen.system) / wallUs,
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** One request with a fresh OrderId: the status and body, to check a server answers as expected. */
export async function probe(server: RunningServer, spec: Pick<LoadSpec, 'template' | 'headers'>): Promise<{ status: number; body: unknown; headerBytes: number; bodyBytes: number }> {
  const body = spec.template.replace(ORDER_ID_PLACEHOLDER, nextOrderId());
  const res = await fetch(`http://127.0.0.1:${server.port}${CALLBACK_PATH}`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...spec.headers }, body,
  });
  const text = await res.text();
  let headerBytes = 0;
  res.headers.forEach((value, name) => { headerBytes += name.length + value.length + 4; });
  let parsed: unknown = null;
  try { parsed = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, body: parsed, headerBytes, bodyBytes: Buffer.byteLength(text) };
}
