/**
 * Allocation and garbage collection per request, and what V8's semi-space size does to it: each
 * server of `npm run bench` (bench/server.ts, its own child process, 127.0.0.1 only) runs once per
 * semi-space setting with `--trace-gc-nvp`, all under the same autocannon load in rotating rounds
 * (as bench/run.ts). Per server and setting, medians over the rounds: server CPU µs per request
 * (as bench/run.ts measures it), bytes allocated per request (the sum of V8's `allocated=` over the
 * collections in the round), scavenges and mark-compacts per 1,000 requests, main-thread GC pause
 * per request (µs), V8's helper threads' GC time per request (concurrent marking and sweeping,
 * parallel scavenging: `background.*`, µs), and new space's size (both semi-spaces) at the end.
 *
 *   node --import tsx bench/gc.ts
 *   BENCH_ONLY=bare-node,kit-node,peer-express,kit-express  BENCH_GC_SEMI=default,16,32,64 (MB; `default`: no flag)
 *   BENCH_WARMUP=5 BENCH_DURATION=5 BENCH_ROUNDS=3 BENCH_CONNECTIONS=10 BENCH_LINES=20 (BENCH_NODE_FLAGS applies to all)
 *   BENCH_GC_LOG=<file>: every --trace-gc-nvp line, prefixed with its server and setting, appended to the file
 */
import { appendFileSync } from 'node:fs';
import { bodyTemplate, type ServerKind } from './fixtures.js';
import { benchToken } from './kit-options.js';
import { fmt, load, median, startServer, statsOf, stopServer, type RunningServer } from './load.js';

const num = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const kinds = (process.env.BENCH_ONLY ?? 'bare-node,kit-node,peer-express,kit-express').split(',') as ServerKind[];
const semis = (process.env.BENCH_GC_SEMI ?? 'default,16,32,64').split(',');
const warmupSec = num('BENCH_WARMUP', 5);
const durationSec = num('BENCH_DURATION', 5);
const rounds = num('BENCH_ROUNDS', 3);
const connections = num('BENCH_CONNECTIONS', 10);

/** One collection as `--trace-gc-nvp` prints it. */
interface Gc { kind: string; pauseMs: number; allocated: number; incrementalMs: number; backgroundMs: number }
const field = (line: string, name: string) => Number(new RegExp(`(?:^| )${name}=([\\d.]+)`).exec(line)?.[1] ?? 0);

interface Subject { label: string; kind: ServerKind; semi: string; server: RunningServer; gcs: Gc[]; results: Row[] }
interface Row { cpuUs: number; allocatedB: number; scavenges: number; markCompacts: number; pauseUs: number; incrementalUs: number; backgroundUs: number; newSpaceMb: number }

async function start(kind: ServerKind, semi: string): Promise<Subject> {
  const flags = ['--trace-gc-nvp', ...(semi === 'default' ? [] : [`--max-semi-space-size=${semi}`])];
  const server = await startServer(kind, flags, true);
  const subject: Subject = { label: `${kind} semi ${semi}`, kind, semi, server, gcs: [], results: [] };
  let rest = '';
  server.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      if (process.env.BENCH_GC_LOG) appendFileSync(process.env.BENCH_GC_LOG, `${subject.label}: ${line}\n`);
      const kindOf = / gc=(\w+)/.exec(line)?.[1];
      if (!kindOf) continue;
      let backgroundMs = 0; // concurrent marking, sweeping, parallel scavenging on V8's helper threads
      for (const m of line.matchAll(/ background\.[\w.]+=([\d.]+)/g)) backgroundMs += Number(m[1]);
      subject.gcs.push({ kind: kindOf, pauseMs: field(line, 'pause'), allocated: field(line, 'allocated'), incrementalMs: field(line, 'incremental.steps_took'), backgroundMs });
    }
  });
  return subject;
}

/** Whatever the child printed is in `gcs` once a stats round trip over IPC came back after it. */
const settle = async (s: Subject) => { await statsOf(s.server); await new Promise((r) => setTimeout(r, 100)); };

async function measure(s: Subject, spec: Parameters<typeof load>[1]): Promise<Row> {
  await settle(s);
  const from = s.gcs.length;
  const res = await load(s.server, spec);
  await settle(s);
  const window = s.gcs.slice(from);
  const n = Math.max(1, res.requests);
  const sum = (f: (g: Gc) => number) => window.reduce((a, g) => a + f(g), 0);
  const newSpaceMb = (await statsOf(s.server)).newSpaceBytes / 2 ** 20;
  return {
    cpuUs: res.serverCpuUsPerReq,
    allocatedB: sum((g) => g.allocated) / n,
    scavenges: (window.filter((g) => g.kind === 's').length * 1000) / n,
    markCompacts: (window.filter((g) => g.kind !== 's').length * 1000) / n,
    pauseUs: (sum((g) => g.pauseMs) * 1000) / n,
    incrementalUs: (sum((g) => g.incrementalMs) * 1000) / n,
    backgroundUs: (sum((g) => g.backgroundMs) * 1000) / n,
    newSpaceMb,
  };
}


const spec = { connections, template: bodyTemplate(num('BENCH_LINES', 20)), headers: { authorization: `Bearer ${await benchToken()}` } };
const subjects: Subject[] = [];
for (const kind of kinds) for (const semi of semis) subjects.push(await start(kind, semi));
for (const s of subjects) {
  process.stderr.write(`warm-up ${s.label} ${warmupSec}s\n`);
  await load(s.server, { ...spec, durationSec: warmupSec });
}
for (let r = 0; r < rounds; r++) {
  for (let i = 0; i < subjects.length; i++) {
    const s = subjects[(i + r) % subjects.length];
    const row = await measure(s, { ...spec, durationSec });
    s.results.push(row);
    process.stderr.write(`round ${r + 1}/${rounds} ${s.label.padEnd(26)} ${fmt(row.cpuUs)} µs CPU/req, ${fmt(row.allocatedB / 1024, 1)} kB allocated/req, ` +
      `${fmt(row.scavenges, 1)} scavenges + ${fmt(row.markCompacts, 2)} mark-compacts /1000 req, pause ${fmt(row.pauseUs, 1)} + background ${fmt(row.backgroundUs, 1)} µs/req, new space ${fmt(row.newSpaceMb)} MB\n`);
  }
}
await Promise.all(subjects.map((s) => stopServer(s.server)));

const cols = ['server', 'semi MB', 'CPU µs/req', 'kB alloc/req', 'scav./1k req', 'mark-c./1k req', 'GC pause µs/req', 'incr. µs/req', 'background µs/req', 'new space MB'];
console.log(`\n${durationSec}s x ${rounds} rounds per server and setting, ${connections} connections, after ${warmupSec}s warm-up (medians over rounds)`);
console.log(`| ${cols.join(' | ')} |\n|${cols.map(() => '---').join('|')}|`);
for (const s of subjects) {
  const m = (k: keyof Row) => median(s.results.map((x) => x[k]));
  console.log(`| ${s.kind} | ${s.semi} | ${fmt(m('cpuUs'))} | ${fmt(m('allocatedB') / 1024, 1)} | ${fmt(m('scavenges'), 1)} | ${fmt(m('markCompacts'), 2)} | ${fmt(m('pauseUs'), 1)} | ${fmt(m('incrementalUs'), 1)} | ${fmt(m('backgroundUs'), 1)} | ${fmt(m('newSpaceMb'))} |`);
}
process.exit(0);
