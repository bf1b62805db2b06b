/**
 * Request and result validators of the callback pipeline, generated from the JSON Schemas in
 * schemas/ (lib/generated/validators/: AJV's standalone code, nothing compiled at run time).
 * `createValidators(schemas, mode)` serves the callbacks it is given (the pipeline passes its
 * registry's schemas); a callback's generated validators are imported when it is first delivered
 * (`ready(callback)`), only those of the mode (tolerant: tolerant and report; strict: strict) and
 * the strict validator of its result. They are shared by the process: a second kit reuses them.
 */
import { loadValidators, schemaValidator, tolerantFormFits, type ValidateFunction } from './ajv.js';
import { toIssue, type ValidationIssue } from './issues.js';
import { isObject } from '../shared/options.js';
import { tolerate, type Tolerated } from './tolerate.js';

/** `'tolerant'` (default): the tolerant form of the request schemas, deviations reported; `'strict'`: the schemas as written. */
export type ValidationMode = 'tolerant' | 'strict';

export interface Validators {
  readonly mode: ValidationMode;
  /**
   * Loads the generated validators of `callback` (of every callback given to createValidators when
   * omitted): undefined when they are loaded already, else a promise settled once they are. The other
   * methods of a callback may be called only after.
   */
  ready(callback?: string): Promise<void> | undefined;
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

/** The validators of the given callbacks, by callback name; each callback's are loaded by `ready(callback)`. */
export function createValidators(schemas: Readonly<Record<string, CallbackSchemas>>, mode: ValidationMode = 'strict'): Validators {
  const entries = Object.entries(schemas);
  // The tolerant form keeps the top-level `required` of exactly these request schemas.
  const roots = entries.map(([, s]) => s.request);
  if (mode === 'tolerant') assertTolerantFits(roots);
  const requestKinds = mode === 'tolerant' ? (['tolerant', 'report'] as const) : (['strict'] as const);
  /** Callbacks whose validators are loaded (ready() answers undefined for them from then on). */
  const loaded = new Set<string>();
  const requests = new Map<string, ValidateFunction>();
  const reports = new Map<string, ValidateFunction>();
  const results = new Map<string, { validate: ValidateFunction; setsSuccess: boolean }>();
  const bind = (callback: string) => {
    const s = schemas[callback];
    requests.set(callback, schemaValidator(s.request, mode, roots));
    if (mode === 'tolerant') reports.set(callback, schemaValidator(s.request, 'report'));
    results.set(callback, { validate: schemaValidator(s.result), setsSuccess: s.setsSuccess });
    loaded.add(callback);
  };
  const load = (callback: string): Promise<void> | undefined => {
    if (loaded.has(callback) || !Object.hasOwn(schemas, callback)) return undefined;
    const s = schemas[callback];
    const pending = [...requestKinds.map((kind) => loadValidators(kind, [s.request])), loadValidators('strict', [s.result])]
      .filter((p): p is Promise<void> => p !== undefined);
    if (pending.length === 0) {
      bind(callback);
      return undefined;
    }
    return Promise.all(pending).then(() => { if (!loaded.has(callback)) bind(callback); });
  };
  /** A callback without validators: one of ours not loaded yet is a caller's bug; another has none (null). */
  const missing = (callback: string): null => {
    if (Object.hasOwn(schemas, callback)) {
      throw new Error(`the validators of ${callback} are not loaded: await validators.ready(${JSON.stringify(callback)}) first`);
    }
    return null;
  };
  const validators: Validators = {
    mode,
    ready(callback) {
      if (callback !== undefined) return load(callback);
      const pending = entries.map(([cb]) => load(cb)).filter((p): p is Promise<void> => p !== undefined);
      return pending.length === 0 ? undefined : Promise.all(pending).then(() => undefined);
    },
    request(callback, input) {
      const validate = requests.get(callback);
      if (!validate) return missing(callback);
      if (validate(input)) return null;
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
      if (!r) return missing(callback);
      // The kit sets Success itself: the reply body is `{ Success: true, ...fields }`.
      const body = r.setsSuccess && isObject(result) ? { Success: true, ...result } : result;
      if (r.validate(body)) return null;
      return toIssue(r.validate.errors ?? []).pointer || '/';
    },
  };
  return validators;
}

/** Throws (at construction, as before the validators were loaded lazily) when no tolerant validators were generated for these roots. */
function assertTolerantFits(roots: readonly string[]): void {
  if (!tolerantFormFits(roots)) schemaValidator(roots[0], 'tolerant', roots);
}
