/**
 * The AJV instances of the process, one per kind, each created once: every schema of schemas/
 * (embedded in lib/generated/schemas.ts) is added once; validators are compiled on first use and
 * cached by AJV, so nothing compiles per request. AJV never coerces (`coerceTypes` off): the tolerant
 * reading of numbers and booleans sent as text is lib/validation/coerce.ts, exactly and copy-on-write.
 * - `strict`: the schemas as written; `allErrors` off (validation stops at the first failure);
 * - `tolerant`: their tolerant form (lib/validation/tolerant.ts); first failure only;
 * - `report`: the schemas as written with `allErrors`, to list every deviation of an accepted payload.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import * as formatsModule from 'ajv-formats';
import { SCHEMAS } from '../generated/schemas.js';
import { tolerantSchema } from './tolerant.js';

/** Base of every schema `$id`; an identifier only, never fetched. */
export const SCHEMA_BASE = 'https://schemas.crossborder-merchant-kit.invalid/';

type AddFormats = (ajv: Ajv2020, formats: string[]) => Ajv2020;
const addFormats = ((formatsModule as unknown as { default?: AddFormats }).default ?? formatsModule) as unknown as AddFormats;

export type SchemaKind = 'strict' | 'tolerant' | 'report';
const instances = new Map<string, Ajv2020>();

/** The instance of a kind; the tolerant one depends on which request schemas keep their top-level `required`. */
function ajv(kind: SchemaKind, roots: readonly string[] = []): Ajv2020 {
  const id = kind === 'tolerant' ? `${kind}\n${[...roots].sort().join('\n')}` : kind;
  const existing = instances.get(id);
  if (existing) return existing;
  const created = new Ajv2020({
    allErrors: kind === 'report',
    coerceTypes: false,
    useDefaults: false,
    removeAdditional: false,
    strict: true,
    allowUnionTypes: true,
    strictRequired: false, // `required` may name properties defined by a $ref (request profiles, anyOf)
    logger: false,
  });
  addFormats(created, ['date']);
  for (const schema of SCHEMAS) created.addSchema(kind === 'tolerant' ? tolerantSchema(schema, undefined, roots) : schema);
  instances.set(id, created);
  return created;
}

/**
 * The compiled validator of a schema, by its path under schemas/ (e.g. `callbacks/merchant-order.schema.json`).
 * `roots` (tolerant kind): the request schemas whose top-level `required` is kept.
 */
export function schemaValidator(relativePath: string, kind: SchemaKind = 'strict', roots?: readonly string[]): ValidateFunction {
  const id = SCHEMA_BASE + relativePath;
  const validate = ajv(kind, roots).getSchema(id);
  if (!validate) throw new Error(`no schema ${id}`);
  return validate;
}

/** Every schema's path under schemas/, keyed by its title (the generated type's name). */
export const SCHEMA_PATHS: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries(
  SCHEMAS.filter((s) => typeof s.title === 'string' && typeof s.$id === 'string')
    .map((s) => [s.title as string, (s.$id as string).slice(SCHEMA_BASE.length)]),
));

export type { ErrorObject, ValidateFunction };
