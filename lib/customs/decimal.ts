/**
 * Exact decimal arithmetic for amounts and weights: a number is read as the decimal it prints as
 * (19.99 is 1999 hundredths), so sums and products carry no binary rounding error and nothing is
 * re-rounded. Amounts the service sends are already rounded to their currency's minor unit, so a
 * sum of them is a sum in minor units: 333.33 + 333.33 + 333.34 is exactly 1000.00.
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
