/**
 * Validation of the request before the adapter sees it. Failing locations are reported as JSON
 * pointers with the rule broken, never with the submitted values (they are personal data).
 *
 * `validation: 'strict'`: the schemas as written; any failure is a 400.
 * `validation: 'tolerant'` (default, docs/compatibility.md): nulls are removed (null means absent),
 * typed values sent as text are read as their type (`"8"` where a number belongs; lib/validation/coerce.ts),
 * the request is checked against the tolerant form of the schemas (a 400 only where
 * the kit relies on the field), and every deviation from the schemas as written is reported: one
 * warning log line and `context.specDeviations` — pointers and rules, never values. A payload whose
 * deviations have the same shape as one already warned about by this kit (same callback, pointers with
 * array indexes folded, rules) is logged at debug instead: the real service sends the same nulls on
 * every order, and one warning per shape says it without flooding the log.
 */
import { PipelineFailure } from '../../shared/errors.js';
import type { Tolerated } from '../../validation/tolerate.js';
import type { StepFactory } from '../state.js';
import type { CallbackName } from '../types.js';
import { describeIssues, type ValidationIssue } from '../../validation/issues.js';

export interface RequestValidators {
  readonly mode: 'tolerant' | 'strict';
  request(callback: CallbackName, input: unknown): ValidationIssue[] | null;
  tolerate<T>(callback: CallbackName, input: T, nullFree?: boolean): Tolerated<T>;
}

/** At most this many deviations are kept on the context and the log line (the count is always exact). */
export const MAX_REPORTED_DEVIATIONS = 200;
export { NULL_RULE } from '../../validation/tolerate.js';
/** How many deviation shapes a kit remembers (past it, every payload is warned about again). */
export const MAX_WARNED_SHAPES = 1000;

const shapeOf = (callback: string, deviations: readonly ValidationIssue[]) =>
  `${callback}\n${[...new Set(deviations.map((d) => `${d.pointer.replace(/\/\d+(?=\/|$)/g, '/*')} ${d.rule}`))].sort().join('\n')}`;

const refuse = (issues: readonly ValidationIssue[]) => {
  const description = describeIssues(issues);
  return new PipelineFailure('INVALID_REQUEST', `validation failed: ${description}`, description);
};

export const createValidateStep = (validators: RequestValidators): StepFactory => () => {
  const warned = new Set<string>();
  return async (state, next) => {
    if (validators.mode === 'strict') {
      const issues = validators.request(state.callback, state.input);
      if (issues && issues.length > 0) throw refuse(issues);
      return next();
    }
    // The adapter receives a copy where a value was coerced: the payload as received keeps its text (fingerprint).
    const { input, deviations: reported, refused } = validators.tolerate(state.callback, state.input, state.nullFree === true);
    if (refused && refused.length > 0) throw refuse(refused);
    state.input = input;
    if (reported.length > 0) {
      const kept = reported.slice(0, MAX_REPORTED_DEVIATIONS);
      state.context.specDeviations = kept;
      const shape = shapeOf(state.callback, reported);
      const first = !warned.has(shape);
      if (first && warned.size < MAX_WARNED_SHAPES) warned.add(shape);
      state.log[first ? 'warn' : 'debug']({ deviations: kept, deviationCount: reported.length },
        'payload deviates from the interface specification; accepted (validation: tolerant)');
    } else state.context.specDeviations = [];
    return next();
  };
};
