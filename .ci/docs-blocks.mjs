#!/usr/bin/env node
/**
 * Docs that run as written (issue 41, item 5): every ```ts / ```js block of README.md and docs/*.md is
 * extracted and type-checked against the package's entry points (the import names a user writes:
 * `crossborder-merchant-kit`, `…/express`, …, resolved to lib/ as tsconfig.json's paths do), and the
 * blocks marked runnable are run. A block is checked as its own module, exactly as shown, with at most
 * what an HTML comment right above it adds, which a reader of the rendered page does not see but a
 * reader of the source does:
 *
 *   <!-- docs-block: declare const carts: { find(token: string): Promise<Cart | undefined> }; -->
 *       declarations the block assumes (names the surrounding text introduces); repeatable
 *   <!-- docs-block: run -->      also run it (with tsx; it must end by itself within 20 s)
 *   <!-- docs-block: cjs -->      check it as CommonJS (a .cts file)
 *   <!-- docs-block: recipe examples/runtimes/deno.mjs -->
 *       the block is that file of the repository, verbatim (checked here), and the runtime matrix
 *       (.ci/runtimes.mjs, `npm run test:runtimes`) runs the file on its runtime (Deno, Bun, workerd, …),
 *       whose globals and module layout tsc here does not know: not type-checked here
 *   <!-- docs-block: fragment Partial<CallbackKitOptions> -->
 *       the block is the inside of an object literal of that type (`auth: { … }`): checked as
 *       `const fragment: <type> = { <block> };`, the type's names taken from crossborder-merchant-kit
 *
 * Nothing is skipped. The blocks that do not compile yet are listed in .ci/docs-blocks-known.json
 * (by file and a digest of the block's text, with the first error): they are reported, not failed on;
 * any other failing block fails the run, and so does a listed block that now passes (the list only
 * shrinks). Usage: node .ci/docs-blocks.mjs [--dist] [--list | --write-known]. Exits 1 naming each failing
 * block as file:line. In CI: .ci/run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, '.docs-blocks');
const KNOWN = join(ROOT, '.ci', 'docs-blocks-known.json');
const LANGS = new Set(['ts', 'typescript', 'js', 'javascript']);

/** Every block of one Markdown file: { file, line, lang, code, declares[], run, cjs }. */
export function extractBlocks(file, text) {
  const lines = text.split('\n');
  const blocks = [];
  const none = () => ({ declares: [], run: false, cjs: false, fragment: undefined, recipe: undefined });
  let pending = none();
  for (let i = 0; i < lines.length; i++) {
    const directive = /^<!--\s*docs-block:\s*([\s\S]*?)\s*-->\s*$/.exec(lines[i]);
    if (directive) {
      const d = directive[1];
      if (d === 'run') pending.run = true;
      else if (d === 'cjs') pending.cjs = true;
      else if (d.startsWith('fragment ')) pending.fragment = d.slice('fragment '.length);
      else if (d.startsWith('recipe ')) pending.recipe = d.slice('recipe '.length);
      else pending.declares.push(d);
      continue;
    }
    const open = /^```(\w+)\s*$/.exec(lines[i]);
    if (!open) { if (lines[i].trim() !== '') pending = none(); continue; }
    const start = i;
    const body = [];
    for (i += 1; i < lines.length && !/^```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    if (LANGS.has(open[1])) blocks.push({ file, line: start + 1, lang: open[1], code: body.join('\n'), ...pending });
    pending = none();
  }
  return blocks;
}

function markdownFiles() {
  const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f));
  return ['README.md', ...docs.sort()];
}

/** tsconfig paths from package.json "exports": each entry point to its built .d.ts (after npm run build). */
function distPaths() {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const out = {};
  for (const [sub, target] of Object.entries(pkg.exports)) {
    if (typeof target !== 'object' || !target.types) continue;
    const types = target.types.replace(/^\.\//, '');
    if (!existsSync(join(ROOT, types))) throw new Error(`docs-blocks --dist: ${types} is missing: run npm run build first`);
    out[sub === '.' ? pkg.name : `${pkg.name}/${sub.replace(/^\.\//, '')}`] = [`./${types}`];
  }
  return out;
}

function main() {
  const blocks = markdownFiles().flatMap((f) => extractBlocks(f, readFileSync(join(ROOT, f), 'utf8')));
  if (process.argv.includes('--list')) {
    for (const b of blocks) console.log(`${b.file}:${b.line} ${b.lang}${b.run ? ' run' : ''}${b.cjs ? ' cjs' : ''}${b.declares.length ? ` (declares ${b.declares.length})` : ''}`);
    return;
  }
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const byPath = new Map();
  const byKey = new Map();
  // Recipe blocks: the file they name, verbatim; run by the runtime matrix, not type-checked here.
  const recipes = blocks.filter((b) => b.recipe);
  const recipeProblems = recipes.flatMap((b) => {
    const file = join(ROOT, b.recipe);
    if (!existsSync(file)) return [`${b.file}:${b.line}: recipe ${b.recipe} does not exist`];
    return readFileSync(file, 'utf8') === `${b.code}\n` ? [] : [`${b.file}:${b.line}: the block is not ${b.recipe} verbatim`];
  });
  blocks.filter((b) => !b.recipe).forEach((b, n) => {
    const ext = b.cjs ? 'cts' : 'mts';
    const name = `${b.file.replace(/[/.]/g, '_')}_L${b.line}.${ext}`;
    const fragmentOpen = b.fragment ? `import type * as Kit from 'crossborder-merchant-kit'; const fragment: ${b.fragment.replace(/\b(CallbackKitOptions|AuthOptions|MerchantAdapter)\b/g, 'Kit.$1')} = {` : '';
    const prelude = [...b.declares, ...(fragmentOpen ? [fragmentOpen] : [])].join('\n');
    // module scope for every block (an import-less block would otherwise share globals with the others)
    const code = b.fragment ? `${b.code}\n}; void fragment;` : b.code;
    const text = `${prelude}${prelude ? '\n' : ''}${code}\n${b.cjs ? '' : 'export {};\n'}`;
    writeFileSync(join(OUT, name), text);
    const key = `${b.file}#${createHash('sha256').update(b.code).digest('hex').slice(0, 12)}`;
    byPath.set(name, { ...b, key, preludeLines: prelude ? prelude.split('\n').length : 0, n });
    byKey.set(key, name);
  });
  // --dist: against the built package (npm run build), as a user's project sees it: the "types" of
  // each "exports" entry; else against lib/ through tsconfig.json's paths (no build needed).
  const againstDist = process.argv.includes('--dist');
  const paths = againstDist ? distPaths() : JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')).compilerOptions.paths;
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true,
      esModuleInterop: true, types: ['node'],
      paths: Object.fromEntries(Object.entries(paths).map(([k, v]) => [k, v.map((p) => join(ROOT, p))])),
    },
  };
  const failures = new Map();
  const note = (b, at, problem) => failures.set(b.key, { at, problems: [...(failures.get(b.key)?.problems ?? []), problem] });
  /** tsc over `files`; syntax errors in any file hide every semantic error, so a file that does not parse is left out of the second pass. */
  const tscOver = (files) => {
    writeFileSync(join(OUT, 'tsconfig.json'), JSON.stringify({ ...tsconfig, include: undefined, files: files.map((f) => join(OUT, f)) }, null, 2));
    const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(OUT, 'tsconfig.json'), '--pretty', 'false'], { encoding: 'utf8' });
    const errors = [];
    for (const line of `${r.stdout}${r.stderr}`.split('\n')) {
      const m = /^(?:.*[/\\])?\.docs-blocks[/\\]([^(]+)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line);
      if (m && byPath.has(m[1])) errors.push({ name: m[1], line: Number(m[2]), code: m[4], message: m[5] });
      else if (line.trim() && !m && !/^\s/.test(line)) errors.push({ name: undefined, line: 0, code: '', message: line }); // (indented: a continuation)
    }
    return errors;
  };
  const first = tscOver([...byPath.keys()]);
  const unparsed = new Set(first.filter((e) => e.name && /^TS1\d{3}$/.test(e.code)).map((e) => e.name));
  const report = (errors, syntaxOnly) => {
    for (const e of errors) {
      if (!e.name) { console.error(`docs-blocks: tsc: ${e.message}`); continue; }
      if (syntaxOnly && !unparsed.has(e.name)) continue;
      const b = byPath.get(e.name);
      note(b, `${b.file}:${b.line + 1 + e.line - 1 - b.preludeLines}`, `${e.code} ${e.message}`);
    }
  };
  report(first, true);
  report(tscOver([...byPath.keys()].filter((n) => !unparsed.has(n))), false);
  let ran = 0;
  for (const [name, b] of byPath) {
    if (!b.run) continue;
    ran += 1;
    try {
      execFileSync(process.execPath, ['--import', 'tsx', join(OUT, name)], { cwd: ROOT, stdio: 'pipe', timeout: 20_000, env: { ...process.env, NODE_OPTIONS: '', DOCS_BLOCK_RUN: '1', PORT: '0' } });
    } catch (err) {
      note(b, `${b.file}:${b.line}`, `run failed: ${String(err.stderr ?? err.message).trim().split('\n').slice(0, 6).join(' | ')}`);
    }
  }
  // Blocks known not to compile yet (.ci/docs-blocks-known.json, by file and a digest of the block's
  // text): listed, not failing; a new failure fails, and so does a known one that now passes (drop it).
  const known = JSON.parse(readFileSync(KNOWN, 'utf8'));
  let bad = 0;
  for (const [key, f] of failures) {
    if (known[key]) continue;
    bad += 1;
    for (const p of f.problems) console.error(`${f.at}: ${p}`);
    console.error(`  (block ${key})`);
  }
  const fixed = Object.keys(known).filter((k) => !failures.has(k));
  for (const k of fixed) console.error(`docs-blocks: ${k} is listed in .ci/docs-blocks-known.json but ${byKey.has(k) ? 'now passes' : 'is no longer a block'}: remove it`);
  console.log(`docs-blocks: ${blocks.length - recipes.length} blocks of README.md and docs/ type-checked against ${againstDist ? 'the built package (dist/)' : 'lib/'}, ${ran} run; ${failures.size - (failures.size - bad)} failing, ${failures.size - bad} known (.ci/docs-blocks-known.json)`);
  if (process.argv.includes('--write-known')) {
    writeFileSync(KNOWN, `${JSON.stringify(Object.fromEntries([...failures].map(([k, f]) => [k, known[k] ?? `${f.at}: ${f.problems[0]}`])), null, 2)}\n`);
    return;
  }
  for (const p of recipeProblems) console.error(p);
  console.log(`docs-blocks: ${recipes.length} recipe blocks are their files verbatim${recipeProblems.length ? ` but ${recipeProblems.length}` : ''} (run by npm run test:runtimes)`);
  if (bad > 0 || fixed.length > 0 || recipeProblems.length > 0) process.exit(1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
export { markdownFiles, relative };
