/**
 * The validators of the process, by kind, compiled when the package is generated (AJV's standalone
 * code in lib/generated/validators/, `npm run generate`; `npm run generate:check` fails when a schema
 * and its validator drift): nothing is compiled at run time, so the kit runs where code generation
 * from strings is forbidden (Cloudflare Workers, edge runtimes, strict CSP,
 * `node --disallow-code-generation-from-strings`) and a cold start compiles nothing. AJV never coerces
 * (`coerceTypes` off): the tolerant reading of numbers and booleans sent as text is
 * lib/validation/coerce.ts, exactly and copy-on-write.
 * - `strict`: the schemas as written; `allErrors` off (validation stops at the first failure);
 * - `tolerant`: their tolerant form (lib/validation/tolerant.ts); first failure only;
 * - `report`: the schemas as written with `allErrors`, to list every deviation of an accepted payload.
 *
 * The generated modules are split by root schema and kind (lib/generated/validators/index.ts) and
 * loaded when first needed (`loadValidators`: a kit loads a callback's at its first delivery, only the
 * kinds of its mode); what needs every schema at once (validatePayload, the service client) imports
 * lib/generated/validators/strict-all.ts and hands it to `addValidators`. `schemaValidator` answers
 * from what was loaded.
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { SCHEMAS } from '../generated/schemas.js';
import { ROOT_REQUIRED, TOLERANT_ROOTS } from '../generated/validator-roots.js';
import { MODULES, type GeneratedValidators } from '../generated/validators/index.js';
import { tolerantSchema } from './tolerant.js';

/** Base of every schema `$id`; an identifier only, never fetched. */
export const SCHEMA_BASE = 'https://schemas.crossborder-merchant-kit.invalid/';

export type SchemaKind = 'strict' | 'tolerant' | 'report';
/** The generated validators loaded so far, by kind (the first loaded for a path stays: one function per path). */
const GENERATED: Readonly<Record<SchemaKind, Map<string, (data: unknown) => boolean>>> = { strict: new Map(), tolerant: new Map(), report: new Map() };
/** The generated modules being or already loaded (a module is imported once). */
const loading = new Map<() => Promise<unknown>, Promise<void>>();

/** Makes generated validators of `kind` (a module's VALIDATORS) available to schemaValidator. */
export function addValidators(kind: SchemaKind, generated: GeneratedValidators): void {
  const known = GENERATED[kind];
  for (const [rel, validate] of Object.entries(generated)) if (!known.has(rel)) known.set(rel, validate);
}

/**
 * Loads the generated validators of these schemas (paths under schemas/) of `kind`: undefined when
 * they are all loaded already (nothing to wait for), else a promise settled once they are. A path no
 * module holds is left out (schemaValidator then names it).
 */
export function loadValidators(kind: SchemaKind, paths: readonly string[]): Promise<void> | undefined {
  const known = GENERATED[kind];
  const pending: Promise<void>[] = [];
  for (const rel of paths) {
    if (known.has(rel)) continue;
    const module = MODULES[kind].find((m) => m.paths.includes(rel));
    if (!module) continue;
    let promise = loading.get(module.load);
    if (!promise) {
      promise = module.load().then((m) => addValidators(kind, m.VALIDATORS));
      loading.set(module.load, promise);
      // A failed import may be tried again by the next delivery.
      promise.catch(() => loading.delete(module.load));
    }
    pending.push(promise);
  }
  return pending.length === 0 ? undefined : Promise.all(pending).then(() => undefined);
}

const BY_PATH = new Map(SCHEMAS.map((s) => [String(s.$id).slice(SCHEMA_BASE.length), s]));

/**
 * Whether the generated tolerant validators are the tolerant form for these roots: they are generated
 * for the registry's request schemas, and only a schema with a top-level `required` reads differently
 * as a root or not.
 */
export function tolerantFormFits(roots: readonly string[]): boolean {
  return ROOT_REQUIRED.every((rel) => roots.includes(rel) === TOLERANT_ROOTS.includes(rel));
}

const validators = new Map<string, ValidateFunction>();

/**
 * The validator of a schema, by its path under schemas/ (e.g. `callbacks/merchant-order.schema.json`);
 * the same function for every call; its generated module must be loaded (loadValidators, addValidators).
 * `roots` (tolerant kind): the request schemas whose top-level `required` is kept (the registry's;
 * other roots need `npm run generate` over that registry).
 */
export function schemaValidator(relativePath: string, kind: SchemaKind = 'strict', roots: readonly string[] = TOLERANT_ROOTS): ValidateFunction {
  if (kind === 'tolerant' && !tolerantFormFits(roots)) {
    throw new Error(`no tolerant validators generated for the request schemas ${[...roots].sort().join(', ')} (generated for ${TOLERANT_ROOTS.join(', ')}): add the callback to the registry and run npm run generate`);
  }
  const key = `${kind}\n${relativePath}`;
  const known = validators.get(key);
  if (known) return known;
  const validate = GENERATED[kind].get(relativePath) as unknown as ValidateFunction | undefined;
  const schema = BY_PATH.get(relativePath);
  if (!validate || !schema) {
    if (schema && MODULES[kind].some((m) => m.paths.includes(relativePath))) {
      throw new Error(`the ${kind} validator of ${relativePath} is not loaded yet: await loadValidators() (a kit does, at the first delivery of each callback)`);
    }
    throw new Error(`no schema ${SCHEMA_BASE}${relativePath}`);
  }
  // What AJV's compiled function carried: the schema it validates against (the client reads its properties).
  validate.schema = kind === 'tolerant' ? tolerantSchema(schema, undefined, TOLERANT_ROOTS) : schema;
  validators.set(key, validate);
  return validate;
}

/** Every schema's path under schemas/, keyed by its title (the generated type's name). */
export const SCHEMA_PATHS: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries(
  SCHEMAS.filter((s) => typeof s.title === 'string' && typeof s.$id === 'string')
    .map((s) => [s.title as string, (s.$id as string).slice(SCHEMA_BASE.length)]),
));

export type { ErrorObject, ValidateFunction };
