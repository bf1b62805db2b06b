/**
 * The one set of option-checking helpers of the kit (callbacks, auth, stores, bindings, client,
 * sandbox): every mistake is a KitError with a stable code, unknown keys get a did-you-mean.
 */
import { unknownKeyMessage } from './did-you-mean.js';
import { KitError, type KitErrorCode } from './errors.js';

export const fail = (code: KitErrorCode, message: string): never => { throw new KitError(code, message); };
export const invalid = (message: string): never => fail('ERR_CBK_OPTION_INVALID', message);
export const required = (message: string): never => fail('ERR_CBK_OPTION_REQUIRED', message);

/** A JSON object: not null, not an array (the shape check of payload values; see isPlainObject for options). */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A plain object (also one made in another realm, e.g. by node:crypto under a test runner's VM). */
/**
 * Every method name of an object: own and inherited (class prototypes), Object.prototype and
 * `constructor` left out; only data properties holding a function (getters are not called).
 */
export function methodNames(value: object): string[] {
  const names = new Set<string>();
  for (let o: object | null = value; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const name of Object.getOwnPropertyNames(o)) {
      if (name === 'constructor') continue;
      const d = Object.getOwnPropertyDescriptor(o, name);
      if (d && typeof d.value === 'function') names.add(name);
    }
  }
  return [...names];
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.prototype.toString.call(v) === '[object Object]'
    && (Object.getPrototypeOf(v) === null || Object.getPrototypeOf(Object.getPrototypeOf(v)) === null);
}

/** Throws ERR_CBK_OPTION_UNKNOWN (with did-you-mean) on the first key of `value` not in `known`. */
export function checkKeys(where: string, value: Record<string, unknown>, known: readonly string[]): void {
  for (const k of Object.keys(value)) if (!known.includes(k)) fail('ERR_CBK_OPTION_UNKNOWN', unknownKeyMessage(where, k, known));
}

/** Requires a plain object with only `known` keys (did-you-mean on the others). */
export function checkObject(value: unknown, where: string, known: readonly string[]): Record<string, unknown> {
  if (!isPlainObject(value)) return invalid(`Option ${where} must be an object`);
  checkKeys(`${where}.`, value, known);
  return value;
}

export function positiveMs(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    return invalid(`Option ${name} must be a positive number of milliseconds`);
  }
  return value;
}

const DURATION = /^\s*\+?(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|weeks?|y|yrs?|years?)\s*$/i;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000, y: 31_557_600_000 };

/**
 * The one duration grammar of the kit: a number (of `numberUnit`: milliseconds by default), or a
 * string like '500ms', '45s', '90m', '12h', '30d', '2w' (long forms too: '5 minutes'). Returns
 * milliseconds; `fallback` when absent. Zero is refused unless `allowZero`.
 */
export function parseDuration(
  value: unknown, name: string, fallback: number,
  { numberUnit = 'ms', allowZero = false }: { numberUnit?: 'ms' | 's'; allowZero?: boolean } = {},
): number {
  if (value === undefined) return fallback;
  const ok = (ms: number) => Number.isFinite(ms) && (ms > 0 || (allowZero && ms === 0));
  if (typeof value === 'number' && ok(value)) return numberUnit === 's' ? value * 1000 : value;
  if (typeof value === 'string') {
    const m = DURATION.exec(value);
    if (m) {
      const unit = m[2].toLowerCase();
      const ms = Math.round(Number(m[1]) * (unit === 'ms' || unit.startsWith('milli') ? 1 : UNIT_MS[unit[0]]));
      if (ok(ms)) return ms;
    }
  }
  return invalid(numberUnit === 's'
    ? `Option ${name} must be a number of seconds or a duration such as '30s' or '5m'`
    : `Option ${name} must be milliseconds or a duration like '30d', '12h', '90m', '45s'`);
}

/** A byte size: a positive integer, or a string like '500kb', '1mb'. */
export function parseByteSize(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  if (typeof value === 'string') {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(value);
    if (m) {
      const mult = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(m[2] ?? 'b').toLowerCase() as 'b'];
      const n = Math.floor(Number(m[1]) * mult);
      if (n > 0) return n;
    }
  }
  return invalid(`Option ${name} must be a positive number of bytes or a size like '1mb'`);
}

/**
 * A secret option: one non-empty string, or an array of them (current first, then previous ones,
 * for rotation). Returns the list.
 */
export function secretList(value: unknown, where: string): string[] {
  if (value === undefined || value === null) return required(`Option ${where} is required`);
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
