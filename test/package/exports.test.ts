/**
 * Import tests: build dist/ as `npm run build` does, then import the package the way a consumer
 * does (by name, through the package.json "exports" map, in plain Node ESM without any loader).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = (file: string, args: string[]) => execFileSync(file, args, { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });

beforeAll(() => {
  run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json']);
}, 120_000);

function importNames(specifier: string): string[] {
  const out = run(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(specifier)}); console.log(JSON.stringify(Object.keys(m).sort()));`]);
  return JSON.parse(out);
}

test('the root export gives the factories, errors and stores', () => {
  const names = importNames('crossborder-merchant-kit');
  for (const n of ['createCallbackRouter', 'createCallbackHandler', 'CallbackError', 'KitError', 'MemoryStore', 'PostgresStore',
    'DEFAULT_PATHS', 'DEFAULT_DECODE_FIELDS', 'createJwtStrategy']) expect(names).toContain(n);
});

test('the testing export gives the supertest helpers', () => {
  const names = importNames('crossborder-merchant-kit/testing');
  for (const n of ['basicAuthHeader', 'signTestJwt', 'buildOrder', 'buildCartInfoQuery']) expect(names).toContain(n);
});

test('a router built from dist answers a callback in plain Node', () => {
  const script = `
    import http from 'node:http';
    import express from 'express';
    import { createCallbackRouter } from 'crossborder-merchant-kit';
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

test('the JSON Schemas are importable by path', () => {
  const out = run(process.execPath, ['--input-type=module', '-e',
    `import s from 'crossborder-merchant-kit/schemas/common.schema.json' with { type: 'json' }; console.log(typeof s.$id);`]);
  expect(out.trim()).toBe('string');
});
