/**
 * What one new-order delivery runs of the kit: the functions and files (issue 48's "functions and
 * files per new-order delivery"), measured with V8's precise coverage (node:inspector,
 * Profiler.startPreciseCoverage with call counts) over SendOrderToMerchant deliveries with new
 * OrderIds through the Express binding (`createCallbackRouter` at /cb) on a MemoryStore, with the
 * benchmark's kit configuration (bench/kit-options.ts: JWT auth, tolerant validation, URL decoding, a
 * no-op adapter) and its 20-line order (bench/fixtures.ts), on the built package (dist/, as users run it).
 *
 * The deliveries run in a child process on plain Node: a loader hook (tsx, which runs this file)
 * rewrites the files it loads, adding functions of its own. dist/ is bundled by esbuild
 * (.ci/bundle-dist.mjs), not minified: each module's code follows a `// dist/<path>.js` comment, which
 * maps a function back to `lib/<path>.ts`; a file that was not bundled maps by its own path.
 * Functions of dependencies (`// …/node_modules/…`) and esbuild's runtime helpers are not the kit's
 * and are not counted. A function counts when it ran at least once during the delivery measured (the
 * counters are reset just before it).
 *
 *   npm run build && node --import tsx bench/delivery-coverage.ts [dist dir] [--list]
 *
 * Prints two rows: the first delivery of the process (it also imports and compiles the callback's
 * validators) and a later new order (after two others: the steady figure docs/architecture.md cites).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, ROOT } from './dist.js';
import { JWT_SECRET, MERCHANT_GUID, makeOrder } from './fixtures.js';
import { benchToken } from './kit-options.js';

/** What the child measures with. */
interface Input { dist: string; token: string; merchantGuid: string; jwtSecret: string; bodies: string[] }
/** Per delivery measured: the kit's functions that ran, by lib/ file. */
type Output = Array<{ name: string; byFile: Record<string, string[]> }>;

/**
 * The child: plain Node, ESM. Coverage starts before the kit is imported; deliveries 1 (measured),
 * 2, 3 and 4 (measured). The kit options are those of bench/kit-options.ts.
 */
const CHILD = String.raw`
import http from 'node:http';
import inspector from 'node:inspector';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
const input = JSON.parse(process.env.COVERAGE_INPUT);
const session = new inspector.Session();
session.connect();
const post = (method, params = {}) => new Promise((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));
await post('Debugger.enable');
await post('Profiler.enable');
await post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
const at = (p) => import(new URL(p, input.dist + '/').href);
const { createCallbackRouter } = await at('bindings/express/index.js');
const { MemoryStore } = await at('store/index.js');
const options = {
  merchantGuid: input.merchantGuid, store: new MemoryStore(), auth: { jwt: { secret: input.jwtSecret, algorithms: ['HS256'] } },
  adapter: {
    sendOrderToMerchant: (order) => ({ InternalOrderId: 'INT-' + order.OrderId, OrderId: String(order.OrderId), StatusCode: 'received' }),
    updateOrderStatus: () => {},
  },
};
const app = express();
app.use('/cb', createCallbackRouter(options));
const server = http.createServer(app);
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const { port } = server.address();
const distDir = fileURLToPath(input.dist);
const marksOf = new Map();
async function moduleAt(script, offset) {
  let marks = marksOf.get(script.url);
  if (!marks) {
    // The source V8 ran (its offsets are in it).
    const { scriptSource } = await post('Debugger.getScriptSource', { scriptId: script.scriptId });
    marks = [];
    for (const m of scriptSource.matchAll(/^\/\/ (\S+\.[cm]?js)$/gm)) {
      const dist = /(?:^|\/)dist\/(.+)\.js$/.exec(m[1]);
      marks.push([m.index, m[1].includes('node_modules/') || !dist ? null : 'lib/' + dist[1] + '.ts']);
    }
    marksOf.set(script.url, marks);
  }
  if (marks.length === 0) return 'lib/' + path.relative(distDir, fileURLToPath(script.url)).replace(/\.js$/, '.ts');
  let found = null; // before the first comment: esbuild's runtime helpers
  for (const [start, lib] of marks) {
    if (start > offset) break;
    found = lib;
  }
  return found;
}
async function ranSinceLast() {
  const { result } = await post('Profiler.takePreciseCoverage');
  const byFile = {};
  for (const script of result) {
    if (!script.url.startsWith(input.dist + '/')) continue;
    for (const fn of script.functions) {
      const range = fn.ranges[0];
      if (!range || range.count === 0) continue;
      const lib = await moduleAt(script, range.startOffset);
      if (lib !== null) (byFile[lib] ??= []).push(fn.functionName || '(anonymous)');
    }
  }
  return byFile;
}
let n = 0;
async function deliver() {
  const res = await fetch('http://127.0.0.1:' + port + '/cb/SendOrderToMerchant', {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ' + input.token }, body: input.bodies[n++],
  });
  const body = await res.json();
  if (res.status !== 200 || body.Success !== true) throw new Error('delivery ' + n + ' answered ' + res.status + ' ' + JSON.stringify(body));
}
const out = [];
await ranSinceLast(); // what loading and building the kit ran
await deliver();
out.push({ name: 'first delivery of the process', byFile: await ranSinceLast() });
await deliver();
await deliver();
await ranSinceLast();
await deliver();
out.push({ name: 'a later new order', byFile: await ranSinceLast() });
server.close();
process.stdout.write(JSON.stringify(out));
`;

const args = process.argv.slice(2);
const list = args.includes('--list');
const distDir = path.resolve(args.find((a) => !a.startsWith('--')) ?? DIST);

const input: Input = {
  dist: pathToFileURL(distDir).href, token: await benchToken(), merchantGuid: MERCHANT_GUID, jwtSecret: JWT_SECRET,
  bodies: [1, 2, 3, 4].map((i) => JSON.stringify(makeOrder(20, `GE-COV-${i}`))),
};
const output = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', CHILD], {
  cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '', COVERAGE_INPUT: JSON.stringify(input) }, encoding: 'utf8', maxBuffer: 64 << 20,
})) as Output;

console.log(`kit functions run per SendOrderToMerchant with a new OrderId (/express + MemoryStore, ${path.relative(ROOT, distDir) || distDir})`);
console.log('| delivery | functions | files | in lib/core: functions | files |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const { name, byFile } of output) {
  const files = Object.keys(byFile).sort();
  const core = files.filter((f) => f.startsWith('lib/core/'));
  const count = (of: string[]) => of.reduce((sum, f) => sum + byFile[f].length, 0);
  console.log(`| ${name} | ${count(files)} | ${files.length} | ${count(core)} | ${core.length} |`);
}
if (list) {
  for (const { name, byFile } of output) {
    console.log(`\n${name}:`);
    for (const f of Object.keys(byFile).sort()) console.log(`  ${f}: ${byFile[f].join(', ')}`);
  }
}
