#!/usr/bin/env node
/**
 * The import graph of lib/ (type-only imports and `import('...')` types included): zero cycles, and
 * the layering of docs/architecture.md. Usage: `node .ci/imports.mjs [project root]`; prints the
 * cycles and layering breaks, exits 1 when there is any. Also imported by test/architecture.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Area of a file: its folder under lib/ (`core`, `store`, ...), or for the two tiers that hold several
 * rooms, `bindings/<name>` and `tools/<name>`; a root file is its own area. The tiers, bottom up:
 * foundations (shared/, json/, generated/), the kit's parts (auth/, store/, validation/, telemetry/),
 * the delivery core (core/), the bindings (bindings/http = the glue they share, then one folder per
 * framework or runtime), the service client and customs (client/, customs/), and the tools around
 * the kit (tools/sandbox, tools/conformance, tools/cli). Area → the areas it must never import.
 */
const BINDINGS = ['bindings/http', 'bindings/express', 'bindings/node', 'bindings/fetch', 'bindings/fastify', 'bindings/lambda'];
const TOOLS = ['tools/sandbox', 'tools/conformance', 'tools/cli'];
const PARTS_ABOVE = ['core', ...BINDINGS, 'client', 'customs', 'prices', ...TOOLS, 'testing', 'index.ts'];
const siblingsOf = (b) => BINDINGS.filter((x) => x !== b && x !== 'bindings/http');
export const FORBIDDEN = {
  shared: ['*'], // shared/ imports nothing of the kit but itself
  json: ['*'], // JSON helpers (canonical form, copies): shared/ only
  auth: [...PARTS_ABOVE, 'telemetry', 'store', 'validation'],
  store: [...PARTS_ABOVE, 'telemetry', 'auth', 'validation'],
  validation: [...PARTS_ABOVE, 'auth', 'store', 'telemetry'],
  // telemetry/ is called by core/ and client/; it stands on shared/ alone.
  telemetry: [...PARTS_ABOVE, 'auth', 'store', 'validation'],
  core: [...BINDINGS, 'client', 'customs', 'prices', ...TOOLS, 'testing', 'index.ts'],
  // bindings/http is the glue every binding shares; each binding stands on it and core/ alone.
  'bindings/http': [...siblingsOf('bindings/http'), 'client', 'customs', 'prices', ...TOOLS, 'testing'],
  ...Object.fromEntries(BINDINGS.filter((b) => b !== 'bindings/http').map((b) => [b, [...siblingsOf(b), 'client', 'customs', 'prices', ...TOOLS, 'testing']])),
  client: ['core', ...BINDINGS, 'prices', ...TOOLS, 'testing'],
  customs: ['core', ...BINDINGS, 'client', 'prices', ...TOOLS, 'testing', 'telemetry'],
  // local prices: the foundations and the payload types; the client is handed in (an option), never imported.
  prices: ['core', ...BINDINGS, 'client', 'customs', ...TOOLS, 'testing', 'telemetry', 'auth', 'store', 'validation'],
  testing: [...TOOLS],
  // the tools stand on the kit; nothing of the kit stands on them (cli > sandbox > conformance).
  'tools/conformance': ['tools/sandbox', 'tools/cli'],
  'tools/sandbox': ['tools/cli'],
  // the root export: the kit, errors, auth and validation; no binding, store, client, customs or tool
  'index.ts': [...BINDINGS, ...TOOLS, 'client', 'customs', 'prices', 'testing'],
  'payloads.ts': ['*'],
  generated: ['*'],
};
/**
 * Packages (and Node modules) only some areas may import, by bare specifier (type-only imports
 * count too): the frameworks stay behind their own subpath, and the fetch binding, which must run
 * on Bun and Deno, imports no node:http.
 */
export const BARE_ONLY_IN = {
  express: ['bindings/express'],
  fastify: ['bindings/fastify'],
};
/**
 * Packages only the files of one folder may import (its optional peer), and folders no file outside
 * them may import: a store whose entry point is its own subpath (`/store/dynamodb`, `/store/redis`),
 * so that its peer is loaded only with that store, never by `/store` or a binding.
 */
export const BARE_ONLY_IN_FOLDER = {
  '@aws-sdk/client-dynamodb': 'store/dynamodb',
};
export const PRIVATE_FOLDERS = ['store/dynamodb', 'store/redis'];
/**
 * Folders with one entry file: a file outside the folder may import that file only, never another
 * of the folder's files (the exactly-once module: a reader follows an order through it from its
 * index.ts; what it shares with the rest of the core, it re-exports there).
 */
export const ENTRY_FOLDERS = { 'core/exactly-once': 'index.ts' };
export const BARE_FORBIDDEN = {
  'bindings/fetch': ['node:http', 'http', 'node:net', 'net', 'node:https', 'https'],
};
/** What every folder but shared/ may use (the generated payload types are data, not behaviour). */
const ALWAYS = new Set(['generated', 'payloads.ts', 'json']);

function listFiles(dir) {
  const out = [];
  (function walk(d) {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts') && !p.endsWith('.d.ts')) out.push(p);
    }
  })(dir);
  return out;
}

function resolveImport(from, spec, known) {
  let t = path.resolve(path.dirname(from), spec).replace(/\.js$/, '.ts');
  if (!t.endsWith('.ts')) t += '.ts';
  if (!known.has(t)) {
    const index = path.join(t.replace(/\.ts$/, ''), 'index.ts');
    if (known.has(index)) t = index;
  }
  return known.has(t) ? t : null;
}

/** Relative imports of a source file: `import ... from`, `export ... from`, `import type`, bare `import '...'`, `import('...')`. */
export function importsOf(source) {
  const specs = [];
  const patterns = [
    /(?:^|[\s;])(?:import|export)\s[^'"`;]*?\sfrom\s*['"](\.{1,2}\/[^'"]+)['"]/g,
    /(?:^|[\s;])import\s*['"](\.{1,2}\/[^'"]+)['"]/g,
    /import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of source.matchAll(re)) specs.push(m[1]);
  return specs;
}

/** Bare (package or node:) specifiers of a source file's imports. */
export function bareImportsOf(source) {
  const specs = [];
  const patterns = [
    /(?:^|[\s;])(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^.'"][^'"]*)['"]/g,
    /(?:^|[\s;])import\s*['"]([^.'"][^'"]*)['"]/g,
    /import\(\s*['"]([^.'"][^'"]*)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of source.matchAll(re)) specs.push(m[1]);
  return specs;
}

/** The import graph of `<root>/lib`, its cycles (strongly connected groups) and its layering breaks. */
export function checkImports(root) {
  const lib = path.resolve(root, 'lib');
  const files = listFiles(lib);
  const known = new Set(files);
  const graph = new Map();
  for (const f of files) {
    const deps = new Set();
    for (const spec of importsOf(fs.readFileSync(f, 'utf8'))) {
      const t = resolveImport(f, spec, known);
      if (t) deps.add(t);
    }
    graph.set(f, deps);
  }
  const area = (f) => {
    const parts = path.relative(lib, f).split(path.sep);
    return (parts[0] === 'bindings' || parts[0] === 'tools') && parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0];
  };
  const inFolder = (f, folder) => path.relative(lib, f).split(path.sep).join('/').startsWith(`${folder}/`);
  const breaks = [];
  for (const f of files) {
    for (const spec of bareImportsOf(fs.readFileSync(f, 'utf8'))) {
      const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
      const only = BARE_ONLY_IN[pkg];
      if (only && !only.includes(area(f))) breaks.push(`${path.relative(lib, f)} imports the package ${pkg} (only ${only.join(', ')} may)`);
      if ((BARE_FORBIDDEN[area(f)] ?? []).includes(pkg)) breaks.push(`${path.relative(lib, f)} imports ${pkg}`);
      const folder = BARE_ONLY_IN_FOLDER[pkg];
      if (folder && !inFolder(f, folder)) breaks.push(`${path.relative(lib, f)} imports the package ${pkg} (only lib/${folder}/ may: its store's own entry point)`);
    }
  }
  for (const [f, deps] of graph) {
    for (const d of deps) {
      const folder = PRIVATE_FOLDERS.find((x) => inFolder(d, x));
      if (folder && !inFolder(f, folder)) breaks.push(`${path.relative(lib, f)} imports ${path.relative(lib, d)} (lib/${folder}/ is reached through its own entry point only)`);
      const entered = Object.entries(ENTRY_FOLDERS).find(([x]) => inFolder(d, x));
      if (entered && !inFolder(f, entered[0]) && path.relative(lib, d).split(path.sep).join('/') !== `${entered[0]}/${entered[1]}`) {
        breaks.push(`${path.relative(lib, f)} imports ${path.relative(lib, d)} (lib/${entered[0]}/ is imported through its ${entered[1]} only)`);
      }
    }
  }
  for (const [f, deps] of graph) {
    const rule = FORBIDDEN[area(f)] ?? [];
    for (const d of deps) {
      const from = area(f);
      const to = area(d);
      if (to === from) continue;
      const broken = from === 'shared' || (!ALWAYS.has(to) && (rule.includes(to) || (rule.includes('*') && to !== 'shared')));
      if (broken) breaks.push(`${path.relative(lib, f)} imports ${path.relative(lib, d)}`);
    }
  }
  // Tarjan's strongly connected components.
  let counter = 0;
  const index = new Map(); const low = new Map(); const stack = []; const onStack = new Set(); const cycles = [];
  const visit = (v) => {
    index.set(v, counter); low.set(v, counter); counter += 1; stack.push(v); onStack.add(v);
    for (const w of graph.get(v)) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const group = [];
      let w;
      do { w = stack.pop(); onStack.delete(w); group.push(path.relative(lib, w)); } while (w !== v);
      if (group.length > 1 || graph.get(v).has(v)) cycles.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return { files: files.length, cycles, breaks };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { files, cycles, breaks } = checkImports(process.argv[2] ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
  for (const c of cycles) console.log(`cycle: ${c.join(' -> ')}`);
  for (const b of breaks) console.log(`layering: ${b}`);
  console.log(`${cycles.length} import cycles, ${breaks.length} layering breaks among ${files} files of lib/`);
  process.exit(cycles.length > 0 || breaks.length > 0 ? 1 : 0);
}
