/**
 * Request and result validators, built once per router. Placeholder rules until the JSON Schemas
 * (schemas/) compile into AJV validators here.
 */
import type { ValidationIssue } from '../core/steps/validate.js';
import type { CallbackName } from '../core/types.js';

export interface Validators {
  request(callback: CallbackName, input: unknown): ValidationIssue[] | null;
  /** Returns the JSON pointer of the first invalid field of an adapter result, or null. */
  result(callback: CallbackName, result: unknown): string | null;
}

const nonEmptyString = (v: unknown) => (typeof v === 'string' && v.length > 0) || typeof v === 'number';

export function createValidators(): Validators {
  return {
    request(callback, input) {
      const o = input as Record<string, unknown>;
      const issues: ValidationIssue[] = [];
      if (callback === 'getCheckoutCartInfo') return null;
      if (!nonEmptyString(o.OrderId)) issues.push({ pointer: '/OrderId', rule: 'is required' });
      if (callback === 'updateOrderStatus' && !nonEmptyString(o.StatusCode)) issues.push({ pointer: '/StatusCode', rule: 'is required' });
      if (callback === 'performOrderPayment' && (typeof o.PaymentDetails !== 'object' || o.PaymentDetails === null)) {
        issues.push({ pointer: '/PaymentDetails', rule: 'is required' });
      }
      return issues.length ? issues : null;
    },
    result: () => null,
  };
}
