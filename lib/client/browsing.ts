/**
 * The browsing data operations of the client, gathered (one file per operation beside this one):
 * what a shop needs to show local prices (docs/prices.md) and what the service's own integrations
 * fetch on a schedule (the cartridge's jobs/settings.js, the PHP SDK's Processors).
 */
import type { AppSettings, BrowsingCountry, BrowsingCurrency, CountryCoefficient, CurrencyRate, RoundingRule } from '../payloads.js';
import { getAppSettings, type WebStoreCodes } from './app-settings.js';
import { getCountries, type CountriesFilter } from './countries.js';
import { getCountryCoefficients, type CountryCoefficientsFilter } from './country-coefficients.js';
import { getCurrencies } from './currencies.js';
import { getCurrencyRates } from './currency-rates.js';
import type { ResolvedClientOptions } from './options.js';
import { getRoundingRules, type RoundingRulesFilter } from './rounding-rules.js';
import type { Culture, IpLocation, ShippingDetails, ShippingDetailsRequest } from '../payloads.js';
import { getShippingDetails } from './shipping-details.js';
import { getDefaultCulture } from './default-culture.js';
import { getLocationByIp } from './location-by-ip.js';
import { getProductRestrictions, type ProductRestrictionsPage } from './recent-product-countries.js';

/**
 * The client's browsing operations (part of {@link ServiceClient}): the service's reference data a shop
 * shows prices and restrictions with — app settings, countries, currencies, rates, country coefficients,
 * rounding rules, location and culture look-ups, product restrictions, shipping details. Typed answers,
 * validated against their schemas (INVALID_RESPONSE otherwise). `createLocalPrices` reads them.
 */
export interface BrowsingApi {
  /** POST {baseUrl}/Browsing/AppSettings (body: the web store's codes, when given). */
  getAppSettings(webStore?: WebStoreCodes): Promise<AppSettings>;
  /** POST {baseUrl}/Browsing/Countries[?countryCode=…&cultureCode=…]. */
  getCountries(filter?: CountriesFilter): Promise<BrowsingCountry[]>;
  /** POST {baseUrl}/Browsing/Currencies. */
  getCurrencies(): Promise<BrowsingCurrency[]>;
  /** POST {baseUrl}/Browsing/CurrencyRates. */
  getCurrencyRates(): Promise<CurrencyRate[]>;
  /** POST {baseUrl}/Browsing/CountryCoefficients[?countryCode=…]. */
  getCountryCoefficients(filter?: CountryCoefficientsFilter): Promise<CountryCoefficient[]>;
  /** POST {baseUrl}/Browsing/RoundingRules[?countryCode=…&currencyCode=…]. */
  getRoundingRules(filter?: RoundingRulesFilter): Promise<RoundingRule[]>;
  /** POST {baseUrl}/Browsing/LocationByIP?IP=…&useIpv6=true. */
  getLocationByIp(ip: string): Promise<IpLocation>;
  /** POST {baseUrl}/Browsing/RecentProductCountryS?requestId=…: the product restrictions changed since requestId. */
  getProductRestrictions(requestId?: number): Promise<ProductRestrictionsPage>;
  /** POST {baseUrl}/Browsing/LocationDefaultCulture?countryCode=…: the country's default culture. */
  getDefaultCulture(countryCode: string): Promise<Culture>;
  /** POST {baseUrl}/ShippingDetails/GetShippingDetails: the cheapest rate and the free-shipping range for an amount, per destination. */
  getShippingDetails(request: ShippingDetailsRequest): Promise<ShippingDetails[]>;
}

export function browsingApi(o: ResolvedClientOptions): BrowsingApi {
  return {
    getAppSettings: async (webStore) => getAppSettings(o, webStore),
    getCountries: async (filter) => getCountries(o, filter),
    getCurrencies: () => getCurrencies(o),
    getCurrencyRates: () => getCurrencyRates(o),
    getCountryCoefficients: async (filter) => getCountryCoefficients(o, filter),
    getRoundingRules: async (filter) => getRoundingRules(o, filter),
    getLocationByIp: async (ip) => getLocationByIp(o, ip),
    getProductRestrictions: async (requestId) => getProductRestrictions(o, requestId),
    getDefaultCulture: async (countryCode) => getDefaultCulture(o, countryCode),
    getShippingDetails: async (request) => getShippingDetails(o, request),
  };
}

export type { WebStoreCodes, CountriesFilter, CountryCoefficientsFilter, RoundingRulesFilter, ProductRestrictionsPage };
