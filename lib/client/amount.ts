/**
 * Amounts of the refund operations as the service writes them: decimal text ("170.10"). The client
 * sends text (a number is turned into the text it prints as) and adds and compares amounts exactly
 * (customs/decimal.ts), never in binary floating point.
 */
import { add, compare, ZERO, type Decimal } from '../shared/decimal.js';

const DECIMAL_TEXT = /^(\d{1,15})(?:\.(\d{1,6}))?$/;

/** The decimal of an amount given as text or as a number; undefined when it is not a non-negative decimal. */
export function readAmount(value: unknown): Decimal | undefined {
  const text = typeof value === 'number' && Number.isFinite(value) && value >= 0 ? String(value) : typeof value === 'string' ? value.trim() : undefined;
  const m = text === undefined ? null : DECIMAL_TEXT.exec(text);
  if (!m) return undefined;
  const frac = m[2] ?? '';
  return { units: BigInt(m[1] + frac), scale: frac.length };
}

/** The decimal as text with at least two places ("170.1" → "170.10"). */
export function amountText(d: Decimal): string {
  const scale = Math.max(d.scale, 2);
  const units = d.units * 10n ** BigInt(scale - d.scale);
  const digits = units.toString().padStart(scale + 1, '0');
  return `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
}

export const sumAmounts = (values: readonly Decimal[]): Decimal => values.reduce(add, ZERO);
export const moreThan = (a: Decimal, b: Decimal): boolean => compare(a, b) > 0;
export const sameAmount = (a: Decimal, b: Decimal): boolean => compare(a, b) === 0;
