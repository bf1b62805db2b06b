/**
 * Properties of the conversion over generated prices (fast-check): a dearer product never shows
 * cheaper (for rules without exceptions: an exception keeps its price where its neighbours round up,
 * by design, roundingrange.html); the rounding rule moves a price by less than one step of its range;
 * the result always has the currency's places (MaxDecimalPlaces).
 */
import fc from 'fast-check';
import { createLocalPrices, type LocalPrices } from 'crossborder-merchant-kit/prices';
import { applyRule, rangeFor } from '../../lib/prices/rounding.js';
import { compare, parseDecimal, subtract, toText } from '../../lib/shared/decimal.js';
import { fakeBrowsing, fixtureData } from './helpers.js';

/** A price in pence, 0 to 100 000.00 GBP, as decimal text. */
const pence = fc.integer({ min: 0, max: 10_000_000 });
const text = (units: number) => toText({ units: BigInt(units), scale: 2 });
const COUNTRIES = ['DE', 'US', 'JP', 'AU', 'BH'];

let prices: LocalPrices;
beforeAll(async () => {
  const data = fixtureData();
  for (const rule of data.rules) for (const range of rule.RoundingRanges) range.RoundingExceptions = [];
  prices = createLocalPrices({ client: fakeBrowsing(() => data), refreshMs: 0, merchantVatRate: 20 });
  await prices.refresh();
});

test('monotone: a ≤ b → localPrice(a) ≤ localPrice(b), in every country, with and without a product class', () => {
  fc.assert(fc.property(pence, pence, fc.constantFrom(...COUNTRIES), fc.constantFrom(undefined, 'SHOES'), (x, y, countryCode, productClassCode) => {
    const [a, b] = x <= y ? [x, y] : [y, x];
    const pa = prices.localPrice({ price: text(a), countryCode, ...(productClassCode ? { productClassCode } : {}) });
    const pb = prices.localPrice({ price: text(b), countryCode, ...(productClassCode ? { productClassCode } : {}) });
    return compare(parseDecimal(pa.price)!, parseDecimal(pb.price)!) <= 0;
  }), { numRuns: 500 });
});

test('the result has exactly the currency\'s places, and is never negative', () => {
  const places: Record<string, number> = { EUR: 2, USD: 2, JPY: 0, AUD: 2, BHD: 3 };
  fc.assert(fc.property(pence, fc.constantFrom(...COUNTRIES), (p, countryCode) => {
    const r = prices.localPrice({ price: text(p), countryCode });
    const decimals = r.price.includes('.') ? r.price.split('.')[1].length : 0;
    return decimals === places[r.currencyCode] && !r.price.startsWith('-');
  }), { numRuns: 300 });
});

test('rounding bounds: each rule moves a price by less than one step of its range (h, or 2 for relative decimal targets), to its lower or upper target', () => {
  const rules = fixtureData().rules;
  fc.assert(fc.property(fc.integer({ min: 1, max: 100_000_000 }), fc.constantFrom(...rules), (units, rule: any) => {
    const p = { units: BigInt(units), scale: 2 };
    const range = rangeFor(rule, p);
    const r = applyRule(rule, p);
    if (!range) return compare(r.value, p) === 0;
    if (r.exception) return compare(r.value, p) === 0;
    const step = range.RangeBehavior === 2 ? 2 : range.RangeBehavior === 1 ? Number(range.To) : Number(range.TargetBehaviorHelperValue || (range.RangeBehavior === 3 ? 10 : 5));
    const moved = Math.abs(Number(toText(subtract(r.value, p))));
    const target = compare(p, r.targets!.threshold) < 0 ? r.targets!.lower : r.targets!.upper;
    return moved < step && compare(r.value, target) === 0;
  }), { numRuns: 1000 });
});
