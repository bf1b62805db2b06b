/**
 * The API reference (`npm run docs:reference`, issue 51 item 6) covers every entry point a user can
 * import: typedoc.json names one entry point per package.json "exports" path (its types' source), each
 * with its import path as the module name, and fails on an export without TSDoc. The TypeDoc run itself
 * is a step of .ci/run (it takes longer than a unit test should).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const json = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8')) as Record<string, unknown>;

/** Each "exports" path with types → [import path, its source in lib/]. */
function entryPoints(): Array<[string, string]> {
  const exportsMap = json('package.json').exports as Record<string, string | { types?: string }>;
  return Object.entries(exportsMap)
    .filter((e): e is [string, { types: string }] => typeof e[1] === 'object' && typeof e[1].types === 'string')
    .map(([subpath, target]) => [
      `crossborder-merchant-kit${subpath.slice(1)}`,
      target.types.replace(/^\.\/dist\//, 'lib/').replace(/\.d\.ts$/, '.ts'),
    ]);
}

test('typedoc.json documents every entry point of package.json "exports", and nothing else', () => {
  const entries = entryPoints();
  expect(entries.length).toBeGreaterThan(10);
  expect([...(json('typedoc.json').entryPoints as string[])].sort()).toEqual(entries.map(([, source]) => source).sort());
});

test('each entry point is named by its import path (its @module tag)', () => {
  for (const [name, source] of entryPoints()) {
    const head = /^\/\*\*[\s\S]*?\*\//.exec(readFileSync(path.join(root, source), 'utf8'))?.[0] ?? '';
    expect(`${source}: ${/@module (\S+)/.exec(head)?.[1]}`).toBe(`${source}: ${name}`);
  }
});

test('an export without TSDoc, or a type an export uses that is not exported, fails the reference build, which CI runs', () => {
  const options = json('typedoc.json');
  expect(options.validation).toMatchObject({ notDocumented: true, notExported: true });
  expect(options.treatValidationWarningsAsErrors).toBe(true);
  expect(json('package.json').scripts).toMatchObject({ 'docs:reference': expect.stringContaining('typedoc.json') });
  expect(readFileSync(path.join(root, '.ci/run'), 'utf8')).toMatch(/^npm run docs:reference\b/m);
});
