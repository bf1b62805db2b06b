/**
 * The AJV validators of the kit, compiled here (at generate time) into plain modules with AJV's
 * standalone code, so the kit never compiles a schema at run time: no `new Function`, which Cloudflare
 * Workers, Vercel's edge runtime, strict-CSP hosts and `node --disallow-code-generation-from-strings`
 * forbid, and no compilation on a cold start. Modules per root schema and kind (validatorFiles below;
 * lib/validation/ajv.ts loads them):
 * - `strict`:   every schema as written, first failure only;
 * - `tolerant`: the tolerant form of the callbacks/ schemas (lib/validation/tolerant.ts), keeping the
 *               top-level `required` of the registry's request schemas (REQUEST_ROOTS); first failure only;
 * - `report`:   the callbacks/ schemas as written with `allErrors` (the deviations of an accepted payload).
 *
 * The AJV options are those the kit compiled with at run time before (same code, same errors), plus:
 * `inlineRefs: false` (a referenced schema is one function, called, not copied into every schema that
 * references it: about a fifth less code) and annotations (`title`, `description`, `$comment`,
 * `examples`) left out of the compiled copy (they validate nothing; the embedded schema constants
 * shrink). `validate.schema` (the schema as written) is attached at run time from lib/generated/schemas.ts.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as standaloneModule from 'ajv/dist/standalone/index.js';
import * as formatsModule from 'ajv-formats';
import { tolerantSchema } from '../../lib/validation/tolerant.js';

type Schema = Record<string, unknown>;
type AddFormats = (ajv: Ajv2020, formats: string[]) => Ajv2020;
type Standalone = (ajv: Ajv2020, refs: Record<string, string>) => string;

const interop = <T>(m: unknown): T => ((m as { default?: T }).default ?? m) as T;
const addFormats = interop<AddFormats>(formatsModule);
const standaloneCode = interop<Standalone>(standaloneModule);

export const SCHEMA_ID_BASE = 'https://schemas.crossborder-merchant-kit.invalid/';
export type GeneratedKind = 'strict' | 'tolerant' | 'report';
export const GENERATED_KINDS: readonly GeneratedKind[] = ['strict', 'tolerant', 'report'];

const ANNOTATIONS: ReadonlySet<string> = new Set(['title', 'description', '$comment', 'examples']);
/** What the embedded copy (lib/generated/schemas.ts) leaves out: the titles stay (they name the types). */
export const PROSE: ReadonlySet<string> = new Set(['description', '$comment', 'examples']);
/** Keywords whose value is data, not a schema (kept as they are). */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'required']);
/** Keywords whose value maps names to schemas (a property named `title` is not the keyword). */
const MAP_KEYWORDS = new Set(['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas']);

/** A copy of a schema without its annotations (they validate nothing), or without those of `drop`. */
export function withoutAnnotations(node: unknown, drop: ReadonlySet<string> = ANNOTATIONS): unknown {
  if (Array.isArray(node)) return node.map((n) => withoutAnnotations(n, drop));
  if (node === null || typeof node !== 'object') return node;
  const out: Schema = {};
  for (const [k, v] of Object.entries(node as Schema)) {
    if (drop.has(k)) continue;
    if (DATA_KEYWORDS.has(k)) out[k] = v;
    else if (MAP_KEYWORDS.has(k) && v !== null && typeof v === 'object' && !Array.isArray(v)) {
      out[k] = Object.fromEntries(Object.entries(v as Schema).map(([name, s]) => [name, withoutAnnotations(s, drop)]));
    } else out[k] = withoutAnnotations(v, drop);
  }
  return out;
}

const relOf = (schema: Schema): string => String(schema.$id).slice(SCHEMA_ID_BASE.length);

/**
 * AJV's standalone code refers to its run-time helpers with `require("...")`: in an ES module they are
 * namespace imports, read the same way whichever CommonJS interop the loader applies (Node, esbuild,
 * Deno and Bun differ on what `default` is for a module that sets `__esModule`).
 */
function esmImports(code: string): string {
  const specifiers: string[] = [];
  const body = code.replace(/require\("([^"]+)"\)\.(\w+)/g, (_m, spec: string, prop: string) => {
    let i = specifiers.indexOf(spec);
    if (i < 0) i = specifiers.push(spec) - 1;
    return prop === 'default' ? `cjsDefault(m${i})` : `cjsNamed(m${i}, ${JSON.stringify(prop)})`;
  });
  if (/\brequire\(/.test(body)) throw new Error('AJV standalone code has a require() this generator does not rewrite');
  const imports = specifiers.map((s, i) => `import * as m${i} from ${JSON.stringify(`${s}.js`)};`);
  return [
    ...imports,
    'const cjsDefault = (m) => (typeof m.default === "function" ? m.default : m.default.default);',
    'const cjsNamed = (m, name) => (m[name] !== undefined ? m[name] : m.default[name]);',
    body.replace(/^"use strict";/, ''),
  ].join('\n');
}

/** The paths under schemas/ of `root` and of every schema it references, at any depth, sorted. */
export function reachableSchemas(root: string, schemas: readonly Schema[]): string[] {
  const byRel = new Map(schemas.map((s) => [relOf(s), s]));
  const seen = new Set<string>();
  const visit = (rel: string): void => {
    if (seen.has(rel) || !byRel.has(rel)) return;
    seen.add(rel);
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) {
          if (k === '$ref' && typeof v === 'string' && !v.startsWith('#')) {
            const target = v.split('#')[0];
            const dir = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
            visit(normalize(`${dir}/${target}`));
          } else walk(v);
        }
      }
    };
    walk(byRel.get(rel));
  };
  visit(root);
  return [...seen].sort();
}

/** `a/./b/../c` → `a/c`, without a leading slash. */
function normalize(p: string): string {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
}

/**
 * The module of one kind: AJV's standalone code plus `VALIDATORS`, the validators by path under schemas/.
 * `roots`: the request schemas whose top-level `required` the tolerant form keeps. `exported`: the
 * schemas whose validators the module exports (what they reference is compiled in, as functions).
 */
export function validatorsModule(kind: GeneratedKind, schemas: readonly Schema[], roots: readonly string[], exported: readonly string[]): string {
  const ajv = new Ajv2020({
    allErrors: kind === 'report',
    coerceTypes: false,
    useDefaults: false,
    removeAdditional: false,
    strict: true,
    allowUnionTypes: true,
    strictRequired: false,
    logger: false,
    inlineRefs: false,
    code: { source: true, esm: true, lines: true },
  });
  addFormats(ajv, ['date']);
  for (const schema of schemas) {
    ajv.addSchema(withoutAnnotations(kind === 'tolerant' ? tolerantSchema(schema, undefined, roots) : schema) as Schema);
  }
  const refs = Object.fromEntries(exported.map((rel, i) => [`v${i}`, SCHEMA_ID_BASE + rel]));
  const code = esmImports(standaloneCode(ajv, refs));
  return [
    '// @ts-nocheck',
    code,
    '',
    `/** The ${kind} validators, by schema path under schemas/. */`,
    'export const VALIDATORS = {',
    ...exported.map((rel, i) => `  ${JSON.stringify(rel)}: v${i},`),
    '};',
    '',
  ].join('\n');
}

/** One generated module of validators: its file under lib/generated/validators/, kind, and the schemas it exports. */
export interface ValidatorsFile { file: string; kind: GeneratedKind; exported: string[] }

/** `callbacks/send-order-to-merchant.request.schema.json` → `send-order-to-merchant.request`. */
const baseName = (rel: string): string => rel.slice(rel.lastIndexOf('/') + 1).replace(/\.schema\.json$/, '');

/**
 * Roots grouped so that no large part is compiled twice: two roots share a module when more than half
 * of the larger one's schemas are also the other's (SendOrderToMerchant, PerformOrderPayment and
 * UpdateOrderStatus are the order and 20 schemas it references: one module, not three copies).
 */
function groupRoots(roots: readonly string[], schemas: readonly Schema[]): string[][] {
  const reach = new Map(roots.map((r) => [r, reachableSchemas(r, schemas)]));
  const groups: string[][] = [];
  for (const root of [...new Set(roots)].sort()) {
    const mine = reach.get(root)!;
    const group = groups.find((g) => g.some((other) => {
      const theirs = reach.get(other)!;
      const shared = mine.filter((x) => theirs.includes(x)).length;
      return shared * 2 > Math.max(mine.length, theirs.length);
    }));
    if (group) group.push(root);
    else groups.push([root]);
  }
  return groups;
}

/**
 * The validator modules of the kit, split so that a delivery loads only what it runs:
 * - per request schema of the registry (`requests`; grouped, groupRoots), one module of each kind
 *   (`strict`, `tolerant`, `report`): loaded at the first delivery of that callback, only the kinds of
 *   the configured mode;
 * - per result schema of the registry (`results`), one `strict` module;
 * - `strict-all`: every schema, strict (validatePayload and the service client, imported statically).
 * Each module exports the validator of its roots and of every schema they reference.
 */
export function validatorFiles(schemas: readonly Schema[], requests: readonly string[], results: readonly string[]): ValidatorsFile[] {
  const files: ValidatorsFile[] = [];
  const reachable = (group: readonly string[]) => [...new Set(group.flatMap((r) => reachableSchemas(r, schemas)))].sort();
  const name = (group: readonly string[]) => group.map(baseName).join('+');
  for (const kind of GENERATED_KINDS) {
    for (const group of groupRoots(requests, schemas)) files.push({ file: `${kind}-${name(group)}.ts`, kind, exported: reachable(group) });
  }
  for (const group of groupRoots(results, schemas)) files.push({ file: `strict-${name(group)}.ts`, kind: 'strict', exported: reachable(group) });
  files.push({ file: 'strict-all.ts', kind: 'strict', exported: schemas.map(relOf) });
  return files;
}

/**
 * lib/generated/validators/index.ts: which module holds which schema, per kind, each loaded by a literal
 * `import()` (bundlers follow it; nothing is loaded until asked). `strict-all` is not listed: it is
 * imported statically by what needs every schema at once.
 */
export function loadersModule(files: readonly ValidatorsFile[]): string {
  const lazy = files.filter((f) => f.file !== 'strict-all.ts');
  const lines: string[] = [
    '/** Generated validators by schema path under schemas/ (AJV standalone functions: `errors` is set on failure). */',
    'export type GeneratedValidators = Readonly<Record<string, (data: unknown) => boolean>>;',
    '',
    '/** A module of generated validators: the schemas (paths under schemas/) it exports, and its import. */',
    'export interface GeneratedModule { readonly paths: readonly string[]; readonly load: () => Promise<{ VALIDATORS: GeneratedValidators }> }',
    '',
    '/** The modules of each kind (the first that lists a schema is the one loaded for it). */',
    'export const MODULES: Readonly<Record<\'strict\' | \'tolerant\' | \'report\', readonly GeneratedModule[]>> = {',
  ];
  for (const kind of GENERATED_KINDS) {
    lines.push(`  ${kind}: [`);
    for (const f of lazy.filter((x) => x.kind === kind)) {
      lines.push(`    { paths: ${JSON.stringify(f.exported)}, load: () => import(${JSON.stringify(`./${f.file.replace(/\.ts$/, '.js')}`)}) },`);
    }
    lines.push('  ],');
  }
  lines.push('};', '');
  return lines.join('\n');
}

/**
 * What the run time needs to know of the generation: the request schemas the tolerant form was
 * generated for, and which callbacks/ schemas have a top-level `required` (where the choice of roots
 * changes the tolerant form).
 */
export function rootsModule(schemas: readonly Schema[], roots: readonly string[]): string {
  const withRequired = schemas.filter((s) => relOf(s).startsWith('callbacks/') && Array.isArray(s.required)).map(relOf);
  return [
    '/** The request schemas whose top-level `required` the generated tolerant validators keep (the registry\'s). */',
    `export const TOLERANT_ROOTS: readonly string[] = ${JSON.stringify([...roots].sort())};`,
    '/** The callbacks/ schemas with a top-level `required`: the only ones whose tolerant form depends on the roots. */',
    `export const ROOT_REQUIRED: readonly string[] = ${JSON.stringify(withRequired)};`,
    '',
  ].join('\n');
}
