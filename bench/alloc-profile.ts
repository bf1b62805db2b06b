/**
 * WHICH functions allocate, per request: one server of the benchmark (bench/servers.ts) driven in
 * this process down an in-memory keep-alive connection (bench/memory-socket.ts), warmed up, then
 * V8's sampling heap profiler runs over `n` requests counting every sampled allocation, also those
 * already collected (`includeObjectsCollectedByMinorGC/MajorGC`). Prints bytes allocated per request
 * by function (self), by the nearest caller in lib/ or bench/, and by file, largest first. The sampling is statistical (one sample every
 * `BENCH_SAMPLE_BYTES`, default 512): shares, not exact bytes.
 *
 *   node --import tsx bench/alloc-profile.ts [kind = kit-node] [n = 3000] [warm-up = 6000] [top = 25]
 */
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import type { ServerKind } from './fixtures.js';
import { MemorySocket, orderRequestBytes } from './memory-socket.js';
import { build } from './servers.js';

const [kind = 'kit-node', n = '3000', warm = '6000', top = '25'] = process.argv.slice(2);
const requestBytes = await orderRequestBytes();
const server = http.createServer({ keepAliveTimeout: 60_000 }, (await build(kind as ServerKind)).server.listeners('request')[0] as http.RequestListener);
const socket = new MemorySocket();
server.emit('connection', socket);
const send = async (count: number) => {
  for (let i = 0; i < count; i++) {
    const reply = await socket.request(requestBytes());
    if (reply.status !== 200) throw new Error(`${kind}: status ${reply.status}`);
  }
};

await send(Number(warm));
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
await session.post('HeapProfiler.startSampling', {
  samplingInterval: Number(process.env.BENCH_SAMPLE_BYTES ?? 512), includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true,
});
await send(Number(n));
const { profile } = await session.post('HeapProfiler.stopSampling');

type Node = (typeof profile)['head'];
const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
const short = (url: string) => url.replace(/^file:\/\//, '').replace(process.cwd() + '/', '').replace(/.*node_modules\//, 'node_modules/');
/** Self bytes charged to the nearest caller in this repository (lib/, bench/): who asked Node or V8 to allocate. */
const byOwnCaller = new Map<string, number>();
let total = 0;
(function walk(node: Node, own: string) {
  const { functionName, url } = node.callFrame;
  const file = url ? short(url) : '(native/VM)';
  const key = `${functionName || '(anonymous)'} ${file}`;
  const ownHere = /^(lib|bench)\//.test(file) ? key : own;
  byFunction.set(key, (byFunction.get(key) ?? 0) + node.selfSize);
  byFile.set(file, (byFile.get(file) ?? 0) + node.selfSize);
  byOwnCaller.set(ownHere, (byOwnCaller.get(ownHere) ?? 0) + node.selfSize);
  total += node.selfSize;
  for (const child of node.children) walk(child, ownHere);
})(profile.head, '(no caller in lib/ or bench/: Node itself)');

const perReq = (bytes: number) => `${(bytes / Number(n)).toFixed(0).padStart(8)} B/req ${((bytes / total) * 100).toFixed(1).padStart(5)} %`;
console.log(`${kind}: ${(total / Number(n) / 1024).toFixed(1)} kB sampled per request over ${n} requests after ${warm}`);
console.log('\nby function (self):');
for (const [k, v] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) console.log(`${perReq(v)}  ${k}`);
console.log('\nby nearest caller in lib/ or bench/ (self bytes of Node and V8 functions included):');
for (const [k, v] of [...byOwnCaller].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) console.log(`${perReq(v)}  ${k}`);
console.log('\nby file:');
for (const [k, v] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) console.log(`${perReq(v)}  ${k}`);
process.exit(0);
