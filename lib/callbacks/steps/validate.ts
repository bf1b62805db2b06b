/**
 * Validation of the request before the adapter sees it. Failing locations are reported as JSON
 * pointers with the rule broken, never with the submitted values (they are personal data).
 */
import { PipelineFailure } from '../../shared/errors.js';
import type { StepFactory } from '../state.js';
import type { CallbackName } from '../types.js';

export interface ValidationIssue { pointer: string; rule: string }
export type RequestValidator = (callback: CallbackName, input: unknown) => ValidationIssue[] | null;

export function describeIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => `${i.pointer || '/'}: ${i.rule}`).join('; ');
}

export const createValidateStep = (validator: RequestValidator): StepFactory => () => async (state, next) => {
  const issues = validator(state.callback, state.input);
  if (issues && issues.length > 0) {
    const description = describeIssues(issues);
    throw new PipelineFailure('INVALID_REQUEST', `validation failed: ${description}`, description);
  }
  return next();
};
