/**
 * Request and result validators of the callback pipeline, compiled from the JSON Schemas in
 * schemas/ (embedded in lib/generated/schemas.ts). `createValidators(schemas)` compiles the validators of the
 * callbacks it is given (the pipeline passes its registry's schemas)
 * when the router is created; the AJV instance is shared by the process, so a second
 * router reuses the compiled functions and no request ever compiles a schema.
 */
import { KitError } from '../shared/errors.js';
import { SCHEMA_PATHS, schemaValidator } from './ajv.js';
import { toIssue, type ValidationIssue } from './issues.js';
import { isObject } from '../shared/options.js';
import { tolerate, type Tolerated } from './tolerate.js';

export { SCHEMA_BASE, SCHEMA_PATHS } from './ajv.js';
export { describeIssues, listIssues, toIssue, type ValidationIssue } from './issues.js';
export { NULL_RULE, type Tolerated } from './tolerate.js';
export { COERCED_RULE, EMPTY_RULE } from './coerce.js';
export { ENUM_CASE_RULE } from './enum-case.js';

/** `'tolerant'` (default): the tolerant form of the request schemas, deviations reported; `'strict'`: the schemas as written. */
export type ValidationMode = 'tolerant' | 'strict';

export interface Validators {
  readonly mode: ValidationMode;
  /** The first failure of a request against the mode's schemas (in tolerant mode, after nulls were removed), or null. */
  request(callback: string, input: unknown): ValidationIssue[] | null;
  /**
   * The tolerant reading of a request (lib/validation/tolerate.ts): nulls removed, typed values sent as
   * text read as their type, deviations listed, the first failure of the tolerant form. Strict mode: `request`.
   */
  tolerate<T>(callback: string, input: T, nullFree?: boolean): Tolerated<T>;
  /** Returns the JSON pointer of the first invalid field of an adapter result, or null. */
  result(callback: string, result: unknown): string | null;
}

/** The schemas (paths under schemas/) of one callback; `setsSuccess`: the kit adds `Success: true` to the result. */
export interface CallbackSchemas { request: string; result: string; setsSuccess: boolean }


/** Compiles (once per process) the validators of the given callbacks, by callback name. */
export function createValidators(schemas: Readonly<Record<string, CallbackSchemas>>, mode: ValidationMode = 'strict'): Validators {
  const entries = Object.entries(schemas);
  // The tolerant form keeps the top-level `required` of exactly these request schemas.
  const roots = entries.map(([, s]) => s.request);
  const requests = new Map(entries.map(([cb, s]) => [cb, schemaValidator(s.request, mode, roots)]));
  const reports = mode === 'tolerant'
    ? new Map(entries.map(([cb, s]) => [cb, schemaValidator(s.request, 'report')]))
    : new Map();
  const results = new Map(entries.map(([cb, s]) => [cb, { validate: schemaValidator(s.result), setsSuccess: s.setsSuccess }]));
  const validators: Validators = {
    mode,
    request(callback, input) {
      const validate = requests.get(callback);
      if (!validate || validate(input)) return null;
      return [toIssue(validate.errors ?? [])];
    },
    tolerate(callback, input, nullFree) {
      const report = reports.get(callback);
      const tolerant = requests.get(callback);
      if (!report || !tolerant) return { input, deviations: [], refused: validators.request(callback, input) };
      return tolerate(report, tolerant, input, nullFree);
    },
    result(callback, result) {
      const r = results.get(callback);
      if (!r) return null;
      // The kit sets Success itself: the reply body is `{ Success: true, ...fields }`.
      const body = r.setsSuccess && isObject(result) ? { Success: true, ...result } : result;
      if (r.validate(body)) return null;
      return toIssue(r.validate.errors ?? []).pointer || '/';
    },
  };
  return validators;
}

/**
 * Validates any payload against its schema, by type name (`'ShipmentInformation'`,
 * `'DispatchRequestV2'`, ...): null when valid, else the first failing location and rule.
 */
export function validatePayload(typeName: string, value: unknown): ValidationIssue[] | null {
  const path = SCHEMA_PATHS[typeName];
  if (!path) throw new KitError('ERR_CBK_UNKNOWN_SCHEMA', `No schema titled ${typeName} (known: ${Object.keys(SCHEMA_PATHS).join(', ')})`);
  const validate = schemaValidator(path);
  if (validate(value)) return null;
  return [toIssue(validate.errors ?? [])];
}
