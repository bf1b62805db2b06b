/**
 * Import tests: build dist/ as `npm run build` does (unless it is fresh), then load the package the way a consumer
 * does (by name, through the package.json "exports" map, in plain Node without any loader).
 * The packed-tarball checks (no Express installed, Express 4 and 5, TypeScript) are in .ci/consumer.sh.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { ensureFreshDist } from '../helpers/fresh-dist.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = (file: string, args: string[]) => execFileSync(file, args, { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });

beforeAll(() => {
  // `npm run build`: a clean dist/ first (files left by an older build cannot linger), tsc, the bundles
  // of the entry points (.ci/bundle-dist.mjs), the sandbox console's static files: what the package ships.
  // Skipped when dist/ is fresh (built after the last change to lib/, e.g. by CI just before): test/helpers/fresh-dist.ts.
  ensureFreshDist(root);
}, 120_000);

/**
 * The export names of every entry point, as `import` (or `require()`) in plain Node gives them: one
 * Node process loads them all (a process per entry point cost a second or so of start-up each).
 */
const loaded: Partial<Record<'import' | 'require', Record<string, string[]>>> = {};
function namesOf(how: 'import' | 'require', specifier: string): string[] {
  const all = loaded[how] ??= JSON.parse(how === 'import'
    ? run(process.execPath, ['--input-type=module', '-e', `const out = {}; for (const s of ${JSON.stringify(specifiers)}) out[s] = Object.keys(await import(s)).sort(); console.log(JSON.stringify(out));`])
    : run(process.execPath, ['--input-type=commonjs', '-e', `const out = {}; for (const s of ${JSON.stringify(specifiers.filter((s) => !s.endsWith('/express')))}) out[s] = Object.keys(require(s)).sort(); console.log(JSON.stringify(out));`])) as Record<string, string[]>;
  if (!all[specifier]) throw new Error(`${specifier} is not an entry point of package.json "exports" (${how})`);
  return all[specifier];
}
const importNames = (specifier: string) => namesOf('import', specifier);
const requireNames = (specifier: string) => namesOf('require', specifier);

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

const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string; exports: Record<string, string | { types: string; default: string }> };
/** The code entry points of package.json "exports" ('.', './express', …), without ./schemas/* and ./package.json. */
const entryPoints = Object.entries(pkg.exports).filter(([, v]) => typeof v === 'object').map(([k]) => k);
/** An entry point's code ('js') or type declarations ('d.ts'), relative to dist/, as package.json maps it. */
const distFile = (entry: string, kind: 'js' | 'd.ts'): string => {
  const target = pkg.exports[entry] as { types: string; default: string };
  return (kind === 'js' ? target.default : target.types).replace(/^\.\/dist\//, '');
};
const specifierOf = (entry: string) => (entry === '.' ? 'crossborder-merchant-kit' : `crossborder-merchant-kit/${entry.slice(2)}`);
const specifiers = entryPoints.map(specifierOf);

test('the root export gives the kit, errors, auth and validation, and no binding, store, client or customs', () => {
  const names = importNames('crossborder-merchant-kit');
  for (const n of ['createCallbackKit', 'CallbackError', 'KitError', 'KIT_ERROR_CODES', 'WIRE_ERRORS', 'DEFAULT_PATHS', 'DEFAULT_DECODE_FIELDS',
    'formDecode', 'createJwtStrategy', 'createBasicStrategy', 'timingSafeEqualString', 'validatePayload']) expect(names).toContain(n);
  // Moved to a subpath, renamed, or internal since 0.1 (CHANGELOG.md): none of them is on the root.
  for (const n of ['createCallbackRouter', 'createCallbackHandler', 'MemoryStore', 'PostgresStore', 'StoreFullError', 'applyPlace', 'holdOf', 'namespacedStore',
    'createServiceClient', 'ServiceError', 'exportDeclarationRequired', 'CUSTOMS_TERRITORY', 'safeCompare', 'canonicalJson', 'payloadHash']) {
    expect(names).not.toContain(n);
  }
});

test('/store, /store/durable-object, /client and /customs give their room, and nothing of another', () => {
  expect(importNames('crossborder-merchant-kit/store')).toEqual(
    ['LeaseLostError', 'MemoryStore', 'PostgresStore', 'StoreFullError', 'StoreHealthError', 'StoreSchemaError', 'applyDocuments', 'applyPlace', 'emptyHoldState', 'holdOf', 'namespacedStore']);
  expect(importNames('crossborder-merchant-kit/store/durable-object')).toEqual(['CallbackStoreObject', 'DurableObjectStore']);
  expect(importNames('crossborder-merchant-kit/client')).toEqual(['DISPATCH_ORDERS_CODES', 'DOCUMENT_TYPES', 'SERVICE_ERROR_CODES', 'SHIPPING_DOCUMENTS_CODES', 'ServiceError', 'VOID_PARCEL_CODES', 'createServiceClient']);
  expect(importNames('crossborder-merchant-kit/customs')).toEqual(['CUSTOMS_TERRITORY', 'EXPORT_DECLARATION_THRESHOLD_EUR',
    'customsTerritoryStatus', 'exportDeclarationForShipment', 'exportDeclarationRequired', 'normalisePostalCode']);
  expect(importNames('crossborder-merchant-kit/prices')).toEqual(['DEFAULT_REFRESH_MS', 'createLocalPrices']);
});

test('every entry point of "exports" has its types and code in dist/, and resolves in jest and tsc as in Node', () => {
  expect(entryPoints).toEqual(expect.arrayContaining(['.', './express', './node', './store', './client', './customs', './prices', './testing']));
  const jestConfig = readFileSync(path.join(root, 'jest.config.js'), 'utf8');
  const tsPaths = JSON.parse(readFileSync(path.join(root, 'tsconfig.json'), 'utf8')).compilerOptions.paths as Record<string, string[]>;
  for (const entry of entryPoints) {
    const target = pkg.exports[entry] as { types: string; default: string };
    const source = `./lib/${target.default.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts')}`;
    expect([entry, existsSync(path.join(root, target.types)), existsSync(path.join(root, target.default))]).toEqual([entry, true, true]);
    expect([entry, target.types]).toEqual([entry, target.default.replace(/\.js$/, '.d.ts')]);
    const specifier = specifierOf(entry);
    expect([entry, jestConfig.includes(`'^${specifier}$': '<rootDir>${source.slice(1)}'`)]).toEqual([entry, true]);
    expect([entry, tsPaths[specifier]]).toEqual([entry, [source]]);
  }
});

test('no entry point but /express reaches Express, and none reaches pg, in JavaScript or in the type declarations', () => {
  for (const entry of entryPoints.filter((e) => e !== './express')) {
    for (const file of [distFile(entry, 'js'), distFile(entry, 'd.ts')]) {
      const reached = packagesReachedFrom(file);
      expect([file, reached.has('express')]).toEqual([file, false]);
      expect([file, reached.has('pg')]).toEqual([file, false]);
      if (entry !== './fastify') expect([file, reached.has('fastify')]).toEqual([file, false]);
    }
  }
  // /fastify imports Fastify's types only: its JavaScript loads without Fastify installed.
  expect(packagesReachedFrom(distFile('./fastify', 'd.ts')).has('fastify')).toBe(true);
  expect(packagesReachedFrom(distFile('./fastify', 'js')).has('fastify')).toBe(false);
  // /fetch runs on Bun and Deno: no node:http behind it.
  expect([...packagesReachedFrom(distFile('./fetch', 'js'))].filter((p) => /^(node:)?(http|https|net)$/.test(p))).toEqual([]);
  // The walk itself works: the Express entry does reach Express.
  expect(packagesReachedFrom(distFile('./express', 'js')).has('express')).toBe(true);
});

test('the binding subpaths give one factory each', () => {
  expect(importNames('crossborder-merchant-kit/express')).toEqual(['createCallbackRouter']);
  expect(importNames('crossborder-merchant-kit/node')).toEqual(['createCallbackHandler']);
  expect(importNames('crossborder-merchant-kit/fetch')).toEqual(['createFetchHandler']);
  expect(importNames('crossborder-merchant-kit/fastify')).toEqual(['fastifyCallbacks']);
  expect(importNames('crossborder-merchant-kit/lambda')).toEqual(['createLambdaHandler']);
});

test('CommonJS require() gives the same names as import for every entry point (Node >= 20.19 loads the ES modules)', () => {
  for (const spec of entryPoints.filter((e) => e !== './express').map(specifierOf)) {
    expect([spec, requireNames(spec)]).toEqual([spec, importNames(spec)]);
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

/** The files `npm pack` puts in the tarball (one `npm pack --dry-run` for the tests that read them: ~3 s each). */
let packed: string[] | undefined;
const packedFiles = () => packed ??= JSON.parse(run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts']))[0].files.map((f: { path: string }) => f.path) as string[];

test('dist ships no source maps (they would point at unshipped sources)', () => {
  const files = packedFiles();
  expect(files.filter((f: string) => f.endsWith('.map'))).toEqual([]);
  expect(files).toContain('dist/index.js');
  expect(files).toContain('dist/bindings/express/index.d.ts');
  expect(files.filter((f: string) => f.startsWith('docs/') || f.startsWith('lib/') || f.startsWith('test/'))).toEqual([]);
});

test('the package ships the licence of every package whose code dist/ bundles', () => {
  const chunks = readdirSync(path.join(root, 'dist', 'chunks')).map((f) => path.join(root, 'dist', 'chunks', f));
  const bundled = new Set(chunks.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/^\/\/ (?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/gm)].map((m) => m[1])));
  expect(bundled.has('helmet')).toBe(true);
  const notices = readFileSync(path.join(root, 'dist', 'THIRD-PARTY-NOTICES.md'), 'utf8');
  for (const name of bundled) {
    const { version } = JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
    expect(notices).toContain(`## ${name} ${version} (`);
  }
  expect(notices).toContain('Permission is hereby granted, free of charge');
  const files = packedFiles();
  expect(files).toContain('dist/THIRD-PARTY-NOTICES.md');
});

test('the JSON Schemas are importable by path', () => {
  const out = run(process.execPath, ['--input-type=module', '-e',
    `import s from 'crossborder-merchant-kit/schemas/common.schema.json' with { type: 'json' }; console.log(typeof s.$id);`]);
  expect(out.trim()).toBe('string');
});

test('module state is one per process across entry points (the bundles share their chunks): a KitError from /lambda is the root\'s KitError', () => {
  const script = `
    import { KitError } from 'crossborder-merchant-kit';
    import { createLambdaHandler } from 'crossborder-merchant-kit/lambda';
    import { createFetchHandler } from 'crossborder-merchant-kit/fetch';
    import { MemoryStore, StoreFullError } from 'crossborder-merchant-kit/store';
    const caught = (f) => { try { f(); return null; } catch (e) { return e; } };
    const a = caught(() => createLambdaHandler({ adapter: {} }));
    const b = caught(() => createFetchHandler({ adapter: {}, merchantGuid: 'g', store: new MemoryStore({ maxEntries: 'x' }) }));  // thrown by /store's MemoryStore
    console.log(JSON.stringify({ lambda: a instanceof KitError, fetch: b instanceof KitError, code: a && a.code, full: typeof StoreFullError }));`;
  expect(JSON.parse(run(process.execPath, ['--input-type=module', '-e', script]))).toEqual({ lambda: true, fetch: true, code: 'ERR_CBK_OPTION_REQUIRED', full: 'function' });
});

test('the bundled sandbox serves its console\'s static files, and the bundled CLI knows its version', () => {
  const script = `
    import { createSandbox } from 'crossborder-merchant-kit/sandbox';
    const sandbox = createSandbox({ port: 0, host: '127.0.0.1' });
    const url = await sandbox.listen();
    const res = await fetch(url + '/_console/console.css');
    console.log(JSON.stringify({ status: res.status, type: res.headers.get('content-type'), bytes: (await res.text()).length > 100 }));
    await sandbox.close();`;
  expect(JSON.parse(run(process.execPath, ['--input-type=module', '-e', script]))).toEqual({ status: 200, type: expect.stringMatching(/^text\/css/), bytes: true });
  expect(run(process.execPath, [path.join(root, 'dist/tools/cli/bin.js'), '--version']).trim()).toBe(pkg.version);
});

test('a binding loads no generated validator before its first delivery, and the bundle\'s dynamic imports name each callback\'s (cold start, docs/performance.md)', () => {
  /** The files a dist entry imports statically, at any depth (`import ... from`, not `import()`). */
  const staticClosure = (entry: string): string[] => {
    const seen = new Set<string>();
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*['"](\.[^'"]+)['"]|(?:^|\n)\s*import\s*['"](\.[^'"]+)['"]/g)) {
        walk(path.resolve(path.dirname(file), m[1] ?? m[2]));
      }
    };
    walk(path.join(root, 'dist', entry));
    return [...seen];
  };
  for (const entry of ['bindings/lambda/index.js', 'bindings/fetch/index.js', 'bindings/node/index.js', 'bindings/express/index.js']) {
    const files = staticClosure(entry);
    // esbuild names each bundled module in a comment: none of the generated validator modules is among them.
    const validators = files.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/^\/\/ dist\/generated\/validators\/(\S+)$/gm)].map((m) => m[1]));
    expect([entry, validators]).toEqual([entry, ['index.js']]);
  }
  // The lazy imports are there: the core imports each generated module by name.
  const core = staticClosure('bindings/lambda/index.js').map((f) => readFileSync(f, 'utf8')).join('\n');
  expect(core).toMatch(/import\("\.\/tolerant-perform-order-payment\.request\+send-order-to-merchant\.request\+update-order-status\.request-\w+\.js"\)/);
});
