/**
 * The rounding rule (docs.global-e.com roundingrule.html, roundingrange.html; the behaviours as the
 * service's PHP SDK codes them, Models/Rounding.php, with its stub rules stubs/Browsing/RoundingRules.json:
 * USD/US 15, JPY/JP 19, JPY 28 — test/fixtures/service/browsing-rounding-rules.json).
 */
import { createLocalPrices, type LocalPrices } from 'crossborder-merchant-kit/prices';
import { applyRule, absoluteTargets } from '../../lib/prices/rounding.js';
import { parseDecimal, toText } from '../../lib/shared/decimal.js';
import { browsing, fakeBrowsing, fixtureData } from './helpers.js';

const rules = browsing('rounding-rules');
const rule = (id: number, country: string | null) => rules.find((r: any) => r.RoundingRuleId === id && r.CountryCode === country);
const round = (r: any, p: string) => toText(applyRule(r, parseDecimal(p)!).value);

describe('roundingrange.html: From exclusive, To inclusive; below the threshold → LowerTarget, at or above → UpperTarget', () => {
  const usd = rule(15, 'US');
  test.each([
    ['0.5', '0.99'], // range (0, 1], absolute: threshold 1, lower 0.99
    ['1', '0.99'], // To inclusive: 1 is still in (0, 1]
    ['1.01', '0.99'], // (1, 250], relative decimal: i = 1, threshold 1.39 → lower i − 1 + 0.99
    ['12.3', '11.99'],
    ['12.39', '12.99'], // at the threshold: upper
    ['12.4', '12.99'],
    ['250', '249.99'], // To inclusive: 250 is in (1, 250], not (250, …]; below 250.39 → lower
    ['250.5', '251'], // (250, max], relative decimal with targets 1: i = 250, upper 250 + 1
  ])('USD/US rule 15: %s → %s', (p, expected) => {
    expect(round(usd, p)).toBe(expected);
  });

  test('no range holds the price (JPY rule 28 starts at 100): unchanged; zero stays zero', () => {
    expect(round(rule(28, null), '99')).toBe('99');
    expect(round(rule(15, 'US'), '0')).toBe('0');
  });

  test('RoundingExceptions: "values not to apply rounding for" (relative to the base in the relative behaviours)', () => {
    const r = { CurrencyCode: 'EUR', RoundingRanges: [{ From: 0, To: 100, Threshold: 0, LowerTarget: 0.99, UpperTarget: 0.99, RangeBehavior: 2, RoundingExceptions: [{ ExceptionValue: 0.5 }] }] };
    expect(round(r, '12.5')).toBe('12.5');
    expect(round(r, '12.4')).toBe('12.99');
    expect(applyRule(r as never, parseDecimal('12.5')!)).toMatchObject({ exception: true });
  });
});

describe('RangeBehaviors as the SDK codes them', () => {
  test('3 relative whole target (JPY/JP rule 19, h 10: base = floor(p/10)·10, lower base − 10 + 10, upper base + 10, threshold base + 4)', () => {
    const jp = rule(19, 'JP');
    expect(round(jp, '123')).toBe('120');
    expect(round(jp, '124')).toBe('130');
    expect(round(jp, '25001')).toBe('25000'); // (25000, max], h 100, threshold base + 40: 25001 < 25040 → lower 25000 − 100 + 100
    // The boundary case PRICES.md notes (as coded): 100 is in (0, 100], base 100, threshold 100 reached → upper 100 + 100.
    expect(round(jp, '100')).toBe('200');
  });

  test('3 with TargetBehaviorHelperValue 0 reads h as 10; 4 nearest target reads 0 as 5', () => {
    const whole = { From: 0, To: 1000, Threshold: 5, LowerTarget: 0, UpperTarget: 0, RangeBehavior: 3, TargetBehaviorHelperValue: 0 };
    expect(absoluteTargets(whole as never, parseDecimal('47')!)).toMatchObject({ threshold: parseDecimal('45'), lower: parseDecimal('30'), upper: parseDecimal('40') });
    const nearest = { ...whole, RangeBehavior: 4, Threshold: 2.5, LowerTarget: 0.99, UpperTarget: 0.99 };
    const t = absoluteTargets(nearest as never, parseDecimal('47')!);
    expect([toText(t.lower), toText(t.upper), toText(t.threshold)]).toEqual(['44.99', '49.99', '47.5']);
  });

  test('4 nearest target (the EUR rule of the fixtures, h 5, targets 0.99, threshold 2.5): 134.66 → 134.99, 132.4 → 129.99, 130 (exception 0 + base) stays', () => {
    const eur = rule(40, null);
    expect(round(eur, '134.66')).toBe('134.99');
    expect(round(eur, '132.4')).toBe('129.99');
    expect(round(eur, '130')).toBe('130');
  });

  test('1 absolute target: the targets as given', () => {
    expect(round({ RoundingRanges: [{ From: -1, To: 10, Threshold: 5, LowerTarget: 4.5, UpperTarget: 9.5, RangeBehavior: 1 }] }, '5')).toBe('9.5');
  });
});

describe('the rule picked: (currency, country), else the currency-wide rule (the SDK\'s Processors/RoundingRules.php, the cartridge\'s CUR_CC then CUR)', () => {
  let prices: LocalPrices;
  beforeAll(async () => {
    const data = fixtureData();
    data.countries.push({ Code: 'XJ', Name: 'Elsewhere with yen', DefaultCurrencyCode: 'JPY', IsOperatedByGlobalE: true });
    prices = createLocalPrices({ client: fakeBrowsing(() => data), refreshMs: 0 });
    await prices.refresh();
  });

  test('JP uses JPY/JP (rule 19); another yen country uses JPY (rule 28); its step says which', () => {
    // 0.5 GBP × 190.5 = 95.25 → 95 yen: in rule 19's (0, 100], not in rule 28's ranges.
    const jp = prices.localPrice({ price: '0.5', countryCode: 'JP' });
    const other = prices.localPrice({ price: '0.5', countryCode: 'XJ' });
    expect([jp.price, other.price]).toEqual(['100', '95']);
    expect(jp.steps.at(-1)?.detail).toMatch(/^rule 19 \(JPY\/JP\)/);
    expect(other.steps.at(-1)?.detail).toMatch(/^rule 28 \(JPY\): no range holds the price/);
  });

  test('a target with more places than the currency is cut to the minor unit (roundingrange.html: it "must be truncated")', async () => {
    const data = fixtureData();
    data.rules = [{ CurrencyCode: 'JPY', RoundingRanges: [{ From: 0, To: 1e9, Threshold: 0, LowerTarget: 0.99, UpperTarget: 0.99, RangeBehavior: 2 }] }];
    const p = createLocalPrices({ client: fakeBrowsing(() => data), refreshMs: 0 });
    await p.refresh();
    // 190.5 yen → 191 (minor unit) → relative decimal: upper 191 + 0.99 = 191.99 → cut to 191.
    expect(p.localPrice({ price: '1', countryCode: 'JP' }).price).toBe('191');
  });
});

test('a lower target below zero gives 0, as the cartridge clamps it (roundPrice.js): 0.01 GBP in DE under the EUR nearest-5 rule', async () => {
  const prices = createLocalPrices({ client: fakeBrowsing(fixtureData), refreshMs: 0 });
  await prices.refresh();
  // 0.01 × 0.93 × 1.346579823 → 0.01 EUR; base 0, lower 0 − 1 + 0.99 = −0.01 → 0.
  expect(prices.localPrice({ price: '0.01', countryCode: 'DE' }).price).toBe('0.00');
});
