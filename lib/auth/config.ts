/** Construction-time checks shared by the strategy factories: every mistake is a KitError. */
import { unknownKeyMessage } from '../core/did-you-mean.js';
import { KitError } from '../errors.js';

export const fail = (code: string, message: string): never => { throw new KitError(code, message); };
export const invalid = (message: string): never => fail('ERR_CBK_OPTION_INVALID', message);

/** A plain object (also one made in another realm, e.g. by node:crypto under a test runner's VM). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.prototype.toString.call(v) === '[object Object]'
    && (Object.getPrototypeOf(v) === null || Object.getPrototypeOf(Object.getPrototypeOf(v)) === null);
}

/** Requires a plain object with only `known` keys (did-you-mean on the others). */
export function checkObject(value: unknown, where: string, known: readonly string[]): Record<string, unknown> {
  if (!isPlainObject(value)) return invalid(`Option ${where} must be an object`);
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) fail('ERR_CBK_OPTION_UNKNOWN', unknownKeyMessage(`${where}.`, key, known));
  }
  return value;
}

/**
 * A secret option: one non-empty string, or an array of them (current first, then previous ones,
 * for rotation). Returns the list.
 */
export function secretList(value: unknown, where: string): string[] {
  if (value === undefined || value === null) return fail('ERR_CBK_OPTION_REQUIRED', `Option ${where} is required`);
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || !list.every((s) => typeof s === 'string' && s.length > 0)) {
    return invalid(`Option ${where} must be a non-empty string or a non-empty array of them (current and previous, for rotation)`);
  }
  return list as string[];
}

/** One string or an array of strings, each non-empty. */
export function stringList(value: unknown, where: string): string[] {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || !list.every((s) => typeof s === 'string' && s.trim().length > 0)) {
    return invalid(`Option ${where} must be a non-empty string or an array of them`);
  }
  return list as string[];
}

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
