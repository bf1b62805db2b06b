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

/**
 * Type-checks `sources` (file name → text) as files of the project (tsconfig.json "paths"), all in one
 * tsc run (each run checks the whole of lib/ the files reach); returns tsc's error lines by file name.
 */
function typeCheck(sources: Record<string, string>): Record<string, string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cbk-doc-imports-'));
  try {
    for (const [name, source] of Object.entries(sources)) writeFileSync(path.join(dir, name), source);
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
      extends: path.join(root, 'tsconfig.json'),
      compilerOptions: { noEmit: true, rootDir: '/', types: ['node'], typeRoots: [path.join(root, 'node_modules/@types')] },
      include: [], files: Object.keys(sources).map((name) => path.join(dir, name)),
    }));
    let out = '';
    try {
      execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(dir, 'tsconfig.json')],
        { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    } catch (err) {
      out = String((err as { stdout?: string }).stdout ?? err);
    }
    const errors = out.split('\n').filter((l) => /error TS/.test(l));
    return Object.fromEntries(Object.keys(sources).map((name) => [name, errors.filter((l) => l.includes(name))]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The docs' imports, one line each with the doc it comes from in a comment at its end. */
function docImportLines(): string[] {
  const imports = docImports();
  expect(imports.length).toBeGreaterThan(15);
  let n = 0;
  return imports.map(([file, spec, names]) =>
    `import type { ${names.map((name) => `${name} as _${n++}`).join(', ')} } from '${spec}'; // ${file}`);
}

/** The docs' imports and a name the root does not export, checked in one tsc run that both tests read. */
let checked: { lines: string[]; errors: Record<string, string[]> } | undefined;
function checkedOnce(): { lines: string[]; errors: Record<string, string[]> } {
  if (checked) return checked;
  const lines = docImportLines();
  const errors = typeCheck({
    'doc-imports.ts': lines.join('\n') + '\nexport {};\n',
    'not-exported.ts': "import type { MemoryStore as _a } from 'crossborder-merchant-kit';\nexport {};\n",
  });
  return (checked = { lines, errors });
}

test('every name a docs code block imports from the package is exported by that entry point', () => {
  const { lines, errors } = checkedOnce();
  // tsc names the line; the comment at its end names the doc.
  const failures = errors['doc-imports.ts'].map((l) => {
    const line = Number(/\((\d+),\d+\)/.exec(l)?.[1]);
    return `${lines[line - 1]?.split('// ')[1]}: ${l.replace(/^.*error /, '')}`;
  });
  expect(failures).toEqual([]);
}, 60_000);

test('the check fails on a name the entry point does not export', () => {
  expect(checkedOnce().errors['not-exported.ts'].join('\n')).toMatch(/no exported member 'MemoryStore'/);
}, 60_000);
