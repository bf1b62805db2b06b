/** The house rules of lib/ (docs/architecture.md): zero import cycles, type-only imports included, and the layering. */
import { fileURLToPath } from 'node:url';
// @ts-expect-error a plain ESM script of .ci/, without type declarations
import { bareImportsOf, checkImports, importsOf } from '../.ci/imports.mjs';

test('lib/ has no import cycle and no layering break', () => {
  const { files, cycles, breaks } = checkImports(fileURLToPath(new URL('..', import.meta.url)));
  expect(files).toBeGreaterThan(40);
  expect(cycles).toEqual([]);
  expect(breaks).toEqual([]);
});

test('lib/core/exactly-once/ is imported through its index.ts only (one entry: a reader follows an order from it)', async () => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cbk-imports-'));
  try {
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    };
    write('lib/core/exactly-once/index.ts', "export { fromStore } from './settle.js';\n");
    write('lib/core/exactly-once/settle.ts', 'export const fromStore = 1;\n');
    write('lib/core/deliver.ts', "import { fromStore } from './exactly-once/index.js';\nexport const a = fromStore;\n");
    expect(checkImports(root).breaks).toEqual([]);
    write('lib/core/kit.ts', "import type { fromStore } from './exactly-once/settle.js';\nexport type B = typeof fromStore;\n");
    expect(checkImports(root).breaks).toEqual([expect.stringContaining('core/kit.ts imports core/exactly-once/settle.ts')]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
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

test('package imports are seen too (type-only and side-effect ones), so only fastify/ may import fastify', () => {
  const source = [
    "import type { FastifyInstance } from 'fastify';",
    "import express from 'express';",
    "import 'node:http';",
    "export { x } from '@scope/pkg/sub';",
    "import { a } from './a.js';",
  ].join('\n');
  expect(bareImportsOf(source)).toEqual(expect.arrayContaining(['fastify', 'express', 'node:http', '@scope/pkg/sub']));
  expect(bareImportsOf(source)).not.toContain('./a.js');
});

test('everything the entry points export is documented in docs/', async () => {
  const fs = await import('node:fs');
  const root = new URL('..', import.meta.url);
  const docs = fs.readdirSync(new URL('docs/', root)).filter((f) => f.endsWith('.md'))
    .map((f) => fs.readFileSync(new URL(`docs/${f}`, root), 'utf8')).join('\n');
  // Every code entry point of package.json "exports" (a new subpath is checked as soon as it is exported).
  const pkg = JSON.parse(fs.readFileSync(new URL('package.json', root), 'utf8')) as { exports: Record<string, unknown> };
  const entries: Record<string, Record<string, unknown>> = {};
  for (const [entry, target] of Object.entries(pkg.exports)) {
    if (typeof target !== 'object') continue;
    const sub = entry === '.' ? '' : entry.slice(2);
    // the source of the entry point: package.json's `dist/<path>.js` is `lib/<path>.ts`
    const code = String((target as { default: string }).default);
    entries[code.replace(/^\.\/dist\//, 'lib/').replace(/\.js$/, '.ts')] = await import(sub ? `crossborder-merchant-kit/${sub}` : 'crossborder-merchant-kit');
  }
  expect(Object.keys(entries)).toEqual(expect.arrayContaining(['lib/index.ts', 'lib/store/index.ts', 'lib/client/index.ts', 'lib/customs/index.ts']));
  const undocumented: string[] = [];
  for (const [file, mod] of Object.entries(entries)) {
    const source = fs.readFileSync(new URL(file, root), 'utf8');
    // Runtime exports, and the type names the entry file spells out (`type X` in its export lists).
    const typeNames = [...source.matchAll(/\btype\s+([A-Z][A-Za-z0-9]*)\b/g)].map((m) => m[1]);
    const typeBlocks = [...source.matchAll(/export type \{([^}]*)\}/g)].flatMap((m) => m[1].split(',').map((s) => s.trim()).filter(Boolean));
    for (const name of new Set([...Object.keys(mod), ...typeNames, ...typeBlocks])) {
      if (!new RegExp(`\\b${name}\\b`).test(docs)) undocumented.push(`${file}: ${name}`);
    }
  }
  expect(undocumented).toEqual([]);
});
