/** Construction- and request-time helpers of the strategy factories (the generic option checks are in shared/options). */
import { invalid } from '../shared/options.js';

/** An HTTP header or query parameter name as typed by the merchant. */
export function checkName(value: unknown, where: string, pattern: RegExp, what: string): string {
  if (typeof value !== 'string' || !pattern.test(value)) return invalid(`Option ${where} must be ${what}`);
  return value;
}

/** First value of a header or query parameter; `null` when it was sent more than once. */
export function single(value: string | string[] | undefined): string | undefined | null {
  if (Array.isArray(value)) return value.length === 1 ? value[0] : value.length === 0 ? undefined : null;
  return value;
}
