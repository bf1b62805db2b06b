/**
 * `crossborder-merchant-kit init <dir>` (issue 51, item 2): the starter's files per binding and store,
 * the flags checked with a did-you-mean, a non-empty directory refused. That the written app installs,
 * type-checks, passes its own tests and the checker is .ci/starter.sh's (CI), against the packed tarball.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../lib/tools/cli/main.js';
import { STARTER_TEST_GUID } from '../../../lib/tools/cli/starter-files.js';
import { TEST_MERCHANT_GUID } from '../../../lib/testing/index.js';
import { VERSION } from '../../../lib/generated/version.js';

let root: string;
beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'cbk-init-')); });
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function run(argv: string[]) {
  const io = { out: '', err: '' };
  const code = await main(argv, { stdout: (t) => { io.out += t; }, stderr: (t) => { io.err += t; } });
  return { code, ...io };
}
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

test('the default: an Express app with MemoryStore, mounted at /crossborder, a test MerchantGUID, npm start and npm test', async () => {
  const dir = join(root, 'My Shop');
  const r = await run(['init', dir]);
  expect(r).toMatchObject({ code: 0, err: '' });
  expect(r.out).toContain('Wrote an express app with MemoryStore');
  const pkg = JSON.parse(read(dir, 'package.json'));
  expect(pkg).toMatchObject({ name: 'my-shop', private: true, type: 'module' });
  expect(pkg.dependencies).toEqual({ 'crossborder-merchant-kit': `^${VERSION}`, express: expect.any(String) });
  expect(pkg.scripts.start).toBe('tsx src/server.ts');
  expect(pkg.scripts.test).toContain('tsc --noEmit');
  expect(pkg.scripts.test).toContain('test/adapter.test.ts test/conformance.test.ts');
  expect(read(dir, 'src/app.ts')).toContain("app.use('/crossborder', createCallbackRouter({ merchantGuid, adapter, store }))");
  expect(read(dir, 'src/store.ts')).toContain('new MemoryStore()');
  expect(read(dir, '.env.example')).toContain(`MERCHANT_GUID=${STARTER_TEST_GUID}`);
  expect(read(dir, 'src/config.ts')).toContain(`process.env.MERCHANT_GUID ?? "${STARTER_TEST_GUID}"`);
  expect(read(dir, 'src/config.ts')).toContain('process.env.PORT ?? 3000');
  expect(read(dir, 'test/adapter.test.ts')).toContain("from 'crossborder-merchant-kit/testing'");
  expect(read(dir, 'test/conformance.test.ts')).toContain('runConformance(');
  expect(existsSync(join(dir, 'src/lambda.ts'))).toBe(false);
});

test('the starter\'s default GUID is the one the testing builders send (its adapter test goes through the kit)', () => {
  expect(STARTER_TEST_GUID).toBe(TEST_MERCHANT_GUID);
});

test.each([
  ['fetch', 'src/app.ts', "createFetchHandler({ merchantGuid, adapter, store, basePath: '/crossborder' })", []],
  ['fastify', 'src/app.ts', "app.register(fastifyCallbacks, { prefix: '/crossborder', merchantGuid, adapter, store })", ['fastify']],
  ['lambda', 'src/lambda.ts', "createLambdaHandler({ merchantGuid, adapter, store, basePath: '/crossborder' })", []],
])('--binding %s wires that binding at /crossborder', async (binding, file, wiring, deps) => {
  const dir = join(root, binding);
  expect((await run(['init', dir, '--binding', binding])).code).toBe(0);
  expect(read(dir, file)).toContain(wiring);
  expect(Object.keys(JSON.parse(read(dir, 'package.json')).dependencies).sort()).toEqual(['crossborder-merchant-kit', ...deps].sort());
});

test('--binding lambda with MemoryStore says it is one execution environment and points at DynamoDBStore', async () => {
  const dir = join(root, 'lambda-store');
  expect((await run(['init', dir, '--binding', 'lambda'])).code).toBe(0);
  expect(read(dir, 'src/store.ts')).toContain('new MemoryStore()');
  expect(read(dir, 'src/store.ts')).toMatch(/one per concurrent invocation: deployed, use DynamoDBStore\n\/\/ \(crossborder-merchant-kit init --store dynamodb, docs\/stores.md#dynamodbstore\)/);
  expect((await run(['init', join(root, 'express-store')])).code).toBe(0);
  expect(read(join(root, 'express-store'), 'src/store.ts')).not.toContain('DynamoDBStore');
});

test('--store postgres: PostgresStore on DATABASE_URL, pg a dependency, npm run migrate, DATABASE_URL in .env.example', async () => {
  const dir = join(root, 'pg');
  const r = await run(['init', dir, '--store', 'postgres']);
  expect(r.code).toBe(0);
  expect(r.out).toContain('npm run migrate');
  const pkg = JSON.parse(read(dir, 'package.json'));
  expect(pkg.dependencies.pg).toBeDefined();
  expect(pkg.scripts.migrate).toBe('crossborder-merchant-kit migrate');
  expect(read(dir, 'src/store.ts')).toContain('new PostgresStore({ pool, autoMigrate: false })');
  expect(read(dir, '.env.example')).toMatch(/^DATABASE_URL=postgres:\/\//m);
});

const kitPackage = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));

test.each(['express', 'fetch', 'fastify', 'lambda'])('--binding %s --store dynamodb: DynamoDBStore on CALLBACK_TABLE and DYNAMODB_ENDPOINT, its SDK a dependency, dynalite and create-table for local development', async (binding) => {
  const dir = join(root, `ddb-${binding}`);
  const r = await run(['init', dir, '--binding', binding, '--store', 'dynamodb']);
  expect(r).toMatchObject({ code: 0, err: '' });
  expect(r.out).toContain(`Wrote ${binding === 'express' ? 'an' : 'a'} ${binding} app with DynamoDBStore`);
  const dynalite = './node_modules/.bin/dynalite --host 127.0.0.1 --port 4567 --createTableMs 0 &';
  for (const text of [r.out, read(dir, 'README.md')]) {
    expect(text).toContain(dynalite);
    expect(text).toContain('export DYNAMODB_ENDPOINT=http://127.0.0.1:4567');
    expect(text).toContain('npm run create-table');
  }
  const pkg = JSON.parse(read(dir, 'package.json'));
  // the versions the kit itself is developed and tested with
  expect(pkg.dependencies['@aws-sdk/client-dynamodb']).toBe(kitPackage.devDependencies['@aws-sdk/client-dynamodb']);
  expect(pkg.devDependencies.dynalite).toBe(kitPackage.devDependencies.dynalite);
  expect(pkg.dependencies.pg).toBeUndefined();
  expect(pkg.scripts['create-table']).toBe('tsx src/create-table.ts');
  expect(pkg.scripts.migrate).toBeUndefined();
  const store = read(dir, 'src/store.ts');
  expect(store).toContain('import { DynamoDBClient } from "@aws-sdk/client-dynamodb";');
  expect(store).toContain("import { DynamoDBStore } from 'crossborder-merchant-kit/store/dynamodb';");
  expect(store).toContain("export const tableName = process.env.CALLBACK_TABLE ?? 'cbk-callbacks';");
  expect(store).toContain('new DynamoDBStore({ client, tableName })');
  expect(store).toContain('client.destroy()');
  expect(read(dir, 'src/create-table.ts')).toContain('await store.createTable()');
  expect(read(dir, 'test/conformance.test.ts')).toMatch(/await store\.createTable\(\);[^\n]*\n {2}const app = await startApp\(0\);/);
  expect(read(dir, '.env.example')).toMatch(/^CALLBACK_TABLE=cbk-callbacks$/m);
  expect(read(dir, '.env.example')).toMatch(/^DYNAMODB_ENDPOINT=http:\/\/127\.0\.0\.1:4567$/m);
  expect(read(dir, 'README.md')).toContain('docs/stores.md#the-table');
  expect(read(dir, 'README.md')).toMatch(/TTL on `ttl`/);
  expect(existsSync(join(dir, 'src/lambda.ts'))).toBe(binding === 'lambda');
});

test('the other stores write no create-table script', async () => {
  for (const store of ['memory', 'postgres']) {
    const dir = join(root, `no-table-${store}`);
    expect((await run(['init', dir, '--store', store])).code).toBe(0);
    expect(existsSync(join(dir, 'src/create-table.ts'))).toBe(false);
    expect(JSON.parse(read(dir, 'package.json')).scripts['create-table']).toBeUndefined();
    expect(read(dir, 'README.md')).not.toContain('dynalite');
  }
});

test('a misspelt --binding or --store is refused with a did-you-mean; nothing is written', async () => {
  const dir = join(root, 'typo');
  const a = await run(['init', dir, '--binding', 'fastfy']);
  expect(a.code).toBe(2);
  expect(a.err).toContain('--binding must be one of express, fetch, fastify, lambda (got "fastfy"); did you mean "fastify"?');
  const b = await run(['init', dir, '--store', 'postgress']);
  expect(b.err).toContain('did you mean "postgres"?');
  const c = await run(['init', dir, '--store', 'dynamdb']);
  expect(c.code).toBe(2);
  expect(c.err).toContain('--store must be one of memory, postgres, dynamodb (got "dynamdb"); did you mean "dynamodb"?');
  expect(existsSync(dir)).toBe(false);
});

test('a directory that is not empty is refused, its files untouched; no directory at all is a usage error', async () => {
  writeFileSync(join(root, 'package.json'), '{"name":"mine"}');
  const r = await run(['init', root]);
  expect(r.code).toBe(2);
  expect(r.err).toContain('is not empty: give a new or empty directory');
  expect(readdirSync(root)).toEqual(['package.json']);
  expect(read(root, 'package.json')).toBe('{"name":"mine"}');
  expect((await run(['init'])).code).toBe(2);
});
