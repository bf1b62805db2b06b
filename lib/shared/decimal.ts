/**
 * Exact decimal arithmetic for amounts, weights and prices (the one module: customs, the client's
 * amounts and local prices use it): a number is read as the decimal it prints as (19.99 is 1999
 * hundredths), so sums and products carry no binary rounding error and nothing is re-rounded.
 * Amounts the service sends are already rounded to their currency's minor unit, so a sum of them is
 * a sum in minor units: 333.33 + 333.33 + 333.34 is exactly 1000.00. A quotient is the one inexact
 * operation: `divide` rounds it, half away from zero, to the places it is asked for.
 */
export interface Decimal {
  /** value = units / 10^scale */
  units: bigint;
  scale: number;
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** The decimal a finite number prints as; throws a RangeError for NaN, ±Infinity or a negative value when `nonNegative`. */
export function toDecimal(value: number): Decimal {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new RangeError(`not a finite number: ${String(value)}`);
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value));
  if (!m) throw new RangeError(`not a decimal number: ${String(value)}`);
  const [, sign, int, frac = '', exp = '0'] = m;
  let units = BigInt(int + frac);
  let scale = frac.length - Number(exp);
  if (scale < 0) {
    units *= pow10(-scale);
    scale = 0;
  }
  return { units: sign ? -units : units, scale };
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.units * pow10(scale - a.scale), b.units * pow10(scale - b.scale), scale];
}

export const ZERO: Decimal = { units: 0n, scale: 0 };

export function add(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = align(a, b);
  return { units: x + y, scale };
}

export function times(a: Decimal, b: Decimal): Decimal {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

export function compare(a: Decimal, b: Decimal): number {
  const [x, y] = align(a, b);
  return x === y ? 0 : x < y ? -1 : 1;
}

/** Rounded to `scale` places, half away from zero. */
export function roundTo(a: Decimal, scale: number): Decimal {
  if (a.scale <= scale) return a;
  const div = pow10(a.scale - scale);
  const neg = a.units < 0n;
  const abs = neg ? -a.units : a.units;
  const q = (abs + div / 2n) / div;
  return { units: neg ? -q : q, scale };
}

export function toNumber(a: Decimal): number {
  const neg = a.units < 0n;
  const digits = (neg ? -a.units : a.units).toString().padStart(a.scale + 1, '0');
  const int = digits.slice(0, digits.length - a.scale);
  const frac = digits.slice(digits.length - a.scale);
  return Number(`${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}`);
}

export const sum = (values: readonly Decimal[]): Decimal => values.reduce(add, ZERO);

/** The decimal of decimal text ("170.10", "-0.5", "1e3") or of a finite number; undefined for anything else. */
export function parseDecimal(value: unknown): Decimal | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? toDecimal(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const m = /^([+-]?)(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d{1,3}))?$/.exec(value.trim());
  if (!m) return undefined;
  const [, sign, int, frac = '', exp = '0'] = m;
  let units = BigInt(int + frac);
  let scale = frac.length - Number(exp);
  if (scale < 0) {
    units *= pow10(-scale);
    scale = 0;
  }
  return { units: sign === '-' ? -units : units, scale };
}

export const negate = (a: Decimal): Decimal => ({ units: -a.units, scale: a.scale });

export const subtract = (a: Decimal, b: Decimal): Decimal => add(a, negate(b));

/** a / b rounded to `scale` places, half away from zero; throws a RangeError when b is zero. */
export function divide(a: Decimal, b: Decimal, scale: number): Decimal {
  if (b.units === 0n) throw new RangeError('division by zero');
  // a/b = (a.units / 10^a.scale) / (b.units / 10^b.scale); scaled by 10^(scale+1) for the rounding digit.
  let num = a.units * pow10(b.scale + scale + 1);
  let den = b.units * pow10(a.scale);
  if (den < 0n) { den = -den; num = -num; }
  const neg = num < 0n;
  const q = (neg ? -num : num) / den; // truncated, one place more than asked
  const rounded = (q + 5n) / 10n;
  return { units: neg ? -rounded : rounded, scale };
}

/** The largest integer not above `a` (toward −∞). */
export function floor(a: Decimal): Decimal {
  if (a.scale === 0) return a;
  const div = pow10(a.scale);
  const q = a.units / div; // toward zero
  return { units: a.units < 0n && q * div !== a.units ? q - 1n : q, scale: 0 };
}

/** Cut to `scale` places toward zero (no rounding). */
export function truncate(a: Decimal, scale: number): Decimal {
  if (a.scale <= scale) return a;
  return { units: a.units / pow10(a.scale - scale), scale };
}

/** Decimal text with exactly `scale` places ("12.50"; "13" for scale 0), padded or rounded half away from zero. */
export function toFixedText(a: Decimal, scale: number): string {
  const r = roundTo(a, scale);
  const units = r.units * pow10(scale - r.scale);
  const neg = units < 0n;
  const digits = (neg ? -units : units).toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale);
  return `${neg ? '-' : ''}${int}${scale > 0 ? `.${frac}` : ''}`;
}

/** The shortest decimal text of the value (no trailing zeros: "12.5", "100"). */
export function toText(a: Decimal): string {
  let { units, scale } = a;
  while (scale > 0 && units % 10n === 0n) { units /= 10n; scale--; }
  return toFixedText({ units, scale }, scale);
}
