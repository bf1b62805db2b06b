/** Browsing data for the local-prices tests: the client fixtures, and a client answering with them (counting its calls). */
import { readFileSync } from 'node:fs';
import type { BrowsingSource } from 'crossborder-merchant-kit/prices';

export const browsing = (name: string): any =>
  JSON.parse(readFileSync(new URL(`../fixtures/service/browsing-${name}.json`, import.meta.url), 'utf8'));

export interface Data {
  countries: any[];
  currencies: any[];
  rates: any[];
  coefficients: any[];
  rules: any[];
}

export const fixtureData = (): Data => ({
  countries: browsing('countries'), currencies: browsing('currencies'), rates: browsing('currency-rates'),
  coefficients: browsing('country-coefficients'), rules: browsing('rounding-rules'),
});

/** A client serving `data` (a function: read at each call, so a test can change it or make it fail). */
export function fakeBrowsing(data: () => Data): BrowsingSource & { calls: number } {
  const source = {
    calls: 0,
    getCountries: async () => { source.calls++; return data().countries; },
    getCurrencies: async () => data().currencies,
    getCurrencyRates: async () => data().rates,
    getCountryCoefficients: async () => data().coefficients,
    getRoundingRules: async () => data().rules,
  };
  return source;
}

/** A UK merchant's data with one country, XX, whose currency is the merchant's (GBP): the docs' IncludeVATOptions example. */
export function ukExample(includeVat: number, extra: Partial<Record<string, unknown>> = {}): Data {
  return {
    countries: [{ Code: 'XX', Name: 'Example', DefaultCurrencyCode: 'GBP', IsOperatedByGlobalE: true, ...extra }],
    currencies: [{ Code: 'GBP', MaxDecimalPlaces: 2 }],
    rates: [{ SourceCurrencyCode: 'GBP', TargetCurrencyCode: 'EUR', Rate: 1.2 }],
    coefficients: [{ CountryCode: 'XX', Rate: 1, IncludeVAT: includeVat }],
    rules: [],
  };
}
