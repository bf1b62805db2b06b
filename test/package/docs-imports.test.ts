/**
 * The import lines of the docs, the README and CHANGELOG.md name only what their entry point exports: every
 * `import … from 'crossborder-merchant-kit[/subpath]'` of a code block is type-checked against the
 * sources (tsc, through the same "paths" as the tests), so a name that moved between entry points
 * (CHANGELOG.md) cannot stay behind in a copy-paste example.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const IMPORT = /import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'(crossborder-merchant-kit(?:\/[a-z]+)?)'/g;

/** Every import of the package in a docs code block: [where, specifier, names]. */
function docImports(): Array<[string, string, string[]]> {
  const files = [...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`), 'README.md', 'CHANGELOG.md'];
  const found: Array<[string, string, string[]]> = [];
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8');
    for (const block of text.matchAll(/```(?:ts|js|typescript|javascript)\n([\s\S]*?)```/g)) {
      for (const m of block[1].matchAll(IMPORT)) {
        const names = m[1].split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]).filter(Boolean);
        found.push([file, m[2], names]);
      }
    }
  }
  return found;
}

/** Type-checks `source` as a file of the project (tsconfig.json "paths"); returns tsc's output. */
function typeCheck(source: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cbk-doc-imports-'));
  try {
    writeFileSync(path.join(dir, 'imports.ts'), source);
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
      extends: path.join(root, 'tsconfig.json'),
      compilerOptions: { noEmit: true, rootDir: '/', types: ['node'], typeRoots: [path.join(root, 'node_modules/@types')] },
      include: [], files: [path.join(dir, 'imports.ts')],
    }));
    try {
      execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(dir, 'tsconfig.json')],
        { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
      return '';
    } catch (err) {
      return String((err as { stdout?: string }).stdout ?? err);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('every name a docs code block imports from the package is exported by that entry point', () => {
  const imports = docImports();
  expect(imports.length).toBeGreaterThan(15);
  let n = 0;
  const lines = imports.map(([file, spec, names]) =>
    `import type { ${names.map((name) => `${name} as _${n++}`).join(', ')} } from '${spec}'; // ${file}`);
  const out = typeCheck(lines.join('\n') + '\nexport {};\n');
  // tsc names the line; the comment at its end names the doc.
  const failures = out.split('\n').filter((l) => /error TS/.test(l)).map((l) => {
    const line = Number(/\((\d+),\d+\)/.exec(l)?.[1]);
    return `${lines[line - 1]?.split('// ')[1]}: ${l.replace(/^.*error /, '')}`;
  });
  expect(failures).toEqual([]);
}, 60_000);

test('the check fails on a name the entry point does not export', () => {
  expect(typeCheck("import type { MemoryStore as _a } from 'crossborder-merchant-kit';\nexport {};\n")).toMatch(/no exported member 'MemoryStore'/);
}, 60_000);
