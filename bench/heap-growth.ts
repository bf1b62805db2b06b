/**
 * Heap kept per delivery, by stages (issue 48 item 6's "head's heap ~1 MB larger after 4,000
 * orders": a leak or a bounded difference?). Each (build, server, store) runs in a fresh child
 * process (`--expose-gc`): the kit server of bench/servers.ts (node:http or Express binding, the
 * benchmark's kit options) from the build's dist/, driven down an in-memory connection
 * (bench/memory-socket.ts: no sockets, no load generator in the process), every request a new
 * SendOrderToMerchant (a new OrderId). After a warm-up, heap used (after full GCs) is read at 0
 * and after each stage's cumulative count of orders; per order = the growth between stages
 * divided by the orders between them.
 * Store `default` is the benchmark's MemoryStore (maxEntries 50,000: every order is kept);
 * `max<N>` is a MemoryStore({ maxEntries: N }) that keeps at most N records, so what still grows
 * with it is retained by the kit (or the store beyond its bound), not the store's records.
 *
 *   node --import tsx bench/heap-growth.ts [builds = head=dist] [servers = kit-node,kit-express] [stores = default,max100] [stages = 2000,4000,8000,16000] [warm-up = 500]
 *     builds: label=<dist folder>, comma-separated (e.g. base=/tmp/perf-base/dist,head=dist)
 *   BENCH_HEAP_SPACES=1: also each V8 heap space's used MB at each point; BENCH_HEAP_NODE_FLAGS: more node flags for the children
 *   BENCH_HEAP_SNAPSHOTS=<dir>: the child also writes a heap snapshot (node:v8) after the warm-up and
 *     after each stage, named <build>-<server>-<store>-<orders>.heapsnapshot (bench/heap-classes.ts reads them)
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import type { ServerKind } from './fixtures.js';
import { MemorySocket, orderRequestBytes } from './memory-socket.js';
import { build } from './servers.js';

const MB = 2 ** 20;

/** Heap used after full GCs (with pauses, so the sweeping of the freed pages is counted). */
async function heapUsed(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run the child with node --expose-gc');
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 20));
  }
  return process.memoryUsage().heapUsed;
}

/** Each V8 heap space's used bytes, in MB (old, code, new, large objects, ...). */
const spaces = () => Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name.replace(/_space$/, ''), +(s.space_used_size / MB).toFixed(2)]));

async function child(kind: ServerKind, stages: number[], warmup: number, label: string): Promise<void> {
  const requestBytes = await orderRequestBytes();
  const listener = (await build(kind)).server.listeners('request')[0] as http.RequestListener;
  const server = http.createServer({ keepAliveTimeout: 60_000 }, listener);
  const socket = new MemorySocket();
  server.emit('connection', socket);
  const send = async (n: number) => {
    for (let i = 0; i < n; i++) {
      const reply = await socket.request(requestBytes());
      if (reply.status !== 200) throw new Error(`${kind}: status ${reply.status}`);
    }
  };
  const snapshots = process.env.BENCH_HEAP_SNAPSHOTS;
  const snap = (orders: number) => { if (snapshots) v8.writeHeapSnapshot(path.join(snapshots, `${label}-${orders}.heapsnapshot`)); };
  await send(warmup);
  const points = [{ orders: 0, heapUsed: await heapUsed(), spaces: spaces() }];
  snap(0);
  let done = 0;
  for (const stage of stages) {
    await send(stage - done);
    done = stage;
    points.push({ orders: stage, heapUsed: await heapUsed(), spaces: spaces() });
    snap(stage);
  }
  process.stdout.write(`${JSON.stringify(points)}\n`);
  process.exit(0);
}

function run(dist: string, kind: string, store: string, stages: number[], warmup: number, label: string): Promise<{ orders: number; heapUsed: number; spaces: Record<string, number> }[]> {
  const max = /^max(\d+)$/.exec(store)?.[1];
  const env = { ...process.env, BENCH_KIT_DIST: dist, BENCH_STORE_MAX_ENTRIES: max ?? '' };
  const script = fileURLToPath(import.meta.url);
  const flags = (process.env.BENCH_HEAP_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
  const proc = spawn(process.execPath, ['--expose-gc', ...flags, '--import', 'tsx', script, '--child', kind, stages.join(','), String(warmup), label], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  proc.stdout.on('data', (c: Buffer) => { out += c; });
  return new Promise((resolve, reject) => proc.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").pop() as string)) : reject(new Error(`${label}: exit ${code}`)))));
}

if (process.argv[2] === '--child') {
  const [kind, stages, warmup, label] = process.argv.slice(3);
  await child(kind as ServerKind, stages.split(',').map(Number), Number(warmup), label);
} else {
  const builds = (process.argv[2] ?? 'head=dist').split(',').map((b) => b.split('='));
  const kinds = (process.argv[3] ?? 'kit-node,kit-express').split(',');
  const stores = (process.argv[4] ?? 'default,max100').split(',');
  const stages = (process.argv[5] ?? '2000,4000,8000,16000').split(',').map(Number);
  const warmup = Number(process.argv[6] ?? 500);
  for (const kind of kinds) {
    for (const store of stores) {
      for (const [name, dist] of builds) {
        const points = await run(path.resolve(dist), kind, store, stages, warmup, `${name}-${kind}-${store}`);
        // Bytes per order between consecutive points, and over the whole run.
        const perOrder = points.slice(1).map((p, i) => Math.round((p.heapUsed - points[i].heapUsed) / (p.orders - points[i].orders)));
        const last = points[points.length - 1];
        console.log(JSON.stringify({
          build: name, kind, store, warmup, heapMb: points.map((p) => ({ orders: p.orders, mb: +(p.heapUsed / MB).toFixed(2) })),
          ...(process.env.BENCH_HEAP_SPACES ? { spacesMb: points.map((p) => ({ orders: p.orders, ...p.spaces })) } : {}),
          bytesPerOrder: perOrder, bytesPerOrderOverall: Math.round((last.heapUsed - points[0].heapUsed) / last.orders),
        }));
      }
    }
  }
}
