/**
 * The one AJV instance of the process: every schema of schemas/ (embedded in lib/generated/schemas.ts)
 * is added once; validators are compiled on first use and cached by AJV, so nothing compiles per request.
 * `allErrors` is off: validation stops at the first failure. Numbers are never coerced from strings.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import * as formatsModule from 'ajv-formats';
import { SCHEMAS } from '../generated/schemas.js';

/** Base of every schema `$id`; an identifier only, never fetched. */
export const SCHEMA_BASE = 'https://schemas.crossborder-merchant-kit.invalid/';

type AddFormats = (ajv: Ajv2020, formats: string[]) => Ajv2020;
const addFormats = ((formatsModule as unknown as { default?: AddFormats }).default ?? formatsModule) as unknown as AddFormats;

let instance: Ajv2020 | undefined;

function ajv(): Ajv2020 {
  if (instance) return instance;
  const created = new Ajv2020({
    allErrors: false,
    coerceTypes: false,
    useDefaults: false,
    removeAdditional: false,
    strict: true,
    allowUnionTypes: true,
    strictRequired: false, // `required` may name properties defined by a $ref (request profiles, anyOf)
    logger: false,
  });
  addFormats(created, ['date']);
  for (const schema of SCHEMAS) created.addSchema(schema);
  instance = created;
  return created;
}

/** The compiled validator of a schema, by its path under schemas/ (e.g. `callbacks/merchant-order.schema.json`). */
export function schemaValidator(relativePath: string): ValidateFunction {
  const id = SCHEMA_BASE + relativePath;
  const validate = ajv().getSchema(id);
  if (!validate) throw new Error(`no schema ${id}`);
  return validate;
}

/** Every schema's path under schemas/, keyed by its title (the generated type's name). */
export const SCHEMA_PATHS: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries(
  SCHEMAS.filter((s) => typeof s.title === 'string' && typeof s.$id === 'string')
    .map((s) => [s.title as string, (s.$id as string).slice(SCHEMA_BASE.length)]),
));

export type { ErrorObject };
