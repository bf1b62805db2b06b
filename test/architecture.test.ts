/** The house rules of lib/ (docs/architecture.md): zero import cycles, type-only imports included, and the layering. */
import { fileURLToPath } from 'node:url';
// @ts-expect-error a plain ESM script of .ci/, without type declarations
import { checkImports, importsOf } from '../.ci/imports.mjs';

test('lib/ has no import cycle and no layering break', () => {
  const { files, cycles, breaks } = checkImports(fileURLToPath(new URL('..', import.meta.url)));
  expect(files).toBeGreaterThan(40);
  expect(cycles).toEqual([]);
  expect(breaks).toEqual([]);
});

test('the checker sees every form of import, type-only ones included', () => {
  const source = [
    "import { a } from './a.js';",
    "import type { B } from '../b.js';",
    "export { c } from './c.js';",
    "export type { D } from './d/index.js';",
    "import './side-effect.js';",
    "type E = import('./e.js').E;",
    "import x from 'node:fs';",
  ].join('\n');
  expect(importsOf(source)).toEqual(expect.arrayContaining(['./a.js', '../b.js', './c.js', './d/index.js', './side-effect.js', './e.js']));
  expect(importsOf(source)).not.toContain('node:fs');
});
