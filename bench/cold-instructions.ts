/**
 * Cold start in executed instructions (issue 48 item 6): whole processes under valgrind's callgrind,
 * spawn to exit, as bench/cold-start.ts times them: `node --predictable <probe>` imports a build's
 * `/lambda` or `/node` binding, constructs it and answers one SendOrderToMerchant (the 20-line order,
 * default MemoryStore, tolerant validation; `/node` over loopback with node:http's client). An empty
 * script is the floor (Node's own start). Instructions, not time: other processes do not change them.
 *
 *   node --import tsx bench/cold-instructions.ts [runs = 2] <label>=<dist dir> ...
 * Needs valgrind; ~20-40 s a process.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bodyTemplate, MERCHANT_GUID, ORDER_ID_PLACEHOLDER } from './fixtures.js';

const args = process.argv.slice(2);
const runs = /^\d+$/.test(args[0] ?? '') ? Number(args.shift()) : 2;
const builds = args.map((a) => a.split('=') as [string, string]);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cbk-cold-'));
const bodyFile = path.join(tmp, 'body.json');
fs.writeFileSync(bodyFile, bodyTemplate(20).replace(ORDER_ID_PLACEHOLDER, 'GE-COLD-1'));

const KIT_OPTIONS = `{ merchantGuid: ${JSON.stringify(MERCHANT_GUID)}, logger: false, adapter: { sendOrderToMerchant: () => ({ InternalOrderId: 'INT-1' }),
  updateOrderStatus: () => ({}), getCheckoutCartInfo: () => ({ productsList: [] }), receiveAdditionalRequiredDocuments: () => undefined } }`;
const PRELUDE = `import fs from 'node:fs';\nimport http from 'node:http';\nconst BODY = fs.readFileSync(process.argv[2], 'utf8');\nconst done = (s) => { if (s !== 200) { console.error('status', s); process.exit(1); } };\n`;
const probes = (dist: string): Record<string, string> => ({
  '/lambda': `${PRELUDE}const { createLambdaHandler } = await import(${JSON.stringify(pathToFileURL(path.join(dist, 'bindings/lambda/index.js')).href)});
const handler = createLambdaHandler(${KIT_OPTIONS});
handler({ version: '2.0', rawPath: '/SendOrderToMerchant', rawQueryString: '', headers: { 'content-type': 'application/json' },
  requestContext: { http: { method: 'POST', path: '/SendOrderToMerchant', sourceIp: '127.0.0.1' } }, body: BODY, isBase64Encoded: false }).then((r) => done(r.statusCode));
`,
  '/node': `${PRELUDE}const { createCallbackHandler } = await import(${JSON.stringify(pathToFileURL(path.join(dist, 'bindings/node/index.js')).href)});
const server = http.createServer(createCallbackHandler(${KIT_OPTIONS}));
server.listen(0, '127.0.0.1', () => {
  const req = http.request({ port: server.address().port, host: '127.0.0.1', method: 'POST', path: '/SendOrderToMerchant', headers: { 'content-type': 'application/json' } }, (res) => {
    res.resume(); res.on('end', () => { server.close(); done(res.statusCode); });
  });
  req.end(BODY);
});
`,
});

function count(source: string, name: string): number {
  const file = path.join(tmp, `${name}.mjs`);
  fs.writeFileSync(file, source);
  const out = path.join(tmp, `${name}.out`);
  execFileSync('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, '--smc-check=all-non-file',
    process.execPath, '--predictable', '--predictable-gc-schedule', file, bodyFile], { stdio: 'ignore', env: { ...process.env, NODE_OPTIONS: '' } });
  const total = /^(?:summary|totals):\s*(\d+)/m.exec(fs.readFileSync(out, 'utf8'));
  fs.rmSync(out);
  if (!total) throw new Error(`no count for ${name}`);
  return Number(total[1]);
}

const M = (n: number) => (n / 1e6).toFixed(1);
const floor: number[] = [];
for (let r = 0; r < runs; r++) floor.push(count('process.exitCode = 0;\n', 'floor'));
console.log(`floor (empty script): ${floor.map(M).join(' / ')} M instructions`);
const min = Math.min(...floor);
for (const [label, dist] of builds) {
  for (const [entry, source] of Object.entries(probes(dist))) {
    const counts: number[] = [];
    for (let r = 0; r < runs; r++) counts.push(count(source, `${label}-${entry.slice(1)}`));
    console.log(`${label.padEnd(6)} ${entry.padEnd(8)} ${counts.map(M).join(' / ')} M; over the floor ${counts.map((c) => M(c - min)).join(' / ')} M`);
  }
}
fs.rmSync(tmp, { recursive: true });
