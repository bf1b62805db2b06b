/** Option-checking helpers shared by the store constructors and the idempotency options. */
import { KitError } from '../errors.js';
import { unknownKeyMessage } from '../core/did-you-mean.js';

export const DEFAULT_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export const fail = (code: string, msg: string): never => { throw new KitError(code, msg); };

export function checkKeys(where: string, value: Record<string, unknown>, known: readonly string[]): void {
  for (const k of Object.keys(value)) if (!known.includes(k)) fail('ERR_CBK_OPTION_UNKNOWN', unknownKeyMessage(where, k, known));
}

export function positiveMs(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    return fail('ERR_CBK_OPTION_INVALID', `Option ${name} must be a positive number of milliseconds`);
  }
  return value;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration: milliseconds, or a string like '30d', '12h', '90m', '45s', '500ms'. */
export function parseDuration(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === 'string') {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/i.exec(value);
    const ms = m ? Math.round(Number(m[1]) * UNITS[m[2].toLowerCase()]) : NaN;
    if (ms > 0) return ms;
    return fail('ERR_CBK_OPTION_INVALID', `Option ${name} must be milliseconds or a duration like '30d', '12h', '90m', '45s'`);
  }
  return positiveMs(value, name, fallback);
}

