/** The public types of local prices (docs/prices.md). */
import type { AppSettings, BrowsingCountry, BrowsingCurrency, CountryCoefficient, CurrencyRate, RoundingRule } from '../payloads.js';
import type { LoggerLike } from '../shared/logger.js';

/** What createLocalPrices reads from the service client (the client's browsing operations; a `ServiceClient` fits). */
export interface BrowsingSource {
  /** The countries with their default currency, VAT rate and whether the service operates them (GetCountries). */
  getCountries(): Promise<BrowsingCountry[]>;
  /** The currencies with their minor units (GetCurrencies). */
  getCurrencies(): Promise<BrowsingCurrency[]>;
  /** The rates from the merchant's currency (GetCurrencyRates). */
  getCurrencyRates(): Promise<CurrencyRate[]>;
  /** The price coefficients per country, and per product class (GetCountryCoefficients). */
  getCountryCoefficients(): Promise<CountryCoefficient[]>;
  /** The rounding rules per country and currency, with their ranges (GetRoundingRules). */
  getRoundingRules(): Promise<RoundingRule[]>;
  /** Optional: the merchant's app settings (the VAT behaviour), read when present. */
  getAppSettings?(): Promise<AppSettings>;
}

/** A decimal amount: decimal text ("19.99", the exact form) or a number (read as the decimal it prints as). */
export type DecimalInput = string | number;

/**
 * Options of {@link createLocalPrices}: the client to read the browsing data with, the schedule, the
 * merchant's currency and VAT settings, and a logger. Checked when the prices are built.
 */
export interface LocalPricesOptions {
  /** The service client (or anything with its browsing operations). */
  client: BrowsingSource;
  /** How often the browsing data is fetched again: milliseconds or a duration ('1h'); 0 = only on refresh(). Default 1 hour. */
  refreshMs?: number | string;
  /**
   * The merchant's currency (ISO 4217), the currency of the prices given to localPrice. Default: the
   * one SourceCurrencyCode of the service's currency rates (required when they name several).
   */
  merchantCurrency?: string;
  /**
   * The merchant's VAT rate in percent (20 for 20 %), for the VAT step (UK and EU merchants; a merchant
   * without one skips the step). Merchant configuration in the service's own integrations, never
   * browsing data. A call's `vatRate` wins.
   */
  merchantVatRate?: DecimalInput;
  /** Whether the prices given include the merchant's VAT (GetCatalogPrices' IsPriceIncludeVAT: default true). A call's `includesVat` wins. */
  pricesIncludeVat?: boolean;
  /** Where refresh failures are logged (warn); the kit's default stderr logger when absent. */
  logger?: LoggerLike;
}

/**
 * What {@link LocalPrices.localPrice} converts: a product's price in the merchant's currency, the
 * customer's country, and optionally the product class, its VAT rate, whether the price includes VAT,
 * and a fixed price for the country.
 */
export interface LocalPriceInput {
  /** The product's price in the merchant currency. */
  price: DecimalInput;
  /** The country the customer ships to (ISO 3166-1 alpha-2). */
  countryCode: string;
  /** The product's class: its class coefficient replaces the country's (CountryCoefficient.ProductClassCode). */
  productClassCode?: string;
  /** The product's merchant VAT rate in percent (GetCatalogPrices' VATRate); default merchantVatRate. */
  vatRate?: DecimalInput;
  /** Whether `price` includes the merchant's VAT; default pricesIncludeVat. */
  includesVat?: boolean;
  /**
   * The product's fixed price for this country, in the country's default currency: returned as is
   * (no VAT step, coefficient, rate or rounding) when the country SupportsFixedPrices.
   */
  fixedPrice?: DecimalInput;
}

/** One step of a conversion, for a preview: the value after it and what it did. */
export interface PriceStep {
  step: 'vat' | 'coefficient' | 'rate' | 'minor-unit' | 'rounding' | 'fixed';
  /** The price after the step, as decimal text. */
  value: string;
  detail: string;
}

/**
 * A local price (from {@link LocalPrices.localPrice}): decimal text in the country's default currency
 * with that currency's places, the steps that made it, and whether the data behind it is stale.
 */
export interface LocalPrice {
  /** The local price as decimal text with the currency's places ("12.99", "1230" for JPY). */
  price: string;
  /** The country's default currency. */
  currencyCode: string;
  countryCode: string;
  /** The fixed price was returned. */
  fixed: boolean;
  /** The steps in the order they ran. */
  steps: PriceStep[];
  /** The data is older than a failed refresh (health() says why). */
  stale: boolean;
}

/**
 * What {@link LocalPrices.health} says: whether the data is fresh (`ok`), kept after a failed refresh
 * (`stale`) or not loaded yet (`empty`), when it was loaded, the failures since, and what it holds.
 */
export interface LocalPricesHealth {
  /** ok: the last refresh succeeded; stale: it failed and the last good data is served; empty: no data yet. */
  status: 'ok' | 'stale' | 'empty';
  /** When the data served was fetched (ms since the epoch). */
  loadedAt?: number;
  /** Failed refreshes since the last good one. */
  failures: number;
  /** The last failure's code (a ServiceError code, or the error's name), when the last refresh failed. */
  lastError?: string;
  /** How many countries, currency rates and rounding rules the data holds. */
  countries: number;
  rates: number;
  roundingRules: number;
}

/**
 * Local prices from the service's browsing data, held in memory ({@link createLocalPrices}). Load once
 * with `refresh()` at start-up; then `localPrice` answers synchronously, and the data is refreshed on
 * the schedule.
 */
export interface LocalPrices {
  /** Fetches the browsing data now; resolves when it is loaded, rejects (keeping the last good data) when it could not be. */
  refresh(): Promise<void>;
  /** The local price of a product, from the data in memory (never waits on the network). */
  localPrice(input: LocalPriceInput): LocalPrice;
  /** Whether the data is fresh, stale or empty, and since when; for your readiness endpoint. Never throws. */
  health(): LocalPricesHealth;
  /** Stops the schedule (an idle process can exit either way: the timer is unref'd). */
  close(): void;
}
