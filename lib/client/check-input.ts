/**
 * Checking an operation's request against its JSON Schema before anything is sent (the order-life
 * operations: status, refund, address): `null` read as "not given", a top-level field close to a
 * known one refused as a typo (did-you-mean), the schema's rules enforced; errors name the field and
 * the rule, never the value (requests hold personal data).
 */
import { didYouMean } from '../shared/did-you-mean.js';
import { isObject } from '../shared/options.js';
import { schemaValidator } from '../validation/every-schema.js';
import { invalidArgument, type ServiceOperation } from './errors.js';

/** `value` without null/undefined members (deeply); arrays keep their length. */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) out[k] = withoutNulls(v);
  return out;
}

/** The object's fields, nulls left out; a key close to a known one is refused as a typo. */
export function knownFields(operation: ServiceOperation, value: unknown, where: string, known: readonly string[]): Record<string, unknown> {
  if (!isObject(value)) throw invalidArgument(operation, `${where} must be an object`);
  for (const k of Object.keys(value)) {
    if (known.includes(k)) continue;
    const guess = didYouMean(k, known);
    if (guess) throw invalidArgument(operation, `unknown field ${k} in ${where}; did you mean ${guess}?`);
  }
  return withoutNulls(value) as Record<string, unknown>;
}

/** Throws INVALID_ARGUMENT naming the first schema violation (location and rule only). */
export function checkSchema(operation: ServiceOperation, value: unknown, schemaPath: string, what: string): void {
  const validate = schemaValidator(schemaPath);
  if (validate(value)) return;
  const e = validate.errors?.[0];
  throw invalidArgument(operation, `${what} does not match ${schemaPath}: ${e ? `${e.instancePath || '/'} ${e.message ?? 'is invalid'}` : 'invalid'}; nothing was sent`);
}

/** A non-empty OrderId of at most 200 characters. */
export function orderIdOf(operation: ServiceOperation, value: unknown, name = 'OrderId'): string {
  const id = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof id !== 'string' || id.trim() === '' || id.length > 200) throw invalidArgument(operation, `${name} must be a non-empty string of at most 200 characters`);
  return id;
}
