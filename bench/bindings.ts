/**
 * What a binding costs per request, without the network: each server (bare node:http, bare Express,
 * bare Fastify, the kit through the node:http, Express, Fastify and fetch bindings; with BENCH_BASELINE=<dir>, also that checkout's kit bindings) gets
 * one in-memory keep-alive connection, and the benchmark order is sent down it request after
 * request (a fresh OrderId each), in this process. The servers take turns in blocks of requests; a
 * server's figure is the CPU time (user + system, this process) of its cheapest block, per request
 * (on a shared machine other processes only ever add to it), so the differences between servers
 * are what their code costs.
 *
 *   npm run build && node --import tsx --import ./bench/compiled-lib.mjs bench/bindings.ts [requests per block = 400] [blocks = 12]
 *   (the kit is the built package, bench/dist.ts; BENCH_BASELINE's dist/ must be built too)
 *   BENCH_ONLY=kit-node,kit-express (servers to run), BENCH_LINES=20 (product lines of the order)
 */
import http from 'node:http';
import { join } from 'node:path';
import express from 'express';
import { loadKit } from './dist.js';
import { kitOptions } from './kit-options.js';
import { MemorySocket, orderRequestBytes } from './memory-socket.js';
import { build } from './servers.js';
import { bareFastify, kitFastify, kitFetch } from './web-servers.js';

type Listener = http.RequestListener;

async function baselineListeners(dir: string): Promise<Record<string, Listener>> {
  const kit = await loadKit(join(dir, 'dist'));
  const app = express();
  app.use('/cb', kit.express.createCallbackRouter(kitOptions(kit).options));
  return {
    'baseline-kit-node': kit.node.createCallbackHandler({ ...kitOptions(kit).options, basePath: '/cb' }) as Listener,
    'baseline-kit-express': app as unknown as Listener,
  };
}

const perBlock = Number(process.argv[2] ?? 400);
const blocks = Number(process.argv[3] ?? 12);
const only = process.env.BENCH_ONLY?.split(',');
const requestBytes = await orderRequestBytes();

const listeners: Record<string, Listener> = {};
for (const kind of ['bare-node', 'bare-express', 'kit-node', 'kit-express'] as const) {
  const server = (await build(kind)).server;
  listeners[kind] = server.listeners('request')[0] as Listener;
}
listeners['bare-fastify'] = await bareFastify();
listeners['kit-fastify'] = await kitFastify();
listeners['kit-fetch'] = await kitFetch();
if (process.env.BENCH_BASELINE) Object.assign(listeners, await baselineListeners(process.env.BENCH_BASELINE));

const connections = Object.entries(listeners).filter(([kind]) => !only || only.includes(kind)).map(([kind, listener]) => {
  const server = http.createServer({ keepAliveTimeout: 60_000 }, listener);
  const socket = new MemorySocket();
  server.emit('connection', socket);
  return { kind, socket, best: Infinity, blocks: [] as number[] };
});

for (let b = -2; b < blocks; b++) { // two warm-up blocks
  // Each block starts with another server (whose turn follows whose changes, and with it who pays
  // for the garbage of the one before).
  const turn = ((b % connections.length) + connections.length) % connections.length;
  for (const c of [...connections.slice(turn), ...connections.slice(0, turn)]) {
    const inputs = Array.from({ length: perBlock }, requestBytes);
    const cpu0 = process.cpuUsage();
    for (const bytes of inputs) {
      const reply = await c.socket.request(bytes);
      if (reply.status !== 200) throw new Error(`${c.kind}: status ${reply.status}`);
    }
    const cpu = process.cpuUsage(cpu0);
    const us = (cpu.user + cpu.system) / perBlock;
    if (b >= 0) {
      c.best = Math.min(c.best, us);
      c.blocks.push(us);
    }
  }
}
const best = Object.fromEntries(connections.map((c) => [c.kind, c.best]));
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
for (const c of connections) {
  console.log(`${c.kind.padEnd(22)} ${c.best.toFixed(1).padStart(7)} µs CPU/request (cheapest block of ${blocks} x ${perBlock}; median block ${median(c.blocks).toFixed(1)})`);
}
const delta = (e: string, n: string) => (best[e] - best[n]).toFixed(1);
if (!only) {
console.log(`Express over node:http: bare +${delta('bare-express', 'bare-node')} µs, kit +${delta('kit-express', 'kit-node')} µs` +
  (best['baseline-kit-express'] ? `, baseline kit +${delta('baseline-kit-express', 'baseline-kit-node')} µs` : ''));
console.log(`Fastify over node:http: bare +${delta('bare-fastify', 'bare-node')} µs, kit +${delta('kit-fastify', 'kit-node')} µs; ` +
  `fetch (through Node's Request/Response) over node:http: kit +${delta('kit-fetch', 'kit-node')} µs`);
}
process.exit(0);
