/**
 * Instructions per request as a slope (issue 48 item 6): one process under callgrind
 * (bench/callgrind.ts) warms up with `warm-up` requests down an in-memory connection
 * (bench/memory-socket.ts, as bench/instructions.ts), then counts windows of `sizes` requests one
 * after the other (each window zeroed and dumped on its own). Per request = (I(large) − I(small)) /
 * (large − small) for each consecutive small/large pair, which drops what every window pays once
 * (the zero/dump signals); the windows' own per-request figures show how much GC placement and V8's
 * tiering move a window. Every request is a new SendOrderToMerchant (a new OrderId).
 *
 *   node --import tsx bench/instructions-slope.ts [server = kit-node] [sizes = 100,400,100,400,100,400] [warm-up = 1500]
 * BENCH_KIT_DIST=<dir> measures that build's dist/ (default this checkout's). Needs valgrind.
 */
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { callgrindWindows, signal, type WindowCount } from './callgrind.js';
import type { ServerKind } from './fixtures.js';
import { MemorySocket, orderRequestBytes } from './memory-socket.js';
import { build } from './servers.js';

async function drive(kind: ServerKind, warmup: number, sizes: number[]): Promise<void> {
  const requestBytes = await orderRequestBytes();
  const listener = (await build(kind)).server.listeners('request')[0] as http.RequestListener;
  const server = http.createServer({ keepAliveTimeout: 60_000 }, listener);
  const socket = new MemorySocket();
  server.emit('connection', socket);
  const send = async (inputs: Buffer[]) => {
    for (const input of inputs) {
      const reply = await socket.request(input);
      if (reply.status !== 200) throw new Error(`${kind}: status ${reply.status}`);
    }
  };
  await send(Array.from({ length: warmup }, requestBytes));
  for (const size of sizes) {
    // Built before the window opens, so the window holds only the requests.
    const inputs = Array.from({ length: size }, requestBytes);
    await signal('zero');
    await send(inputs);
    await signal('dump');
  }
  process.stdout.write('end\n');
  process.exit(0);
}

if (process.argv[2] === '--child') {
  const [kind, warmup, sizes] = process.argv.slice(3);
  await drive(kind as ServerKind, Number(warmup), sizes.split(',').map(Number));
} else {
  const kind = process.argv[2] ?? 'kit-node';
  const sizes = (process.argv[3] ?? '100,400,100,400,100,400').split(',').map(Number);
  const warmup = Number(process.argv[4] ?? 1500);
  const windows = await callgrindWindows(fileURLToPath(import.meta.url), [kind, String(warmup), sizes.join(',')], kind);
  const per = (x: number, n: number) => Math.round(x / n);
  const slope = (f: (w: WindowCount) => number) => {
    const out: number[] = [];
    for (let i = 0; i + 1 < sizes.length; i += 2) out.push(Math.round((f(windows[i + 1]) - f(windows[i])) / (sizes[i + 1] - sizes[i])));
    return out;
  };
  const n = sizes.reduce((a, b) => a + b, 0);
  const sum = (f: (w: WindowCount) => number) => windows.reduce((a, w) => a + f(w), 0);
  console.log(JSON.stringify({
    kind, dist: process.env.BENCH_KIT_DIST || 'dist', warmup, sizes, windows,
    perRequest: windows.map((w, i) => ({ total: per(w.total, sizes[i]), gc: per(w.gc, sizes[i]), jit: per(w.jit, sizes[i]), rest: per(w.total - w.gc - w.jit, sizes[i]) })),
    slope: slope((w) => w.total), slopeRest: slope((w) => w.total - w.gc - w.jit),
    pooled: { total: per(sum((w) => w.total), n), gc: per(sum((w) => w.gc), n), jit: per(sum((w) => w.jit), n), rest: per(sum((w) => w.total - w.gc - w.jit), n) },
  }));
}
