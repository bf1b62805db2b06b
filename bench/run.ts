/**
 * `npm run bench`: throughput and latency of bare node:http, bare Express 5 and the kit through both
 * bindings (alternating rounds, each server in its own process, loopback only); a validate+decode
 * micro-benchmark; a soak of the kit. Prints a table and writes bench/results/latest.json.
 * Durations and sizes come from BENCH_* environment variables (see docs/performance.md).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { bodyTemplate, SERVER_KINDS, type ServerKind } from './fixtures.js';
import { loadKit } from './dist.js';
import { benchToken, kitOptions } from './kit-options.js';
import { fmt, load, median, NODE_FLAGS, probe, startServer, stopServer, type LoadResult, type RunningServer } from './load.js';
import { runMicro } from './micro.js';
import { runPostgresRows, type PgRow } from './pg.js';
import { runSoak, type SoakResult } from './soak.js';
import { runStages } from './stages.js';

const env = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && process.env[name] !== '' && process.env[name] !== undefined ? v : fallback;
};
const config = {
  durationSec: env('BENCH_DURATION', 8),
  rounds: env('BENCH_ROUNDS', 3),
  warmupSec: env('BENCH_WARMUP', 3),
  connections: env('BENCH_CONNECTIONS', 10),
  lines: env('BENCH_LINES', 20),
  microIterations: env('BENCH_MICRO_ITERATIONS', 10_000),
  stageIterations: env('BENCH_STAGE_ITERATIONS', 2_000),
  soakRequests: env('BENCH_SOAK', 100_000),
  soakFirst: env('BENCH_SOAK_FIRST', 10_000),
  soakStep: env('BENCH_SOAK_STEP', 15_000),
  soakKind: (process.env.BENCH_SOAK_KIND ?? 'kit-node') as ServerKind,
  only: (process.env.BENCH_ONLY ?? SERVER_KINDS.join(',')).split(',').map((s) => s.trim()) as ServerKind[],
  cpuProf: process.env.BENCH_CPU_PROF === '1',
  /** PostgresStore rows: connection counts (BENCH_PG_CONNECTIONS, e.g. '10,50'; 'none' skips them). */
  pgConnections: (process.env.BENCH_PG_CONNECTIONS ?? '10,50') === 'none' ? [] : (process.env.BENCH_PG_CONNECTIONS ?? '10,50').split(',').map(Number),
  pgDurationSec: env('BENCH_PG_DURATION', 6),
  /** BENCH_NODE_FLAGS: node flags of every server (bench/load.ts). */
  nodeFlags: NODE_FLAGS,
};
/** Issue 14's targets: kit-node CPU per request; the Express binding's extra cost over the node one; kit-express vs the peer. */
/** Issue 25's targets (1: kit-express CPU ≤ peer-express's; 2: the kit's Express overhead ≤ 1.25× bare Express's; 3: kit-node ≤ 300 µs CPU), then earlier rounds'. */
const TARGETS = { nodeCpuUs: 300, expressOverheadOverBare: 1.25, expressCpuOverPeer: 1.0, microMedianUs: 100, soakGrowthMb: 50, pgOverMemory: 0.85, pgStatements: 3, pgP99Ms: 25 };
const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));
const MB = 1024 * 1024;

const pct = (r: number | null) => (r === null ? 'n/a' : `${fmt(r * 100, 1)} %`);
const log = (msg: string) => process.stderr.write(`${msg}\n`);

async function main() {
  const started = Date.now();
  const template = bodyTemplate(config.lines);
  const headers = { authorization: `Bearer ${await benchToken()}` };
  const machine = {
    cpuModel: os.cpus()[0]?.model ?? 'unknown', nproc: os.availableParallelism(), node: process.version,
    platform: `${os.platform()} ${os.release()}`, totalMemMb: Math.round(os.totalmem() / MB),
  };
  log(`machine: ${machine.nproc} cores, ${machine.cpuModel}, node ${machine.node}; body ${fmt(Buffer.byteLength(template))} bytes`);

  log(`micro-benchmark: validate + decode of a 200-line order, ${config.microIterations} iterations`);
  const micro = await runMicro(config.microIterations);
  log(`pipeline stages in-process, ${config.stageIterations} iterations each`);
  const stages = config.stageIterations > 0 ? await runStages(template, headers.authorization.slice(7), config.stageIterations) : {};

  const profArgs = config.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${RESULTS_DIR}profiles`] : [];
  const kinds: ServerKind[] = SERVER_KINDS.filter((k) => config.only.includes(k));
  // Before/after under the same load: the kit of another checkout, in the same rotating rounds.
  if (process.env.BENCH_BASELINE) {
    for (const k of ['kit-node', 'kit-express'] as const) if (config.only.includes(k)) kinds.push(`baseline-${k}`);
  }
  const servers: RunningServer[] = [];
  for (const kind of kinds) servers.push(await startServer(kind, profArgs));
  const features = servers.find((s) => s.features)?.features ?? kitOptions(await loadKit()).features;
  const checks: Record<string, unknown> = {};
  const replyBytes: Record<string, { headers: number; body: number }> = {};
  for (const s of servers) {
    const ok = await probe(s, { template, headers });
    if (ok.status !== 200 || (ok.body as { Success?: boolean })?.Success !== true) {
      throw new Error(`${s.kind} answered the benchmark order with ${ok.status} ${JSON.stringify(ok.body)}`);
    }
    replyBytes[s.kind] = { headers: ok.headerBytes, body: ok.bodyBytes };
    if (s.features?.jwt || s.kind.startsWith('peer-')) {
      const denied = await probe(s, { template, headers: {} });
      checks[`${s.kind} without a JWT`] = denied.status;
      if (denied.status !== 401) throw new Error(`${s.kind} accepted a request without a JWT (${denied.status})`);
    }
  }
  log(`kit features: ${JSON.stringify(features)}`);

  const spec = { connections: config.connections, template, headers };
  for (const s of servers) {
    log(`warm-up ${s.kind} ${config.warmupSec}s`);
    await load(s, { ...spec, durationSec: config.warmupSec });
  }
  const rounds: Record<string, LoadResult[]> = Object.fromEntries(kinds.map((k) => [k, []]));
  for (let r = 0; r < config.rounds; r++) {
    const order = servers.map((_, i) => servers[(i + r) % servers.length]);
    for (const s of order) {
      const res = await load(s, { ...spec, durationSec: config.durationSec });
      rounds[s.kind].push(res);
      log(`round ${r + 1}/${config.rounds} ${s.kind.padEnd(12)} ${fmt(res.reqPerSec).padStart(7)} req/s  p50 ${res.p50} ms  p99 ${res.p99} ms  ${fmt(res.serverCpuUsPerReq)} µs CPU/req${res.non2xx || res.errors ? `  non-2xx ${res.non2xx} errors ${res.errors}` : ''}`);
    }
  }
  await Promise.all(servers.map(stopServer));

  const summary = Object.fromEntries(kinds.map((k) => {
    const rs = rounds[k];
    return [k, {
      reqPerSec: median(rs.map((x) => x.reqPerSec)),
      reqPerSecMin: Math.min(...rs.map((x) => x.reqPerSec)),
      reqPerSecMax: Math.max(...rs.map((x) => x.reqPerSec)),
      p50Ms: median(rs.map((x) => x.p50)),
      p99Ms: median(rs.map((x) => x.p99)),
      cpuUsPerReq: median(rs.map((x) => x.serverCpuUsPerReq)),
      serverCores: median(rs.map((x) => x.serverCores)),
      generatorCores: median(rs.map((x) => x.generatorCores)),
      non2xx: rs.reduce((a, x) => a + x.non2xx, 0),
      errors: rs.reduce((a, x) => a + x.errors, 0),
      rounds: rs,
    }];
  })) as Record<string, { reqPerSec: number; reqPerSecMin: number; reqPerSecMax: number; p50Ms: number; p99Ms: number; cpuUsPerReq: number; serverCores: number; generatorCores: number; non2xx: number; errors: number }>;
  const ratio = (a: string, b: string) => (summary[a] && summary[b] ? summary[a].reqPerSec / summary[b].reqPerSec : null);
  const cpuRatio = (kit: string, bare: string) => (summary[kit] && summary[bare] ? summary[bare].cpuUsPerReq / summary[kit].cpuUsPerReq : null);
  const cpu = (k: string) => summary[k]?.cpuUsPerReq ?? null;
  const diff = (a: string, b: string) => (cpu(a) !== null && cpu(b) !== null ? cpu(a)! - cpu(b)! : null);
  const ratios = {
    expressKitOverBare: ratio('kit-express', 'bare-express'), nodeKitOverBare: ratio('kit-node', 'bare-node'),
    expressKitOverPeer: ratio('kit-express', 'peer-express'), nodeKitOverPeer: ratio('kit-node', 'peer-node'),
    /** other CPU per request / kit CPU per request: the throughput ratio if the server had the machine to itself. */
    expressCpuBareOverKit: cpuRatio('kit-express', 'bare-express'), nodeCpuBareOverKit: cpuRatio('kit-node', 'bare-node'),
    expressCpuPeerOverKit: cpuRatio('kit-express', 'peer-express'), nodeCpuPeerOverKit: cpuRatio('kit-node', 'peer-node'),
    /** Server CPU µs per request that Express adds over node:http: to the kit, to the bare servers, to the peers. */
    expressOverNodeKitUs: diff('kit-express', 'kit-node'), expressOverNodeBareUs: diff('bare-express', 'bare-node'),
    expressOverNodePeerUs: diff('peer-express', 'peer-node'),
  };

  let pgRows: PgRow[] = [];
  let pgExact: number | null = null;
  let pgNote = 'skipped (BENCH_PG_CONNECTIONS=none)';
  if (config.pgConnections.length > 0) {
    log(`PostgresStore rows: ${config.pgConnections.join(' and ')} connections, 1 and 2 processes, ${config.pgDurationSec}s each`);
    ({ rows: pgRows, exactStatements: pgExact, note: pgNote } = await runPostgresRows({ template, headers }, config.pgDurationSec, config.warmupSec, config.pgConnections));
  }
  const pg10 = pgRows.find((r) => r.processes === 1 && r.connections === 10 && r.batched);

  let soak: SoakResult | null = null;
  if (config.soakRequests > 0) {
    log(`soak: ${fmt(config.soakRequests)} requests through ${config.soakKind}`);
    soak = await runSoak(config.soakKind, spec, config.soakRequests, config.soakFirst, config.soakStep);
  }

  const verdict = (ok: boolean | null) => (ok === null ? 'n/a' : ok ? 'met' : 'MISSED');
  const targets = {
    nodeCpu: verdict(cpu('kit-node') === null ? null : cpu('kit-node')! <= TARGETS.nodeCpuUs),
    expressBindingCost: verdict(ratios.expressOverNodeKitUs === null || ratios.expressOverNodeBareUs === null ? null
      : ratios.expressOverNodeKitUs <= TARGETS.expressOverheadOverBare * ratios.expressOverNodeBareUs),
    expressOverPeer: verdict(ratios.expressCpuPeerOverKit === null ? null : ratios.expressCpuPeerOverKit >= TARGETS.expressCpuOverPeer),
    microMedian: verdict(micro.medianUs <= TARGETS.microMedianUs),
    pgThroughput: verdict(pg10 && summary['kit-node'] ? pg10.reqPerSec / summary['kit-node'].reqPerSec >= TARGETS.pgOverMemory : null),
    pgStatements: verdict(pgExact === null ? null : pgExact <= TARGETS.pgStatements),
    pgP99: verdict(pg10 ? pg10.p99 <= TARGETS.pgP99Ms : null),
    soakGrowth: verdict(soak ? soak.rssGrowthMb <= TARGETS.soakGrowthMb : null),
  };

  const lines = [
    '',
    `Throughput, SendOrderToMerchant (${config.lines} lines, ${fmt(Buffer.byteLength(template))} B), ${config.connections} connections, ${config.rounds} x ${config.durationSec}s rounds (medians)`,
    `${'server'.padEnd(14)}${'req/s'.padStart(9)}${'(min..max)'.padStart(18)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'CPU µs/req'.padStart(12)}${'server/gen cores'.padStart(18)}${'non-2xx'.padStart(9)}${'reply hdr+body B'.padStart(18)}`,
    ...kinds.map((k) => {
      const s = summary[k];
      const b = replyBytes[k];
      return `${k.padEnd(14)}${fmt(s.reqPerSec).padStart(9)}${`(${fmt(s.reqPerSecMin)}..${fmt(s.reqPerSecMax)})`.padStart(18)}${fmt(s.p50Ms, 1).padStart(9)}${fmt(s.p99Ms, 1).padStart(9)}${fmt(s.cpuUsPerReq).padStart(12)}${`${fmt(s.serverCores, 2)} / ${fmt(s.generatorCores, 2)}`.padStart(18)}${fmt(s.non2xx + s.errors).padStart(9)}${(b ? `${b.headers}+${b.body}` : '').padStart(18)}`;
    }),
    '',
    ...(['kit-node', 'kit-express'] as const).filter((k) => summary[`baseline-${k}`] && summary[k]).map((k) =>
      `${k} against BENCH_BASELINE: server CPU ${fmt(summary[`baseline-${k}`].cpuUsPerReq)} -> ${fmt(summary[k].cpuUsPerReq)} µs/request (${pct(summary[k].cpuUsPerReq / summary[`baseline-${k}`].cpuUsPerReq - 1)}), req/s ${fmt(summary[`baseline-${k}`].reqPerSec)} -> ${fmt(summary[k].reqPerSec)}`),
    `kit-node server CPU per request: ${cpu('kit-node') === null ? 'n/a' : fmt(cpu('kit-node')!)} µs (target <= ${TARGETS.nodeCpuUs}: ${targets.nodeCpu})`,
    `Express over node:http, server CPU µs per request: kit +${fmt(ratios.expressOverNodeKitUs ?? NaN)}, bare +${fmt(ratios.expressOverNodeBareUs ?? NaN)}, peer +${fmt(ratios.expressOverNodePeerUs ?? NaN)} (target kit <= ${TARGETS.expressOverheadOverBare} x bare: ${targets.expressBindingCost})`,
    `kit/peer, Express binding:   ${pct(ratios.expressKitOverPeer)} of req/s; by server CPU per request ${pct(ratios.expressCpuPeerOverKit)} (target >= 100 %: ${targets.expressOverPeer})`,
    `kit/peer, node:http binding: ${pct(ratios.nodeKitOverPeer)} of req/s; by server CPU per request ${pct(ratios.nodeCpuPeerOverKit)}`,
    `kit/bare, Express binding:   ${pct(ratios.expressKitOverBare)} of req/s; by server CPU per request ${pct(ratios.expressCpuBareOverKit)}`,
    `kit/bare, node:http binding: ${pct(ratios.nodeKitOverBare)} of req/s; by server CPU per request ${pct(ratios.nodeCpuBareOverKit)}`,
    `validate + decode, 200 lines: median ${fmt(micro.medianUs, 1)} µs, p99 ${fmt(micro.p99Us, 1)} µs over ${fmt(micro.iterations)} (target median <= 100 µs: ${targets.microMedian})`,
    '',
    `Where the kit's time goes (in-process, no HTTP, a fresh object every iteration; µs on the ${config.lines}-line order):`,
    `  ${'stage'.padEnd(52)}${'median'.padStart(9)}${'mean'.padStart(9)}`,
    ...Object.entries(stages).map(([k, v]) => `  ${k.padEnd(52)}${(v === null ? 'n/a' : fmt(v.median, 1)).padStart(9)}${(v === null ? 'n/a' : fmt(v.mean, 1)).padStart(9)}`),
    '',
    `PostgresStore (kit-node on PostgreSQL; ${pgNote}):`,
    `  ${'processes'.padEnd(10)}${'batched'.padStart(8)}${'conns'.padStart(6)}${'req/s'.padStart(9)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'kit CPU µs/req'.padStart(16)}${'statements/req'.padStart(16)}${'PG CPU µs/req'.padStart(15)}${'non-2xx'.padStart(9)}`,
    ...pgRows.map((r) => `  ${String(r.processes).padEnd(10)}${(r.batched ? 'yes' : 'no').padStart(8)}${String(r.connections).padStart(6)}${fmt(r.reqPerSec).padStart(9)}${fmt(r.p50, 1).padStart(8)}${fmt(r.p99, 1).padStart(8)}${fmt(r.serverCpuUsPerReq).padStart(16)}${(r.statementsPerReq === null ? 'n/a' : fmt(r.statementsPerReq, 2)).padStart(16)}${(r.postgresCpuUsPerReq === null ? 'n/a' : fmt(r.postgresCpuUsPerReq)).padStart(15)}${fmt(r.non2xx).padStart(9)}`),
    ...(pg10 ? [
      `  1 process, 10 connections: ${pct(summary['kit-node'] ? pg10.reqPerSec / summary['kit-node'].reqPerSec : null)} of kit-node (MemoryStore) req/s (target >= 85 %: ${targets.pgThroughput}); ` +
        `statements per first delivery ${pgExact === null ? 'n/a' : fmt(pgExact, 2)} (exactly 500 requests; target <= 3: ${targets.pgStatements}); p99 ${fmt(pg10.p99, 1)} ms (target <= 25: ${targets.pgP99})`,
      `  statements (1 process, 10 connections): ${pg10.statements.map((x) => `${fmt(x.calls)}× ${x.query.slice(0, 60)}`).join(' | ')}`,
    ] : []),
    '',
    soak
      ? `soak ${fmt(soak.requests)} requests (${soak.binding}): RSS ${fmt(soak.rssAfterFirstMb, 1)} MB after ${fmt(soak.firstN)}, ${fmt(soak.rssEndMb, 1)} MB at the end, growth ${fmt(soak.rssGrowthMb, 1)} MB (target <= 50 MB: ${targets.soakGrowth}); heap used after GC ${fmt(soak.heapUsedAfterFirstMb, 1)} -> ${fmt(soak.heapUsedEndMb, 1)} MB\n` +
        `  samples (requests: RSS / heap used MB): ${soak.samples.map((x) => `${fmt(x.requests / 1000)}k: ${fmt(x.rssMb)}/${fmt(x.heapUsedMb)}`).join(', ')}`
      : 'soak: skipped',
    `kit ran with: ${JSON.stringify(features)}`,
    `machine: ${machine.nproc} cores (${machine.cpuModel}), node ${machine.node}; load generator on the same machine; server node flags: ${NODE_FLAGS.join(' ') || 'none'}`,
    `total time: ${fmt((Date.now() - started) / 1000)} s`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);

  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(`${RESULTS_DIR}latest.json`, `${JSON.stringify({
    date: new Date().toISOString(), machine, config, features, checks, replyBytes, throughput: summary, ratios, micro, stagesUs: stages, postgres: { note: pgNote, exactStatementsPerRequest: pgExact, rows: pgRows }, soak, targets,
    targetValues: TARGETS, durationSec: (Date.now() - started) / 1000,
  }, null, 2)}\n`);
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});
