/**
 * One local price from a snapshot, in the documented order (docs.global-e.com "Product Pricing to
 * Local Currency"): VAT (pocket or deduct) → the country coefficient → the currency rate → the
 * rounding rule; a fixed price wins ("Prices and Price Conversion"). Between the rate and the rule
 * the price is rounded to the currency's minor unit (the PHP SDK's formatPrice and the service's
 * GetMerchantPriceDetails sample; docs/compatibility.md); the rule's result is cut to the minor unit
 * (roundingrange.html: a target that violates MaxDecimalPlaces "must be truncated").
 */
import { compare, parseDecimal, roundTo, times, toFixedText, toText, truncate, ZERO, type Decimal } from '../shared/decimal.js';
import { fail } from '../shared/options.js';
import { applyRule } from './rounding.js';
import type { Snapshot } from './snapshot.js';
import type { LocalPrice, LocalPriceInput, PriceStep } from './types.js';
import { applyVat } from './vat.js';

/** The minor unit of a currency the data does not list (the cartridge's two places). */
export const DEFAULT_PLACES = 2;
const ONE: Decimal = { units: 1n, scale: 0 };

export interface Defaults {
  vatRate?: Decimal;
  includesVat: boolean;
}

const bad = (message: string): never => fail('ERR_CBK_INVALID_ARGUMENT', `localPrice: ${message}`);
const unavailable = (message: string): never => fail('ERR_CBK_PRICE_UNAVAILABLE', `localPrice: ${message}`);

export function amountOf(value: unknown, name: string): Decimal {
  const d = parseDecimal(value);
  if (d === undefined || compare(d, ZERO) < 0) return bad(`${name} must be a non-negative decimal (text like "19.99", or a number)`);
  return d;
}

export function convert(s: Snapshot, input: LocalPriceInput, defaults: Defaults, stale: boolean): LocalPrice {
  const price = amountOf(input.price, 'price');
  if (typeof input.countryCode !== 'string') return bad('countryCode must be an ISO 3166-1 alpha-2 code');
  const countryCode = input.countryCode.toUpperCase();
  const country = s.countries.get(countryCode) ?? unavailable(`the browsing data has no country ${JSON.stringify(input.countryCode)}`);
  if (country.IsOperatedByGlobalE === false) unavailable(`the service does not operate ${countryCode} (IsOperatedByGlobalE false)`);
  const currencyCode = country.DefaultCurrencyCode.toUpperCase();
  const places = s.places.get(currencyCode) ?? DEFAULT_PLACES;
  const steps: PriceStep[] = [];
  const result = (value: Decimal, fixed: boolean): LocalPrice => ({ price: toFixedText(value, places), currencyCode, countryCode, fixed, steps, stale });

  if (input.fixedPrice !== undefined) {
    const fixedPrice = amountOf(input.fixedPrice, 'fixedPrice');
    if (country.SupportsFixedPrices === true) {
      steps.push({ step: 'fixed', value: toText(fixedPrice), detail: `fixed price in ${currencyCode}: no VAT step, coefficient, rate or rounding` });
      return result(fixedPrice, true);
    }
  }
  const rate = currencyCode === s.merchantCurrency ? ONE : s.rates.get(currencyCode) ?? unavailable(`no currency rate ${s.merchantCurrency} → ${currencyCode} in the browsing data`);

  const record = s.countryCoefficients.get(countryCode);
  const vatRate = input.vatRate === undefined ? defaults.vatRate : amountOf(input.vatRate, 'vatRate');
  const includesVat = input.includesVat ?? defaults.includesVat;
  if (typeof includesVat !== 'boolean') bad('includesVat must be a boolean');
  const vat = applyVat(price, record?.IncludeVAT ?? 0, includesVat, vatRate, country);
  let p = vat.value;
  steps.push({ step: 'vat', value: toText(p), detail: vat.detail });

  const classRecord = input.productClassCode === undefined ? undefined : s.classCoefficients.get(`${countryCode}|${input.productClassCode}`);
  const coefficient = classRecord ?? record;
  if (coefficient) {
    p = times(p, parseDecimal(coefficient.Rate) ?? ONE);
    steps.push({ step: 'coefficient', value: toText(p), detail: `× ${coefficient.Rate} (${classRecord ? `class ${input.productClassCode}` : `${countryCode}`} coefficient)` });
  } else {
    steps.push({ step: 'coefficient', value: toText(p), detail: `no coefficient for ${countryCode}: × 1` });
  }

  p = times(p, rate);
  steps.push({ step: 'rate', value: toText(p), detail: `× ${toText(rate)} (${s.merchantCurrency} → ${currencyCode})` });

  p = roundTo(p, places);
  steps.push({ step: 'minor-unit', value: toFixedText(p, places), detail: `rounded half away from zero to ${places} places (${currencyCode})` });

  const rule = s.rules.get(`${currencyCode}|${countryCode}`) ?? s.rules.get(`${currencyCode}|`);
  if (rule) {
    const before = p;
    const rounded = applyRule(rule, before);
    // A lower target below zero (a small price in a range starting at 0) is 0, as the cartridge clamps it (roundPrice.js).
    p = compare(rounded.value, ZERO) < 0 ? ZERO : truncate(rounded.value, places);
    const what = !rounded.range ? 'no range holds the price: unchanged'
      : rounded.exception ? 'an exception of the range: unchanged'
      : `range (${rounded.range.From}, ${rounded.range.To}] behaviour ${rounded.range.RangeBehavior}: ${compare(before, rounded.targets!.threshold) < 0 ? 'below' : 'at or above'} threshold ${toText(rounded.targets!.threshold)}`;
    const id = rule.RoundingRuleId === undefined ? '' : ` ${rule.RoundingRuleId}`;
    steps.push({ step: 'rounding', value: toFixedText(p, places), detail: `rule${id} (${rule.CountryCode ? `${currencyCode}/${rule.CountryCode}` : currencyCode}): ${what}` });
  } else {
    steps.push({ step: 'rounding', value: toFixedText(p, places), detail: `no rounding rule for ${currencyCode}` });
  }
  return result(p, false);
}
