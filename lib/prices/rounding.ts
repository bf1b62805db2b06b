/**
 * A rounding rule applied to a price (docs.global-e.com roundingrule.html, roundingrange.html: From
 * exclusive, To inclusive; below the threshold → the lower target, at or above it → the upper
 * target; exceptions are left as they are). The four RangeBehaviors turn a range into absolute
 * targets as the service's own integrations do, line for line alike (the PHP SDK's
 * Models/Rounding.php, the cartridge's roundPrice.js; the docs' Table 1/Table 2 could not be read):
 * 1 absolute; 2 relative decimal (i = floor(p): lower i − 1 + L, upper i + U, threshold i + T);
 * 3 relative whole (h default 10, base = floor(p / h)·h: lower base − h + L, upper base + U,
 * threshold base + T); 4 nearest target (h default 5: lower base − 1 + L, upper base − 1 + h + U,
 * threshold base + T). Exact decimal arithmetic throughout.
 */
import type { RoundingRange, RoundingRule } from '../payloads.js';
import { add, compare, floor, parseDecimal, subtract, times, ZERO, type Decimal } from '../shared/decimal.js';

const ONE: Decimal = { units: 1n, scale: 0 };
const dec = (v: number | undefined): Decimal => (v === undefined ? ZERO : parseDecimal(v) ?? ZERO);

export interface AbsoluteTargets {
  lower: Decimal;
  upper: Decimal;
  threshold: Decimal;
  exceptions: Decimal[];
}

export interface Rounded {
  value: Decimal;
  /** The range applied (absent: no range holds the price, or it is zero). */
  range?: RoundingRange;
  targets?: AbsoluteTargets;
  /** The price is one of the range's exceptions: unchanged. */
  exception?: boolean;
}

/** The first range with From < p ≤ To. */
export function rangeFor(rule: RoundingRule, p: Decimal): RoundingRange | undefined {
  return rule.RoundingRanges.find((r) => compare(dec(r.From), p) < 0 && compare(p, dec(r.To)) <= 0);
}

export function absoluteTargets(range: RoundingRange, p: Decimal): AbsoluteTargets {
  const L = dec(range.LowerTarget);
  const U = dec(range.UpperTarget);
  const T = dec(range.Threshold);
  const exceptions = (range.RoundingExceptions ?? []).map((e) => dec(e.ExceptionValue));
  const shifted = (base: Decimal, lower: Decimal, upper: Decimal): AbsoluteTargets =>
    ({ lower, upper, threshold: add(base, T), exceptions: exceptions.map((e) => add(e, base)) });
  switch (range.RangeBehavior) {
    case 2: {
      const i = floor(p);
      return shifted(i, add(subtract(i, ONE), L), add(i, U));
    }
    case 3: {
      const h = compare(dec(range.TargetBehaviorHelperValue), ZERO) === 0 ? { units: 10n, scale: 0 } : dec(range.TargetBehaviorHelperValue);
      const base = times(floor(divideFloor(p, h)), h);
      return shifted(base, add(subtract(base, h), L), add(base, U));
    }
    case 4: {
      const h = compare(dec(range.TargetBehaviorHelperValue), ZERO) === 0 ? { units: 5n, scale: 0 } : dec(range.TargetBehaviorHelperValue);
      const base = times(floor(divideFloor(p, h)), h);
      return shifted(base, add(subtract(base, ONE), L), add(add(subtract(base, ONE), h), U));
    }
    default:
      return { lower: L, upper: U, threshold: T, exceptions };
  }
}

/** floor(p / h) exactly (h > 0): the quotient's integer part, as a Decimal of scale 0. */
function divideFloor(p: Decimal, h: Decimal): Decimal {
  const scale = Math.max(p.scale, h.scale);
  const pu = p.units * 10n ** BigInt(scale - p.scale);
  const hu = h.units * 10n ** BigInt(scale - h.scale);
  const q = pu / hu;
  return { units: pu < 0n !== hu < 0n && q * hu !== pu ? q - 1n : q, scale: 0 };
}

/** The price rounded by the rule (a non-negative price; zero stays zero). */
export function applyRule(rule: RoundingRule, p: Decimal): Rounded {
  if (p.units === 0n) return { value: p };
  const range = rangeFor(rule, p);
  if (!range) return { value: p };
  const targets = absoluteTargets(range, p);
  if (targets.exceptions.some((e) => compare(e, p) === 0)) return { value: p, range, targets, exception: true };
  return { value: compare(p, targets.threshold) < 0 ? targets.lower : targets.upper, range, targets };
}
