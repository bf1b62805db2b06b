/**
 * The browsing data of one refresh, indexed for pricing: countries by code, the minor unit of each
 * currency, rates from the merchant currency, coefficients by country and class, rounding rules by
 * (currency, country) and (currency, any country). Built once per refresh, never changed after.
 */
import type { BrowsingCountry, CountryCoefficient, CurrencyRate, RoundingRule } from '../payloads.js';
import { parseDecimal, type Decimal } from '../shared/decimal.js';
import { fail } from '../shared/options.js';

export interface Snapshot {
  merchantCurrency: string;
  countries: ReadonlyMap<string, BrowsingCountry>;
  /** MaxDecimalPlaces by currency code. */
  places: ReadonlyMap<string, number>;
  /** Rate from the merchant currency, by target currency. */
  rates: ReadonlyMap<string, Decimal>;
  /** Country-level records by country code. */
  countryCoefficients: ReadonlyMap<string, CountryCoefficient>;
  /** Class-level records by `${country}|${class}`. */
  classCoefficients: ReadonlyMap<string, CountryCoefficient>;
  /** Rules by `${currency}|${country}`, and `${currency}|` for a currency-wide rule. */
  rules: ReadonlyMap<string, RoundingRule>;
  loadedAt: number;
}

export interface BrowsingData {
  countries: BrowsingCountry[];
  currencies: { Code: string; MaxDecimalPlaces?: number }[];
  rates: CurrencyRate[];
  coefficients: CountryCoefficient[];
  rules: RoundingRule[];
}

const upper = (s: string) => s.toUpperCase();

/** The merchant currency: the option, else the one source currency of the rates. */
function merchantCurrencyOf(rates: readonly CurrencyRate[], option: string | undefined): string {
  if (option !== undefined) return option;
  const sources = [...new Set(rates.map((r) => upper(r.SourceCurrencyCode)))];
  if (sources.length === 1) return sources[0];
  return fail('ERR_CBK_OPTION_REQUIRED', `createLocalPrices: the currency rates name ${sources.length === 0 ? 'no source currency' : `several source currencies (${sources.join(', ')})`}: give the merchantCurrency option`);
}

export function buildSnapshot(data: BrowsingData, merchantCurrencyOption: string | undefined, loadedAt: number): Snapshot {
  const merchantCurrency = merchantCurrencyOf(data.rates, merchantCurrencyOption);
  const countries = new Map(data.countries.map((c) => [upper(c.Code), c]));
  // MaxDecimalPlaces: the currency's minor unit (null or absent: DEFAULT_PLACES at conversion).
  const places = new Map(data.currencies.filter((c) => typeof c.MaxDecimalPlaces === 'number').map((c) => [upper(c.Code), c.MaxDecimalPlaces as number]));
  const rates = new Map<string, Decimal>();
  for (const r of data.rates) {
    if (upper(r.SourceCurrencyCode) !== merchantCurrency) continue;
    const rate = parseDecimal(r.Rate);
    if (rate) rates.set(upper(r.TargetCurrencyCode), rate);
  }
  const countryCoefficients = new Map<string, CountryCoefficient>();
  const classCoefficients = new Map<string, CountryCoefficient>();
  for (const c of data.coefficients) {
    const country = upper(c.CountryCode);
    // null (as the service writes a country-level record) and '' are no class.
    if (typeof c.ProductClassCode === 'string' && c.ProductClassCode !== '') classCoefficients.set(`${country}|${c.ProductClassCode}`, c);
    else countryCoefficients.set(country, c);
  }
  const rules = new Map<string, RoundingRule>();
  for (const rule of data.rules) rules.set(`${upper(rule.CurrencyCode)}|${rule.CountryCode ? upper(rule.CountryCode) : ''}`, rule);
  return { merchantCurrency, countries, places, rates, countryCoefficients, classCoefficients, rules, loadedAt };
}
