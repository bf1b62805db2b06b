/**
 * The published declarations bring Node's types in themselves: a TypeScript 6+ project leaves its
 * `types` option at `[]` (no `@types/*` package is loaded unless something references it), so a
 * consumer with `@types/node` installed but no `"types": ["node"]` must still type-check every entry
 * point (Buffer, node:http, node:crypto in dist/**.d.ts). dist/ is built as `npm run build` does unless
 * it is fresh (test/helpers/fresh-dist.ts); the consumer resolves the package by its own name, through
 * package.json "exports", as an installed one does.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureFreshDist, ROOT } from '../helpers/fresh-dist.js';

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; exports: Record<string, unknown> };
// /express and /fastify are left out: @types/express and fastify's own types reference Node's types,
// so a consumer of those entry points would get them whatever the kit's declarations say.
const entryPoints = Object.keys(pkg.exports)
  .filter((key) => !key.includes('*') && key !== './package.json' && key !== './express' && key !== './fastify')
  .map((key) => (key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`));
const dir = path.join(ROOT, 'test-artifacts', `types-node-${process.pid}`);

beforeAll(() => {
  ensureFreshDist(ROOT);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'consumer.ts'),
    entryPoints.map((specifier, i) => `import * as m${i} from '${specifier}';\nexport const e${i} = Object.keys(m${i});\n`).join(''));
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true,
      skipLibCheck: false, types: [],
    },
    files: ['consumer.ts'],
  }));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('every entry point type-checks in a project whose "types" is [] (TypeScript 6+ default)', () => {
  expect(entryPoints).toContain(`${pkg.name}/node`);
  let output = '';
  try {
    execFileSync(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', dir], { cwd: ROOT, encoding: 'utf8' });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    output = `${stdout ?? ''}${stderr ?? ''}` || String(err);
  }
  expect(output).toBe('');
}, 120_000);
