/**
 * Steady state of several builds side by side, each in its own server process (bench/server.ts),
 * under the same autocannon load in rotating rounds (as bench/run.ts): server CPU µs per request,
 * medians over rounds, and each build's median of per-round ratios to the first one.
 *
 *   BENCH_AB='base=/tmp/perf-base,head=.' BENCH_ONLY=kit-node,kit-express node --import tsx bench/steady-ab.ts
 *   (each directory: a checkout with dist/ built; BENCH_WARMUP=3 BENCH_DURATION=5 BENCH_ROUNDS=6)
 */
import fs from 'node:fs';
import path from 'node:path';
import { bodyTemplate, type ServerKind } from './fixtures.js';
import { benchToken } from './kit-options.js';
import { fmt, load, median, startServer, stopServer, type RunningServer } from './load.js';

const num = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const builds = (process.env.BENCH_AB ?? 'head=.').split(',').map((s) => { const [name, dir] = s.split('='); return { name, dir: path.resolve(dir) }; });
const kinds = (process.env.BENCH_ONLY ?? 'kit-node,kit-express').split(',') as ServerKind[];
const warmupSec = num('BENCH_WARMUP', 3), durationSec = num('BENCH_DURATION', 5), rounds = num('BENCH_ROUNDS', 6);
const spec = { connections: num('BENCH_CONNECTIONS', 10), template: bodyTemplate(num('BENCH_LINES', 20)), headers: { authorization: `Bearer ${await benchToken()}` } };

/** BENCH_CPU_PROF=<dir>: each server writes a V8 CPU profile there. */
const profArgs = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
const servers: { label: string; kind: ServerKind; build: string; s: RunningServer }[] = [];
for (const kind of kinds) for (const b of builds) {
  process.env.BENCH_BASELINE = b.dir;
  servers.push({ label: `${kind} ${b.name}`, kind, build: b.name, s: await startServer(`baseline-${kind}` as ServerKind, profArgs) });
}
for (const x of servers) await load(x.s, { ...spec, durationSec: warmupSec });
/** CPU ticks (user + system) of a process's main thread and of all its other threads (V8's GC helpers, libuv's pool), from /proc. */
const ticks = (pid: number) => {
  let main = 0, others = 0;
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    const f = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
    const t = Number(f[11]) + Number(f[12]);
    if (Number(tid) === pid) main += t; else others += t;
  }
  return { main, others };
};
const share: Record<string, number[]> = Object.fromEntries(servers.map((x) => [x.label, []]));
const cpu: Record<string, number[]> = Object.fromEntries(servers.map((x) => [x.label, []]));
for (let r = 0; r < rounds; r++) {
  for (let i = 0; i < servers.length; i++) {
    const x = servers[(i + r) % servers.length];
    const before = ticks(x.s.child.pid!);
    const res = await load(x.s, { ...spec, durationSec });
    const after = ticks(x.s.child.pid!);
    const others = (after.others - before.others) / (after.others - before.others + after.main - before.main);
    cpu[x.label].push(res.serverCpuUsPerReq);
    share[x.label].push(others);
    process.stderr.write(`round ${r + 1}/${rounds} ${x.label.padEnd(24)} ${fmt(res.serverCpuUsPerReq)} µs CPU/req, ${fmt(res.serverCpuUsPerReq * (1 - others))} on the main thread\n`);
  }
}
await Promise.all(servers.map((x) => stopServer(x.s)));
for (const kind of kinds) {
  const first = `${kind} ${builds[0].name}`;
  for (const b of builds) {
    const label = `${kind} ${b.name}`;
    const ratio = median(cpu[label].map((v, i) => v / cpu[first][i]));
    console.log(`${label.padEnd(24)} median ${fmt(median(cpu[label]))} µs CPU/req  (main thread ${fmt(median(cpu[label].map((v, i) => v * (1 - share[label][i]))))}, other threads ${fmt(median(cpu[label].map((v, i) => v * share[label][i])))})  per-round ratio to ${builds[0].name} ${fmt((ratio - 1) * 100, 1)} %  [${cpu[label].map((v) => fmt(v)).join(' ')}]`);
  }
}
