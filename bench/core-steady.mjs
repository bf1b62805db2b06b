/**
 * Steady-state CPU cost of one delivery through the BUILT package (dist/, what users run), before
 * and after a change, in one process and one run: `createCallbackKit(...).handle('sendOrderToMerchant', ...)`
 * in a loop, in-process (no HTTP), for each checkout in turn, rounds interleaved (A B, B A, A B, ...)
 * so that drift and noise fall on both. Plain JavaScript run by plain `node`: no TypeScript loader
 * (tsx) touches the code measured.
 *
 *   npm run build                                          # this checkout's dist/
 *   git worktree add /tmp/core-base <rev> && cp -al node_modules /tmp/core-base/ && (cd /tmp/core-base && npm run build)
 *   node bench/core-steady.mjs --base /tmp/core-base [--rounds 12] [--n 2000] [--lines 20] [--json out.json]
 *
 * Each delivery: a 20-line SendOrderToMerchant order (bench/fixtures.ts's makeOrder, built here
 * from the same template, fresh OrderId per delivery so none is a replay), JWT (HS256) auth,
 * tolerant validation, URL decoding, the default MemoryStore, a no-op adapter, logger off. Bodies
 * and tokens are made before the timed loop. A round makes a new kit per checkout (its construction
 * is not timed), warms it up with `--n / 4` deliveries, then times `--n` deliveries with
 * process.cpuUsage() (user + system CPU µs, so waiting is not counted) and performance.now().
 * The figure: the median over rounds of CPU µs per delivery, per checkout, and after/before.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name, fallback) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : fallback; };
const BASE = flag('--base', process.env.BENCH_BASELINE);
const ROUNDS = Number(flag('--rounds', 12));
const N = Number(flag('--n', 2000));
const LINES = Number(flag('--lines', 20));
const JSON_OUT = flag('--json', undefined);
if (!BASE) {
  console.error('usage: node bench/core-steady.mjs --base <a built checkout of the revision to compare with> [--rounds 12] [--n 2000]');
  process.exit(2);
}

const MERCHANT_GUID = '3f2c9a1e-7b4d-4e8a-9c61-2d5f0b8e4a17';
const JWT_SECRET = 'bench-secret-0123456789abcdef0123456789abcdef';

/** bench/fixtures.ts's body template (a TypeScript module: read through tsx once, in a child, so nothing measured loads tsx). */
function orderTemplate() {
  const script = `import('./bench/fixtures.ts').then((f) => process.stdout.write(f.bodyTemplate(${LINES})))`;
  const out = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: root, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`could not build the order template: ${out.stderr}`);
  return out.stdout;
}

async function checkout(name, dir) {
  const pkg = await import(pathToFileURL(path.join(dir, 'dist', 'index.js')).href);
  const store = await import(pathToFileURL(path.join(dir, 'dist', 'store', 'index.js')).href);
  const { SignJWT } = await import(pathToFileURL(path.join(dir, 'node_modules', 'jose', 'dist', 'webapi', 'index.js')).href)
    .catch(() => import('jose'));
  const token = await new SignJWT({ scope: 'callbacks' }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt()
    .setExpirationTime('2h').setSubject('crossborder-service').sign(new TextEncoder().encode(JWT_SECRET));
  const makeKit = () => pkg.createCallbackKit({
    merchantGuid: MERCHANT_GUID, logger: false, store: new store.MemoryStore(),
    auth: { jwt: { secret: JWT_SECRET, algorithms: ['HS256'] } },
    adapter: {
      sendOrderToMerchant: (order) => ({ InternalOrderId: `INT-${order.OrderId}`, OrderId: String(order.OrderId), StatusCode: 'received' }),
      updateOrderStatus: () => {},
    },
  });
  return { name, dir, makeKit, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } };
}

let serial = 0;
function requests(c, template, count) {
  const out = new Array(count);
  for (let i = 0; i < count; i++) {
    const body = Buffer.from(template.replace('__ORDER_ID__', `GE${++serial}`));
    out[i] = { method: 'POST', path: '/SendOrderToMerchant', headers: c.headers, query: {}, body };
  }
  return out;
}

async function round(c, template) {
  const kit = c.makeKit();
  for (const req of requests(c, template, Math.ceil(N / 4))) {
    const res = await kit.handle('sendOrderToMerchant', req);
    if (res.status !== 200) throw new Error(`${c.name}: warm-up delivery answered ${res.status} ${JSON.stringify(res.body)}`);
  }
  const batch = requests(c, template, N);
  globalThis.gc?.();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let failed = 0;
  for (const req of batch) if ((await kit.handle('sendOrderToMerchant', req)).status !== 200) failed++;
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (failed > 0) throw new Error(`${c.name}: ${failed} deliveries failed`);
  return { cpuUs: (cpu.user + cpu.system) / N, wallUs: (wall * 1000) / N };
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

const template = orderTemplate();
const before = await checkout('before', path.resolve(BASE));
const after = await checkout('after', root);
const results = { before: [], after: [] };
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 === 0 ? [before, after] : [after, before];
  for (const c of order) results[c.name].push(await round(c, template));
  process.stderr.write(`round ${r + 1}/${ROUNDS}: before ${results.before.at(-1).cpuUs.toFixed(1)} µs, after ${results.after.at(-1).cpuUs.toFixed(1)} µs\n`);
}
const summary = {};
for (const name of ['before', 'after']) {
  summary[name] = { cpuUsPerDelivery: median(results[name].map((x) => x.cpuUs)), wallUsPerDelivery: median(results[name].map((x) => x.wallUs)) };
}
const ratio = summary.after.cpuUsPerDelivery / summary.before.cpuUsPerDelivery;
const report = {
  node: process.version, rounds: ROUNDS, deliveriesPerRound: N, lines: LINES, base: path.resolve(BASE), ...summary,
  afterOverBefore: ratio, perRound: results,
};
console.log(`CPU µs per delivery (median of ${ROUNDS} rounds of ${N}): before ${summary.before.cpuUsPerDelivery.toFixed(1)}, after ${summary.after.cpuUsPerDelivery.toFixed(1)} (after/before ${(ratio * 100).toFixed(1)} %)`);
console.log(`wall µs per delivery: before ${summary.before.wallUsPerDelivery.toFixed(1)}, after ${summary.after.wallUsPerDelivery.toFixed(1)}`);
if (JSON_OUT) fs.writeFileSync(JSON_OUT, `${JSON.stringify(report, null, 2)}\n`);
