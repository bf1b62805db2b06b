/**
 * The kit runs where code generation from strings is forbidden (Cloudflare Workers, edge runtimes,
 * strict CSP): in a child `node --disallow-code-generation-from-strings`, every binding but Fastify
 * (Fastify itself generates code) passes every conformance check with the example shop, the service
 * client reads the sandbox's API, and validatePayload answers as anywhere else. Validators are
 * generated at build time (lib/generated/validators-*.ts), never compiled at run time.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

test('under --disallow-code-generation-from-strings: every binding, the client and validatePayload work', () => {
  const child = spawnSync(process.execPath, ['--disallow-code-generation-from-strings', '--import', 'tsx', here('./fixtures/no-code-generation.ts')], {
    encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, timeout: 120_000,
  });
  expect(child.stderr).toBe('');
  expect(JSON.parse(child.stdout)).toEqual({
    codeGeneration: 'EvalError', // the flag is in force: the run proves something
    bindings: { express: [], 'node:http': [], fetch: [], lambda: [] },
    client: 'ok',
    payload: [{ pointer: '/IsCompleted', rule: 'must be boolean or null' }],
  });
});

test('no module of lib/ compiles code: no AJV compiler, no new Function or eval outside lib/generated', () => {
  const lib = here('../../lib');
  const files = fs.readdirSync(lib, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => path.join(lib, f));
  const offenders: string[] = [];
  for (const file of files) {
    const source = fs.readFileSync(file, 'utf8');
    const rel = path.relative(lib, file);
    // A value import of AJV's compiler (type-only imports are erased); the generated code uses its run-time helpers only.
    if (/^import\s+(?!type\b)[^;]*from\s+'ajv(?:-formats)?(?:\/dist\/(?:2020|core|ajv))?(?:\.js)?';/m.test(source)) offenders.push(`${rel}: imports AJV`);
    if (!rel.startsWith('generated') && /new Function\(|\beval\(/.test(source)) offenders.push(`${rel}: generates code`);
    if (/createRequire\(/.test(source)) offenders.push(`${rel}: createRequire`);
  }
  expect(offenders).toEqual([]);
});
