/**
 * Instructions per request, counted (not timed): for each server, this script runs itself twice under
 * valgrind's callgrind, both times sending `warm-up` requests down an in-memory connection
 * (bench/memory-socket.ts), then 0 and `n` more; the difference of the two totals, divided by `n`, is
 * what one request costs in executed instructions (all threads: V8's compiler and GC threads too).
 * Other processes do not change the count, so it is the A/B measure on a busy machine; it is not a
 * time (a cache miss counts as one instruction).
 *
 *   node --import tsx bench/instructions.ts [servers = kit-node,kit-express] [n = 300] [warm-up = 1500]
 *   servers: bare-node, bare-express, peer-node, peer-express, kit-node, kit-express
 * Needs valgrind. Takes minutes per server. BENCH_LINES sizes the order (default 20); BENCH_CONCURRENCY
 * (default 1) connections send at once, each with one request in flight.
 */
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { callgrindCount, signal } from './callgrind.js';
import type { ServerKind } from './fixtures.js';
import { MemorySocket, orderRequestBytes } from './memory-socket.js';
import { build } from './servers.js';

async function drive(kind: ServerKind, warmup: number, n: number): Promise<void> {
  const requestBytes = await orderRequestBytes();
  const listener = (await build(kind)).server.listeners('request')[0] as http.RequestListener;
  const server = http.createServer({ keepAliveTimeout: 60_000 }, listener);
  // BENCH_CONCURRENCY connections, each with one request in flight (as autocannon's connections):
  // deliveries then overlap, as they do through sockets (more live objects at each GC).
  const sockets = Array.from({ length: Math.max(1, Number(process.env.BENCH_CONCURRENCY ?? 1)) }, () => {
    const socket = new MemorySocket();
    server.emit('connection', socket);
    return socket;
  });
  // The request bytes are built up front, so the counted window holds only the requests.
  const send = async (inputs: Buffer[]) => {
    let next = 0;
    await Promise.all(sockets.map(async (socket) => {
      while (next < inputs.length) {
        const reply = await socket.request(inputs[next++]);
        if (reply.status !== 200) throw new Error(`${kind}: status ${reply.status}`);
      }
    }));
  };
  const warm = Array.from({ length: warmup }, requestBytes);
  const counted = Array.from({ length: n }, requestBytes);
  await send(warm);
  await signal('zero');
  await send(counted);
  await signal('dump');
  process.exit(0);
}


/** Instructions of `n` requests after `warmup`, counted between the child's two signals. */
function count(kind: string, warmup: number, n: number): Promise<number> {
  return callgrindCount(fileURLToPath(import.meta.url), [kind, String(warmup), String(n)], kind);
}

if (process.argv[2] === '--child') {
  const [kind, warmup, n] = process.argv.slice(3);
  await drive(kind as ServerKind, Number(warmup), Number(n));
} else {
  const kinds = (process.argv[2] ?? 'kit-node,kit-express').split(',');
  const n = Number(process.argv[3] ?? 300);
  const warmup = Number(process.argv[4] ?? 1500);
  for (const kind of kinds) {
    const total = await count(kind, warmup, n);
    console.log(`${kind.padEnd(14)} ${Math.round(total / n).toLocaleString('en').padStart(10)} instructions/request (${n} requests after ${warmup})`);
  }
}
