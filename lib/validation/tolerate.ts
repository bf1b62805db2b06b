/**
 * The tolerant reading of one request (validation: 'tolerant', docs/compatibility.md), in one place:
 * 1. the deviations from the schemas as written are listed on the payload as received (AJV `allErrors`);
 *    a payload without any costs this one validation;
 * 2. typed values sent as text are read as their type (lib/validation/coerce.ts), and listed values
 *    written in another case as the listed value (enum-case.ts), copy-on-write;
 * 3. nulls are removed (properties and array elements): null means absent;
 * 4. the result is checked against the tolerant form of the schemas: its first failure is refused.
 * The deviations are reported by pointer (as received) and rule, never by value: the others first,
 * then the coercions, then the (many, expected) nulls.
 */
import type { ValidateFunction } from './ajv.js';
import { applyCoercions, coercionIssue, coercionsOf } from './coerce.js';
import { ENUM_CASE_RULE, enumReadingsOf } from './enum-case.js';
import { listIssues, toIssue, type ValidationIssue } from './issues.js';
import { withoutNulls } from './tolerant.js';

export const NULL_RULE = 'is null (read as absent)';

export interface Tolerated<T = unknown> {
  /** What the adapter receives: `input`, or a copy of it where a typed value was sent as text. */
  input: T;
  /** Every deviation from the schemas as written (`[]` for a payload that has none). */
  deviations: ValidationIssue[];
  /** The first failure against the tolerant form (a 400), or null. */
  refused: ValidationIssue[] | null;
}

const ELEMENTS = Object.freeze({ elements: true });
const SHALLOW = Object.freeze({ elements: true, depth: 0 });

/** `nullFree`: the caller knows `input` holds no null at any depth (the parse stage's walk saw none): nothing to remove. */
export function tolerate<T>(report: ValidateFunction, tolerant: ValidateFunction, input: T, nullFree = false): Tolerated<T> {
  if (report(input)) {
    if (!nullFree) withoutNulls(input, '', [], ELEMENTS); // nulls the schemas allow: absent all the same
    return { input, deviations: [], refused: null };
  }
  const errors = report.errors ?? [];
  const typed = coercionsOf(errors, input);
  const readings = enumReadingsOf(errors, input);
  const coercions = readings.length === 0 ? typed : [...typed, ...readings];
  const copied: object[] = [];
  const read = applyCoercions(input, coercions, copied);
  const nulls = new Set(withoutNulls(read, '', [], ELEMENTS));
  // The payload as received (the idempotency fingerprint hashes it) loses its nulls as before, but keeps
  // its text. Below the copies it is shared and was just walked: only the copied containers' own members are left.
  for (const o of copied) withoutNulls(o, '', [], SHALLOW);
  if (!tolerant(read)) return { input: read, deviations: [], refused: [toIssue(tolerant.errors ?? [])] };
  const coerced = new Set(coercions.map((c) => c.pointer));
  const issues = listIssues(coerced.size === 0 ? errors : errors.filter((e) => !coerced.has(e.instancePath)));
  return {
    input: read,
    deviations: [
      ...issues.filter((d) => !nulls.has(d.pointer)),
      ...typed.map(coercionIssue),
      ...readings.map((r) => ({ pointer: r.pointer, rule: ENUM_CASE_RULE })),
      ...[...new Set(issues.filter((d) => nulls.has(d.pointer)).map((d) => d.pointer))].map((pointer) => ({ pointer, rule: NULL_RULE })),
    ],
    refused: null,
  };
}
