/**
 * Cold start, as whole processes: `node <probe>` from spawn to exit, where the probe imports the built
 * package (dist/, as a user runs it), constructs the binding and answers one SendOrderToMerchant (a
 * 20-line order, default MemoryStore, tolerant validation). Compared with `node -e 0` (the floor) and
 * hand-written handlers doing the same JSON parse and reply (no kit): one taking the Lambda event, one
 * behind node:http, one fetch handler (Node's Request/Response) and one Express app. The probes run round-robin (noise spreads over all), `--runs` times each; the
 * figure is the median wall time, and "over node -e 0" subtracts the floor's median.
 *
 *   npm run build && node --import tsx bench/cold-start.ts [--runs 15] [--json bench/results/cold-start.json]
 *   BENCH_BASELINE=<checkout with dist/ built> ...: that checkout's /lambda and /fetch too ("before").
 *
 * '/lambda + DynamoDBStore' answers with a DynamoDBStore on a dynalite started for the run (each run
 * a new OrderId: a first delivery, not a replay); its import of @aws-sdk/client-dynamodb is timed on
 * its own ("SDK import") and printed below the table.
 *
 * Each probe also reports, from inside (performance.now(): ms since the process started), when the
 * import finished, when the binding was constructed and when the first reply was complete.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bodyTemplate, MERCHANT_GUID, ORDER_ID_PLACEHOLDER } from './fixtures.js';

const MerchantGUID = MERCHANT_GUID;
import { fmt, median } from './load.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p: string, checkout = root) => pathToFileURL(path.join(checkout, 'dist', p)).href;
/** BENCH_BASELINE=<another checkout, built>: its /lambda and /fetch run in the same rounds (before/after). */
const BASELINE = process.env.BENCH_BASELINE;
const args = process.argv.slice(2);
const flag = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const RUNS = Number(flag('--runs') ?? 15);
const JSON_OUT = flag('--json');

if (!fs.existsSync(path.join(root, 'dist', 'index.js'))) {
  process.stderr.write('bench/cold-start.ts measures the built package: run `npm run build` first\n');
  process.exit(1);
}

const BODY = bodyTemplate(20).replace(ORDER_ID_PLACEHOLDER, 'GE-COLD-1');
/**
 * The benchmark's order has no deviation from the schemas; what the service really sends has (nulls, numbers as
 * text: test/fixtures/real-world/), so its first delivery also runs the tolerant validator and the coercions.
 */
const REAL_ORDER = JSON.stringify({
  ...JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/real-world/workarea-sendordertomerchant-basic.json'), 'utf8')),
  MerchantGUID, OrderId: 'GE-COLD-REAL',
});
const ADAPTER = `{ sendOrderToMerchant: () => ({ InternalOrderId: 'INT-1' }), updateOrderStatus: () => ({}),
  getCheckoutCartInfo: () => ({ productsList: [] }), receiveAdditionalRequiredDocuments: () => undefined }`;
const KIT_OPTIONS = `{ merchantGuid: ${JSON.stringify(MERCHANT_GUID)}, logger: false, adapter: ${ADAPTER} }`;
const EVENT = `{ version: '2.0', rawPath: '/SendOrderToMerchant', rawQueryString: '', headers: { 'content-type': 'application/json' },
  requestContext: { http: { method: 'POST', path: '/SendOrderToMerchant', sourceIp: '127.0.0.1' } }, body: BODY, isBase64Encoded: false }`;
const PRELUDE = `import fs from 'node:fs';
const BODY = fs.readFileSync(process.argv[2], 'utf8');
const mark = {};
const done = (status) => { mark.reply = performance.now(); const ru = process.resourceUsage(); mark.cpu = (ru.userCPUTime + ru.systemCPUTime) / 1000; if (status !== 200) { console.error('status', status); process.exit(1); } process.stdout.write(JSON.stringify(mark)); };
`;
/** One request over loopback with node:http (no fetch: undici is not loaded for it), then the server closes. */
const HTTP_CLIENT = `import http from 'node:http';
function once(server) {
  server.listen(0, '127.0.0.1', () => {
    const req = http.request({ port: server.address().port, host: '127.0.0.1', method: 'POST', path: '/SendOrderToMerchant', headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => { server.close(); done(res.statusCode); });
    });
    req.end(BODY);
  });
}
`;

const PROBES: Record<string, string | null> = {
  'node -e 0': null,
  // The CPU floor: an empty script that reports the process's CPU time (wall: about node -e 0's).
  'empty script (CPU floor)': `const ru = process.resourceUsage(); process.stdout.write(JSON.stringify({ cpu: (ru.userCPUTime + ru.systemCPUTime) / 1000 }));\n`,
  'hand-written (Lambda event)': `${PRELUDE}mark.imported = mark.constructed = performance.now();
const handler = async (event) => { const order = JSON.parse(event.body); return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ Success: true, InternalOrderId: 'INT-' + order.OrderId }) }; };
handler(${EVENT}).then((r) => done(r.statusCode));
`,
  'hand-written (node:http)': `${PRELUDE}${HTTP_CLIENT}mark.imported = performance.now();
const server = http.createServer((req, res) => { let b = ''; req.setEncoding('utf8'); req.on('data', (c) => { b += c; }); req.on('end', () => { const order = JSON.parse(b); res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify({ Success: true, InternalOrderId: 'INT-' + order.OrderId })); }); });
mark.constructed = performance.now();
once(server);
`,
  // What a fetch handler costs without the kit: Node's own Request/Response (undici) are loaded by the first `new Request`.
  'hand-written (fetch)': `${PRELUDE}mark.imported = mark.constructed = performance.now();
const handler = async (request) => { const order = await request.json(); return new Response(JSON.stringify({ Success: true, InternalOrderId: 'INT-' + order.OrderId }), { headers: { 'content-type': 'application/json' } }); };
handler(new Request('http://127.0.0.1/SendOrderToMerchant', { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY }))
  .then(async (r) => { await r.arrayBuffer(); done(r.status); });
`,
  // What Express costs without the kit: its import, an app with express.json() and one reply.
  'hand-written (Express)': `${PRELUDE}${HTTP_CLIENT}const { default: express } = await import('express');
mark.imported = performance.now();
const app = express();
app.post('/SendOrderToMerchant', express.json({ limit: '1mb' }), (req, res) => { res.json({ Success: true, InternalOrderId: 'INT-' + req.body.OrderId }); });
const server = http.createServer(app);
mark.constructed = performance.now();
once(server);
`,
  '/lambda': `${PRELUDE}const { createLambdaHandler } = await import(${JSON.stringify(dist('bindings/lambda/index.js'))});
mark.imported = performance.now();
const handler = createLambdaHandler(${KIT_OPTIONS});
mark.constructed = performance.now();
handler(${EVENT}).then((r) => done(r.statusCode));
`,
  '/lambda, a real order': '', // /lambda's source with the real order's file (below)
  '/fetch': `${PRELUDE}const { createFetchHandler } = await import(${JSON.stringify(dist('bindings/fetch/index.js'))});
mark.imported = performance.now();
const handler = createFetchHandler(${KIT_OPTIONS});
mark.constructed = performance.now();
handler(new Request('http://127.0.0.1/SendOrderToMerchant', { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY }))
  .then(async (r) => { await r.arrayBuffer(); done(r.status); });
`,
  '/node': `${PRELUDE}${HTTP_CLIENT}const { createCallbackHandler } = await import(${JSON.stringify(dist('bindings/node/index.js'))});
mark.imported = performance.now();
const server = http.createServer(createCallbackHandler(${KIT_OPTIONS}));
mark.constructed = performance.now();
once(server);
`,
  '/express': `${PRELUDE}${HTTP_CLIENT}const { default: express } = await import('express');
const { createCallbackRouter } = await import(${JSON.stringify(dist('bindings/express/index.js'))});
mark.imported = performance.now();
const app = express();
app.use(createCallbackRouter(${KIT_OPTIONS}));
const server = http.createServer(app);
mark.constructed = performance.now();
once(server);
`,
};

PROBES['/lambda, a real order'] = PROBES['/lambda']!.replace('process.argv[2]', 'process.argv[3]');
// The SDK's own import first, timed apart; then the kit's /lambda and /store/dynamodb; the store's first requests are in "replied".
PROBES['/lambda + DynamoDBStore'] = `${PRELUDE}const sdkStart = performance.now();
const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
mark.sdk = performance.now() - sdkStart;
const { createLambdaHandler } = await import(${JSON.stringify(dist('bindings/lambda/index.js'))});
const { DynamoDBStore } = await import(${JSON.stringify(dist('store/dynamodb/index.js'))});
mark.imported = performance.now();
const client = new DynamoDBClient({ endpoint: process.env.CBK_BENCH_DYNAMODB, region: 'us-east-1', credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' } });
const handler = createLambdaHandler({ ...${KIT_OPTIONS}, store: new DynamoDBStore({ client, tableName: 'cold-start' }) });
mark.constructed = performance.now();
const ORDER = BODY.replaceAll('GE-COLD-1', 'GE-COLD-' + process.pid + '-' + Date.now());
handler(${EVENT.replace('body: BODY', 'body: ORDER')}).then((r) => { client.destroy(); done(r.statusCode); });
`;

if (BASELINE) {
  if (!fs.existsSync(path.join(BASELINE, 'dist', 'index.js'))) throw new Error(`BENCH_BASELINE=${BASELINE} has no dist/: build it first`);
  for (const entry of ['/lambda', '/fetch']) {
    PROBES[`before: ${entry}`] = PROBES[entry]!.replace(dist(`bindings${entry}/index.js`), dist(`bindings${entry}/index.js`, BASELINE));
  }
}

interface Run { wall: number; imported?: number; constructed?: number; reply?: number; cpu?: number; sdk?: number }

function runOnce(file: string | null, bodyFiles: readonly string[]): Promise<Run> {
  const argv = file ? [file, ...bodyFiles] : ['-e', '0'];
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_OPTIONS: '' } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => { out += c; });
    child.on('exit', (code) => {
      const wall = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) reject(new Error(`${file ?? 'node -e 0'} exited with ${code}`));
      else resolve({ wall, ...(out ? JSON.parse(out) as Omit<Run, 'wall'> : {}) });
    });
  });
}

/** dynalite (DynamoDB on LevelDB) for the DynamoDBStore probe, with its table; stopped at the end. */
async function startDynamo(): Promise<() => void> {
  const net = await import('node:net');
  const { createRequire } = await import('node:module');
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { DynamoDBStore } = await import(dist('store/dynamodb/index.js')) as typeof import('../lib/store/dynamodb/index.js');
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r));
  const cli = createRequire(import.meta.url).resolve('dynalite/cli.js');
  const child = spawn(process.execPath, [cli, '--port', String(port), '--host', '127.0.0.1', '--createTableMs', '0'], { stdio: 'ignore', env: { ...process.env, NODE_OPTIONS: '' } });
  process.env.CBK_BENCH_DYNAMODB = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint: process.env.CBK_BENCH_DYNAMODB, region: 'us-east-1', credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' }, maxAttempts: 20 });
  for (let i = 0; ; i++) {
    try {
      await new DynamoDBStore({ client, tableName: 'cold-start' }).createTable();
      break;
    } catch (err) {
      if (i > 50) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  client.destroy();
  return () => child.kill('SIGKILL');
}

async function main(): Promise<void> {
  const stopDynamo = await startDynamo();
  // The probes live in the project (so `express` resolves from its node_modules), in a scratch folder.
  const dir = fs.mkdtempSync(path.join(root, 'bench', '.cold-start-'));
  const bodyFile = path.join(dir, 'order.json');
  fs.writeFileSync(bodyFile, BODY);
  const realFile = path.join(dir, 'real-order.json');
  fs.writeFileSync(realFile, REAL_ORDER);
  const bodyFiles = [bodyFile, realFile];
  const files: Record<string, string | null> = {};
  for (const [name, source] of Object.entries(PROBES)) {
    if (source === null) { files[name] = null; continue; }
    const file = path.join(dir, `${name.replace(/\W+/g, '-').replace(/^-|-$/g, '')}.mjs`);
    fs.writeFileSync(file, source);
    files[name] = file;
  }
  const runs: Record<string, Run[]> = Object.fromEntries(Object.keys(PROBES).map((n) => [n, []]));
  try {
    for (const name of Object.keys(PROBES)) await runOnce(files[name], bodyFiles); // warm the file cache, once each
    for (let i = 0; i < RUNS; i++) {
      for (const name of Object.keys(PROBES)) runs[name].push(await runOnce(files[name], bodyFiles));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    stopDynamo();
  }
  const floor = median(runs['node -e 0'].map((r) => r.wall));
  const cpuFloor = median(runs['empty script (CPU floor)'].map((r) => r.cpu as number));
  const rows = Object.entries(runs).map(([name, rs]) => {
    const wall = median(rs.map((r) => r.wall));
    const inside = (k: 'imported' | 'constructed' | 'reply' | 'cpu' | 'sdk') => (rs[0][k] === undefined ? NaN : median(rs.map((r) => r[k] as number)));
    const cpu = inside('cpu');
    return { name, wall, overFloor: wall - floor, imported: inside('imported'), constructed: inside('constructed'), reply: inside('reply'), cpu, cpuOverFloor: cpu - cpuFloor, sdkImport: inside('sdk') };
  });
  const load = os.loadavg();
  process.stdout.write(`cold start, ${RUNS} runs each, medians (ms); node ${process.version}, ${os.cpus().length} CPUs, load average ${load.map((l) => l.toFixed(2)).join(' ')}\n`);
  process.stdout.write(`${'probe'.padEnd(30)}${'wall'.padStart(8)}${'over -e 0'.padStart(11)}${'imported'.padStart(10)}${'built'.padStart(8)}${'replied'.padStart(9)}${'CPU'.padStart(8)}${'CPU over floor'.padStart(16)}\n`);
  for (const r of rows) {
    process.stdout.write(`${r.name.padEnd(30)}${fmt(r.wall, 1).padStart(8)}${fmt(r.overFloor, 1).padStart(11)}${fmt(r.imported, 1).padStart(10)}${fmt(r.constructed, 1).padStart(8)}${fmt(r.reply, 1).padStart(9)}${fmt(r.cpu, 1).padStart(8)}${fmt(r.cpuOverFloor, 1).padStart(16)}\n`);
  }
  for (const r of rows) if (!Number.isNaN(r.sdkImport)) process.stdout.write(`${r.name}: of its "imported", the import of @aws-sdk/client-dynamodb alone: ${fmt(r.sdkImport, 1)} ms\n`);
  if (JSON_OUT) fs.writeFileSync(JSON_OUT, `${JSON.stringify({ node: process.version, runs: RUNS, loadavg: load, rows }, null, 2)}\n`);
}

await main();
