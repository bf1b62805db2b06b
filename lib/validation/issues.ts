/**
 * AJV errors → `{ pointer, rule }`. The rule is built from the schema only (keyword and its limits),
 * never from the submitted value: request values are personal data and must not reach a response.
 */
import type { ErrorObject } from './ajv.js';

/** One problem of a payload: where (a JSON pointer) and which rule it breaks; never the value. */
export interface ValidationIssue { pointer: string; rule: string }

export function describeIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => `${i.pointer || '/'}: ${i.rule}`).join('; ');
}

const escapeToken = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

function ruleOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required': return 'is required';
    case 'type': return `must be ${String(p.type).split(',').join(' or ')}`;
    case 'pattern': return `must match ${String(p.pattern)}`;
    case 'format': return p.format === 'date' ? 'must be a date (YYYY-MM-DD)' : `must match format ${String(p.format)}`;
    case 'enum': return `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const': return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'minimum': return `must be >= ${String(p.limit)}`;
    case 'maximum': return `must be <= ${String(p.limit)}`;
    case 'exclusiveMinimum': return `must be > ${String(p.limit)}`;
    case 'exclusiveMaximum': return `must be < ${String(p.limit)}`;
    case 'minLength': return `must have at least ${String(p.limit)} characters`;
    case 'maxLength': return `must have at most ${String(p.limit)} characters`;
    case 'minItems': return `must have at least ${String(p.limit)} items`;
    case 'maxItems': return `must have at most ${String(p.limit)} items`;
    default: return `violates ${e.keyword}`;
  }
}

/** The issue of the first failure AJV reports (allErrors is off, so there is one failing location). */
export function toIssue(errors: readonly ErrorObject[]): ValidationIssue {
  const last = errors[errors.length - 1];
  if (last.keyword === 'anyOf') {
    const branches = errors.slice(0, -1);
    const missing = branches.filter((e) => e.keyword === 'required' && e.instancePath === last.instancePath)
      .map((e) => String((e.params as { missingProperty: string }).missingProperty));
    if (missing.length > 0 && missing.length === branches.length) {
      return { pointer: last.instancePath, rule: `requires one of ${missing.join(', ')}` };
    }
    const types = branches.filter((e) => e.keyword === 'type' && e.instancePath === last.instancePath);
    if (types.length > 0 && types.length === branches.length) {
      return { pointer: last.instancePath, rule: `must be ${types.map((e) => String((e.params as { type: string }).type)).join(' or ')}` };
    }
    return { pointer: last.instancePath, rule: 'matches none of the allowed forms' };
  }
  const first = errors[0];
  if (first.keyword === 'required') {
    const prop = String((first.params as { missingProperty: string }).missingProperty);
    return { pointer: `${first.instancePath}/${escapeToken(prop)}`, rule: 'is required' };
  }
  return { pointer: first.instancePath, rule: ruleOf(first) };
}

/**
 * Every failure of an `allErrors` run, one issue per location and rule (combinator wrappers such as
 * anyOf are left out: their branches are listed). Used to report an accepted payload's deviations.
 */
export function listIssues(errors: readonly ErrorObject[]): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue;
    const issue = e.keyword === 'required'
      ? { pointer: `${e.instancePath}/${escapeToken(String((e.params as { missingProperty: string }).missingProperty))}`, rule: 'is required' }
      : { pointer: e.instancePath, rule: ruleOf(e) };
    const key = `${issue.pointer}\u0000${issue.rule}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
  }
  return out;
}
