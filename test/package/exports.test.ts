/**
 * Import tests: build dist/ as `npm run build` does, then load the package the way a consumer
 * does (by name, through the package.json "exports" map, in plain Node without any loader).
 * The packed-tarball checks (no Express installed, Express 4 and 5, TypeScript) are in .ci/consumer.sh.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = (file: string, args: string[]) => execFileSync(file, args, { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });

beforeAll(() => {
  // As `npm run build` does: a clean dist/ first, so files left by an older build cannot linger.
  rmSync(path.join(root, 'dist'), { recursive: true, force: true });
  run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json']);
}, 120_000);

function importNames(specifier: string): string[] {
  const out = run(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(specifier)}); console.log(JSON.stringify(Object.keys(m).sort()));`]);
  return JSON.parse(out);
}

function requireNames(specifier: string): string[] {
  const out = run(process.execPath, ['--input-type=commonjs', '-e', `console.log(JSON.stringify(Object.keys(require(${JSON.stringify(specifier)})).sort()));`]);
  return JSON.parse(out);
}

/** Bare specifiers (packages) reachable from a dist entry file through its relative imports. */
function packagesReachedFrom(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
      const spec = m[1];
      if (spec.startsWith('.')) walk(path.resolve(path.dirname(file), spec.replace(/\.js$/, entry.endsWith('.d.ts') ? '.d.ts' : '.js')));
      else packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
    }
  };
  walk(path.join(root, 'dist', entry));
  return packages;
}

test('the root export gives the kit, errors and stores, and no binding', () => {
  const names = importNames('crossborder-merchant-kit');
  for (const n of ['createCallbackKit', 'CallbackError', 'KitError', 'MemoryStore', 'PostgresStore',
    'DEFAULT_PATHS', 'DEFAULT_DECODE_FIELDS', 'createJwtStrategy']) expect(names).toContain(n);
  expect(names).not.toContain('createCallbackRouter');
});

test('neither the root nor /node reaches Express, in JavaScript or in the type declarations', () => {
  for (const entry of ['index.js', 'index.d.ts', 'node/index.js', 'node/index.d.ts', 'testing/index.js', 'testing/index.d.ts',
    'fetch/index.js', 'fetch/index.d.ts', 'lambda/index.js', 'lambda/index.d.ts', 'express/index.js', 'express/index.d.ts']) {
    const reached = packagesReachedFrom(entry);
    if (!entry.startsWith('express/')) expect([entry, reached.has('express')]).toEqual([entry, false]);
    expect([entry, reached.has('pg')]).toEqual([entry, false]);
    expect([entry, reached.has('fastify')]).toEqual([entry, false]);
  }
  // /fastify imports Fastify's types only: its JavaScript loads without Fastify installed.
  expect(packagesReachedFrom('fastify/index.d.ts').has('fastify')).toBe(true);
  expect(packagesReachedFrom('fastify/index.js').has('fastify')).toBe(false);
  // /fetch runs on Bun and Deno: no node:http behind it.
  expect([...packagesReachedFrom('fetch/index.js')].filter((p) => /^(node:)?(http|https|net)$/.test(p))).toEqual([]);
  // The walk itself works: the Express entry does reach Express.
  expect(packagesReachedFrom('express/index.js').has('express')).toBe(true);
});

test('the binding subpaths give one factory each', () => {
  expect(importNames('crossborder-merchant-kit/express')).toEqual(['createCallbackRouter']);
  expect(importNames('crossborder-merchant-kit/node')).toEqual(['createCallbackHandler']);
  expect(importNames('crossborder-merchant-kit/fetch')).toEqual(['createFetchHandler']);
  expect(importNames('crossborder-merchant-kit/fastify')).toEqual(['fastifyCallbacks']);
  expect(importNames('crossborder-merchant-kit/lambda')).toEqual(['createLambdaHandler']);
});

test('CommonJS require() gives the same names as import (Node >= 20.19 loads the ES modules)', () => {
  for (const spec of ['crossborder-merchant-kit', 'crossborder-merchant-kit/express', 'crossborder-merchant-kit/node', 'crossborder-merchant-kit/testing',
    'crossborder-merchant-kit/fetch', 'crossborder-merchant-kit/lambda']) {
    expect(requireNames(spec)).toEqual(importNames(spec));
  }
});

test('the testing export gives the supertest helpers', () => {
  const names = importNames('crossborder-merchant-kit/testing');
  for (const n of ['basicAuthHeader', 'signTestJwt', 'buildOrder', 'buildCartInfoQuery']) expect(names).toContain(n);
});

test('a router built from dist answers a callback in plain Node', () => {
  const script = `
    import express from 'express';
    import { createCallbackRouter } from 'crossborder-merchant-kit/express';
    import { buildOrder, TEST_MERCHANT_GUID } from 'crossborder-merchant-kit/testing';
    const app = express();
    app.use('/cb', createCallbackRouter({ merchantGuid: TEST_MERCHANT_GUID, adapter: {
      sendOrderToMerchant: (o) => ({ InternalOrderId: 'dist-' + o.OrderId }), updateOrderStatus: () => {} } }));
    const server = app.listen(0, '127.0.0.1', async () => {
      const order = buildOrder();
      const res = await fetch('http://127.0.0.1:' + server.address().port + '/cb/SendOrderToMerchant', {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(order) });
      console.log(JSON.stringify({ status: res.status, body: await res.json(), orderId: order.OrderId }));
      server.close();
    });`;
  const out = JSON.parse(run(process.execPath, ['--input-type=module', '-e', script]));
  expect(out.status).toBe(200);
  expect(out.body).toEqual({ Success: true, InternalOrderId: `dist-${out.orderId}` });
});

test('a node:http handler built from dist answers a callback, loaded with require()', () => {
  const script = `
    const http = require('node:http');
    const { createCallbackHandler } = require('crossborder-merchant-kit/node');
    const { buildOrder, TEST_MERCHANT_GUID } = require('crossborder-merchant-kit/testing');
    const server = http.createServer(createCallbackHandler({ merchantGuid: TEST_MERCHANT_GUID, adapter: {
      sendOrderToMerchant: (o) => ({ InternalOrderId: 'cjs-' + o.OrderId }), updateOrderStatus: () => {} } }));
    server.listen(0, '127.0.0.1', async () => {
      const order = buildOrder();
      const res = await fetch('http://127.0.0.1:' + server.address().port + '/SendOrderToMerchant', {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(order) });
      console.log(JSON.stringify({ status: res.status, body: await res.json(), orderId: order.OrderId }));
      server.close();
    });`;
  const out = JSON.parse(run(process.execPath, ['--input-type=commonjs', '-e', script]));
  expect(out.status).toBe(200);
  expect(out.body).toEqual({ Success: true, InternalOrderId: `cjs-${out.orderId}` });
});

test('dist ships no source maps (they would point at unshipped sources)', () => {
  const files = JSON.parse(run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts']))[0].files.map((f: { path: string }) => f.path);
  expect(files.filter((f: string) => f.endsWith('.map'))).toEqual([]);
  expect(files).toContain('dist/index.js');
  expect(files).toContain('dist/express/index.d.ts');
  expect(files.filter((f: string) => f.startsWith('docs/') || f.startsWith('lib/') || f.startsWith('test/'))).toEqual([]);
});

test('the JSON Schemas are importable by path', () => {
  const out = run(process.execPath, ['--input-type=module', '-e',
    `import s from 'crossborder-merchant-kit/schemas/common.schema.json' with { type: 'json' }; console.log(typeof s.$id);`]);
  expect(out.trim()).toBe('string');
});
