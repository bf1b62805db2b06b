/**
 * The validators of the process, one set per kind, compiled when the package is generated (AJV's
 * standalone code in lib/generated/validators-*.ts, `npm run generate`; `npm run generate:check` fails
 * when a schema and its validator drift): nothing is compiled at run time, so the kit runs where code
 * generation from strings is forbidden (Cloudflare Workers, edge runtimes, strict CSP,
 * `node --disallow-code-generation-from-strings`) and a cold start compiles nothing. AJV never coerces
 * (`coerceTypes` off): the tolerant reading of numbers and booleans sent as text is
 * lib/validation/coerce.ts, exactly and copy-on-write.
 * - `strict`: the schemas as written; `allErrors` off (validation stops at the first failure);
 * - `tolerant`: their tolerant form (lib/validation/tolerant.ts); first failure only;
 * - `report`: the schemas as written with `allErrors`, to list every deviation of an accepted payload.
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { SCHEMAS } from '../generated/schemas.js';
import { ROOT_REQUIRED, TOLERANT_ROOTS } from '../generated/validator-roots.js';
import { VALIDATORS as REPORT } from '../generated/validators-report.js';
import { VALIDATORS as STRICT } from '../generated/validators-strict.js';
import { VALIDATORS as TOLERANT } from '../generated/validators-tolerant.js';
import { tolerantSchema } from './tolerant.js';

/** Base of every schema `$id`; an identifier only, never fetched. */
export const SCHEMA_BASE = 'https://schemas.crossborder-merchant-kit.invalid/';

export type SchemaKind = 'strict' | 'tolerant' | 'report';
type Generated = Readonly<Record<string, (data: unknown) => boolean>>;
const GENERATED: Readonly<Record<SchemaKind, Generated>> = { strict: STRICT, tolerant: TOLERANT, report: REPORT };
const BY_PATH = new Map(SCHEMAS.map((s) => [String(s.$id).slice(SCHEMA_BASE.length), s]));

/**
 * Whether the generated tolerant validators are the tolerant form for these roots: they are generated
 * for the registry's request schemas, and only a schema with a top-level `required` reads differently
 * as a root or not.
 */
function tolerantFormFits(roots: readonly string[]): boolean {
  return ROOT_REQUIRED.every((rel) => roots.includes(rel) === TOLERANT_ROOTS.includes(rel));
}

const validators = new Map<string, ValidateFunction>();

/**
 * The validator of a schema, by its path under schemas/ (e.g. `callbacks/merchant-order.schema.json`);
 * the same function for every call. `roots` (tolerant kind): the request schemas whose top-level
 * `required` is kept (the registry's; other roots need `npm run generate` over that registry).
 */
export function schemaValidator(relativePath: string, kind: SchemaKind = 'strict', roots: readonly string[] = TOLERANT_ROOTS): ValidateFunction {
  if (kind === 'tolerant' && !tolerantFormFits(roots)) {
    throw new Error(`no tolerant validators generated for the request schemas ${[...roots].sort().join(', ')} (generated for ${TOLERANT_ROOTS.join(', ')}): add the callback to the registry and run npm run generate`);
  }
  const key = `${kind}\n${relativePath}`;
  const known = validators.get(key);
  if (known) return known;
  const validate = GENERATED[kind][relativePath] as unknown as ValidateFunction | undefined;
  const schema = BY_PATH.get(relativePath);
  if (!validate || !schema || !Object.hasOwn(GENERATED[kind], relativePath)) throw new Error(`no schema ${SCHEMA_BASE}${relativePath}`);
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
