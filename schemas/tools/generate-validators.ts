/**
 * The AJV validators of the kit, compiled here (at generate time) into plain modules with AJV's
 * standalone code, so the kit never compiles a schema at run time: no `new Function`, which Cloudflare
 * Workers, Vercel's edge runtime, strict-CSP hosts and `node --disallow-code-generation-from-strings`
 * forbid, and no compilation on a cold start. One module per kind (lib/validation/ajv.ts):
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

/**
 * The module of one kind: AJV's standalone code plus `VALIDATORS`, the validators by path under schemas/.
 * `roots`: the request schemas whose top-level `required` the tolerant form keeps.
 */
export function validatorsModule(kind: GeneratedKind, schemas: readonly Schema[], roots: readonly string[]): string {
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
  // Only the callbacks/ schemas have a tolerant form and a report run (lib/validation/index.ts).
  const exported = schemas.map(relOf).filter((rel) => kind === 'strict' || rel.startsWith('callbacks/'));
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
