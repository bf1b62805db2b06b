#!/usr/bin/env node
/**
 * The runtime matrix (`npm run test:runtimes`, part of .ci/run): the packed tarball installed into an
 * empty project with the recipes of docs/bindings.md (examples/runtimes/), each served by its runtime
 * and checked by the installed `crossborder-merchant-kit check --callbacks <the recipe shop's methods>`:
 * every check of a callback examples/runtimes/shop.mjs implements must pass (the shop implements every
 * callback a check sent when it was written, so all of those run on every runtime); a check is skipped
 * only when its callback is one the shop does not implement (a callback added since: its check runs
 * against the example shop in `npm test`), and the matrix lists those skips. Rows:
 *   - Node (this node), the Next.js route module on node:http (.ci/runtimes/serve-route.mjs);
 *   - the same under `node --disallow-code-generation-from-strings` (the checker too);
 *   - Deno 2 (npm package `deno`) and Bun (npm package `bun`), their own servers;
 *   - workerd through Miniflare (npm package `miniflare`, nodejs_compat), the Workers + Hono recipe
 *     bundled with esbuild as wrangler bundles it (.ci/runtimes/bundle-worker.mjs);
 *   - the Lambda handler behind a local API Gateway, payload 2.0 and 1.0 (.ci/runtimes/api-gateway.mjs).
 * Prints each runtime's version and the Worker bundle's size (minified, gzipped), which must stay
 * within WORKER_GZIP_BUDGET. Exits 1 when any runtime fails a check or the bundle is over budget.
 *
 *   npm run test:runtimes                 (packs the package: prepack builds dist/)
 *   RUNTIMES_TARBALL=x.tgz npm run test:runtimes   (an already packed tarball)
 *   RUNTIMES_ONLY=workerd npm run test:runtimes    (only the rows whose name contains it)
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const HERE = path.join(ROOT, '.ci', 'runtimes');
/** Gzipped size (bytes) the Workers + Hono bundle must stay within (docs/performance.md, "Worker bundle"). */
export const WORKER_GZIP_BUDGET = 140_000;
const SHOP = fs.readFileSync(path.join(ROOT, 'examples/runtimes/shop.mjs'), 'utf8');
const MERCHANT_GUID = /MERCHANT_GUID = '([^']+)'/.exec(SHOP)[1];
/** The callbacks the recipe shop implements: the methods of its `adapter` (`  async name(`). */
const SHOP_CALLBACKS = [...SHOP.matchAll(/^ {2}async (\w+)\(/gm)].map((m) => m[1]);
/** A skip the matrix accepts: a check of a callback the shop does not implement (left out of --callbacks). */
const notInShop = (c) => c.status === 'skip' && /^(\w+) is not in --callbacks$/.test(c.detail) && !SHOP_CALLBACKS.includes(c.detail.split(' ')[0]);
const CART_TOKEN = 'demo-cart';
const started = Date.now();

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cbk-runtimes-'));
const project = path.join(work, 'project');
const cleanup = () => fs.rmSync(work, { recursive: true, force: true });
process.on('exit', cleanup);

const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts }).trim();
const step = (text) => process.stdout.write(`runtimes: ${text}\n`);

// 1. The package as users get it, installed into an empty project with the recipes.
let tarball = process.env.RUNTIMES_TARBALL;
if (!tarball) {
  step('npm pack (prepack builds dist/)');
  const name = run('npm', ['pack', '--silent', '--pack-destination', work], { cwd: ROOT }).split('\n').pop();
  tarball = path.join(work, name);
}
fs.mkdirSync(project);
fs.writeFileSync(path.join(project, 'package.json'), `${JSON.stringify({ name: 'runtimes', private: true, type: 'module' })}\n`);
const honoVersion = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/hono/package.json'), 'utf8')).version;
step(`install ${path.basename(tarball)} and hono@${honoVersion}`);
run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', path.resolve(tarball), `hono@${honoVersion}`], { cwd: project });
fs.cpSync(path.join(ROOT, 'examples/runtimes'), project, { recursive: true });
for (const f of ['serve-route.mjs', 'api-gateway.mjs']) fs.copyFileSync(path.join(HERE, f), path.join(project, f));

// 2. The Worker bundle, as wrangler builds it.
const bundle = path.join(work, 'worker.bundle.mjs');
const size = JSON.parse(run(process.execPath, [path.join(HERE, 'bundle-worker.mjs'), path.join(project, 'worker.mjs'), bundle]));

const versions = {
  node: process.version,
  deno: run(path.join(BIN, 'deno'), ['--version']).split('\n')[0],
  bun: `bun ${run(path.join(BIN, 'bun'), ['--version'])}`,
  workerd: `${run(path.join(BIN, 'workerd'), ['--version'])} (miniflare ${JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/miniflare/package.json'), 'utf8')).version})`,
  esbuild: `esbuild ${run(path.join(BIN, 'esbuild'), ['--version'])}`,
};
for (const [k, v] of Object.entries(versions)) step(`${k}: ${v}`);

const NO_CODEGEN = '--disallow-code-generation-from-strings';
const ROUTE = path.join('app', 'crossborder', '[...callback]', 'route.mjs');
const ROWS = [
  ['Node, Next.js route module', process.execPath, ['serve-route.mjs', ROUTE]],
  [`Node ${NO_CODEGEN}`, process.execPath, [NO_CODEGEN, 'serve-route.mjs', ROUTE], [NO_CODEGEN]],
  ['Deno, Deno.serve', path.join(BIN, 'deno'), ['run', '--allow-net=127.0.0.1', '--allow-read', '--allow-env', 'deno.mjs']],
  ['Bun, Bun.serve', path.join(BIN, 'bun'), ['bun.mjs']],
  ['workerd (Miniflare), Workers + Hono', process.execPath, [path.join(HERE, 'miniflare.mjs'), bundle]],
  ['Lambda, API Gateway payload 2.0', process.execPath, ['api-gateway.mjs', 'v2', 'lambda.mjs']],
  ['Lambda, API Gateway payload 1.0', process.execPath, ['api-gateway.mjs', 'v1', 'lambda.mjs']],
];

/** Starts a server and resolves with its URL (its first `listening <url>` line). */
function serve(cmd, args) {
  const child = spawn(cmd, args, { cwd: project, env: { ...process.env, PORT: '0', NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" line within 60 s\n${out}${err}`)), 60_000);
    child.stdout.on('data', (c) => {
      out += c;
      const m = /listening (http:\/\/\S+)/.exec(out);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    child.stderr.on('data', (c) => { err += c; });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`exited with ${code} before listening\n${out}${err}`)); });
  });
  return { child, url, stderr: () => err };
}

function check(url, nodeFlags = []) {
  const cli = path.join(project, 'node_modules', 'crossborder-merchant-kit', 'dist', 'tools', 'cli', 'bin.js');
  const args = [...nodeFlags, cli, 'check', `${url}/crossborder`, '--guid', MERCHANT_GUID, '--cart-token', CART_TOKEN, '--callbacks', SHOP_CALLBACKS.join(','), '--json'];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: project, env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => { out += c; });
    child.stderr.on('data', (c) => { err += c; });
    child.on('exit', (code) => {
      try {
        resolve({ code, report: JSON.parse(out), err });
      } catch {
        resolve({ code, report: null, err: `${out}${err}` });
      }
    });
  });
}

let failures = 0;
// RUNTIMES_ONLY=workerd: only the rows whose name contains it (the bundle's size is printed either way).
const only = process.env.RUNTIMES_ONLY;
for (const [name, cmd, args, checkFlags] of ROWS.filter(([n]) => !only || n.includes(only))) {
  const t0 = Date.now();
  const server = serve(cmd, args);
  let line;
  try {
    const url = await server.url;
    const { code, report, err } = await check(url, checkFlags);
    const bad = report ? report.checks.filter((c) => c.status !== 'pass' && !notInShop(c)) : [];
    const skipped = report ? report.checks.filter(notInShop).map((c) => c.id) : [];
    const ok = code === 0 && report && bad.length === 0 && report.passed + skipped.length === report.checks.length;
    if (!ok) failures++;
    line = `${ok ? 'PASS' : 'FAIL'}  ${name.padEnd(40)} ${report ? `${report.passed}/${report.checks.length} checks` : 'no report'}  ${((Date.now() - t0) / 1000).toFixed(1)} s`;
    if (skipped.length > 0) line += `\n      skipped (a callback the recipe shop does not implement): ${skipped.join(', ')}`;
    if (!ok) line += `\n${report ? bad.map((c) => `      ${c.id}: ${c.status} ${c.detail}`).join('\n') : err}\n      server stderr: ${server.stderr().slice(-2000)}`;
  } catch (e) {
    failures++;
    line = `FAIL  ${name.padEnd(40)} ${e instanceof Error ? e.message : String(e)}`;
  } finally {
    server.child.kill('SIGTERM');
  }
  process.stdout.write(`${line}\n`);
}

const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
const overBudget = size.gzipBytes > WORKER_GZIP_BUDGET;
process.stdout.write(`Worker bundle (Workers + Hono recipe, esbuild --minify): ${kb(size.bytes)} minified, ${kb(size.gzipBytes)} gzipped (budget ${kb(WORKER_GZIP_BUDGET)})${overBudget ? ': OVER BUDGET' : ''}\n`);
const ran = ROWS.filter(([n]) => !only || n.includes(only)).length;
process.stdout.write(`runtimes: ${ran - failures}/${ran} runtimes pass, ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
process.exitCode = failures > 0 || overBudget ? 1 : 0;
