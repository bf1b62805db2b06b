/**
 * Local prices (`crossborder-merchant-kit/prices`, docs/prices.md): a product's price in the
 * customer's currency, computed in memory from the service's browsing data as the service's own
 * integrations do (the PHP SDK, the commerce-cloud cartridge). The data is fetched by refresh() and
 * then on a schedule; a failed refresh keeps the last good data (health() says so); localPrice never
 * waits on the network.
 *
 * @module crossborder-merchant-kit/prices
 */
import { parseDecimal } from '../shared/decimal.js';
import type { Decimal } from '../shared/decimal.js';
import { resolveLogger, type LoggerLike } from '../shared/logger.js';
import { checkKeys, fail, invalid, isPlainObject, parseDuration } from '../shared/options.js';
import { amountOf, convert } from './convert.js';
import { buildSnapshot } from './snapshot.js';
import type { Snapshot } from './snapshot.js';
import type { BrowsingSource, LocalPrices, LocalPricesHealth, LocalPricesOptions } from './types.js';

/** The default schedule: hourly (the service's own integrations fetch the browsing data in scheduled jobs). */
export const DEFAULT_REFRESH_MS = 3_600_000;
/** The longest delay setInterval takes (2^31 − 1 ms). */
const MAX_REFRESH_MS = 2_147_483_647;
const KNOWN = ['client', 'refreshMs', 'merchantCurrency', 'merchantVatRate', 'pricesIncludeVat', 'logger'] as const;
const METHODS = ['getCountries', 'getCurrencies', 'getCurrencyRates', 'getCountryCoefficients', 'getRoundingRules'] as const;

interface Resolved {
  client: BrowsingSource;
  refreshMs: number;
  merchantCurrency?: string;
  vatRate?: Decimal;
  includesVat: boolean;
  log: LoggerLike;
}

function resolve(options: unknown): Resolved {
  if (!isPlainObject(options)) return invalid('createLocalPrices needs an options object { client, refreshMs?, … }');
  checkKeys('', options, KNOWN);
  const client = options.client as BrowsingSource | undefined;
  if (client === undefined || client === null) return fail('ERR_CBK_OPTION_REQUIRED', 'Option client is required (a service client from crossborder-merchant-kit/client)');
  for (const m of METHODS) if (typeof (client as unknown as Record<string, unknown>)[m] !== 'function') invalid(`Option client has no ${m}() (give a service client from crossborder-merchant-kit/client)`);
  const refreshMs = parseDuration(options.refreshMs, 'refreshMs', DEFAULT_REFRESH_MS, { allowZero: true });
  // setInterval's longest delay; a shorter schedule than a second would hammer the service.
  if (refreshMs !== 0 && (refreshMs < 1000 || refreshMs > MAX_REFRESH_MS)) invalid(`Option refreshMs must be 0 (only on refresh()) or between 1 s and ${MAX_REFRESH_MS} ms (about 24 days)`);
  const currency = options.merchantCurrency;
  if (currency !== undefined && (typeof currency !== 'string' || !/^[A-Za-z]{3}$/.test(currency))) invalid('Option merchantCurrency must be an ISO 4217 code like "GBP"');
  let vatRate: Decimal | undefined;
  if (options.merchantVatRate !== undefined) {
    vatRate = parseDecimal(options.merchantVatRate);
    if (vatRate === undefined || vatRate.units < 0n) invalid('Option merchantVatRate must be a non-negative percentage (20 for 20 %)');
  }
  if (options.pricesIncludeVat !== undefined && typeof options.pricesIncludeVat !== 'boolean') invalid('Option pricesIncludeVat must be a boolean');
  return {
    client, refreshMs, includesVat: options.pricesIncludeVat !== false, log: resolveLogger(options.logger),
    ...(typeof currency === 'string' ? { merchantCurrency: currency.toUpperCase() } : {}), ...(vatRate ? { vatRate } : {}),
  };
}

const errorCode = (err: unknown): string => {
  const e = err as { code?: unknown; name?: unknown } | undefined;
  return typeof e?.code === 'string' ? e.code : typeof e?.name === 'string' ? e.name : 'Error';
};

/**
 * Local prices (`crossborder-merchant-kit/prices`): a product's price in the customer's currency, computed
 * in memory as the service's own integrations do — VAT (per the merchant's setting and the country), the
 * country coefficient (per product class when given), the currency rate, the currency's minor unit and
 * the rounding rule's ranges, in exact decimal arithmetic; a fixed price wins. The browsing data is
 * fetched by `refresh()` and then every `refreshMs` (default 1 hour); a failed refresh keeps the last good
 * data and says so in `health()`. The timer does not keep the process alive. See docs/prices.md.
 *
 * @param options - `client` (required: a ServiceClient or anything with its browsing operations),
 * `refreshMs`, `merchantCurrency`, `merchantVatRate`, `pricesIncludeVat`, `logger`.
 * @throws KitError `ERR_CBK_OPTION_REQUIRED` without `client`; `ERR_CBK_OPTION_INVALID` for a client
 * without the browsing operations, a `refreshMs` that is neither 0 nor between 1 s and about 24 days, a
 * currency that is not an ISO 4217 code, a negative VAT rate; `ERR_CBK_OPTION_UNKNOWN` for an unknown
 * key. `localPrice` throws `ERR_CBK_PRICES_NOT_LOADED` before the first successful refresh,
 * `ERR_CBK_PRICE_UNAVAILABLE` for a country it cannot price, `ERR_CBK_INVALID_ARGUMENT` for a bad input.
 */
export function createLocalPrices(options: LocalPricesOptions): LocalPrices {
  const o = resolve(options);
  let snapshot: Snapshot | undefined;
  let failures = 0;
  let lastError: string | undefined;
  let inflight: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const load = async (): Promise<void> => {
    try {
      const [countries, currencies, rates, coefficients, rules] = await Promise.all([
        o.client.getCountries(), o.client.getCurrencies(), o.client.getCurrencyRates(), o.client.getCountryCoefficients(), o.client.getRoundingRules(),
      ]);
      snapshot = buildSnapshot({ countries, currencies, rates, coefficients, rules }, o.merchantCurrency, Date.now());
      failures = 0;
      lastError = undefined;
    } catch (err) {
      failures++;
      lastError = errorCode(err);
      // The code only: a ServiceError's message is masked, but a custom client's may not be.
      o.log.warn({ code: lastError, failures, serving: snapshot ? 'the last good data' : 'nothing yet' }, 'local prices: refresh failed');
      throw err;
    }
  };

  const schedule = () => {
    if (closed || o.refreshMs === 0 || timer) return;
    timer = setInterval(() => { refresh().catch(() => undefined); }, o.refreshMs);
    timer.unref();
  };

  const refresh = (): Promise<void> => {
    // Callers at the same time share one fetch.
    inflight ??= load().finally(() => { inflight = undefined; });
    schedule();
    return inflight;
  };

  return {
    refresh,
    localPrice(input) {
      if (!isPlainObject(input)) return fail('ERR_CBK_INVALID_ARGUMENT', 'localPrice needs { price, countryCode, productClassCode?, vatRate?, includesVat?, fixedPrice? }');
      checkKeys('localPrice: ', input, ['price', 'countryCode', 'productClassCode', 'vatRate', 'includesVat', 'fixedPrice']);
      if (!snapshot) {
        return fail('ERR_CBK_PRICES_NOT_LOADED', `localPrice: no browsing data yet: await prices.refresh() once at start-up${lastError ? ` (the last refresh failed: ${lastError})` : ''}`);
      }
      if (input.vatRate !== undefined) amountOf(input.vatRate, 'vatRate');
      return convert(snapshot, input, { includesVat: o.includesVat, ...(o.vatRate ? { vatRate: o.vatRate } : {}) }, failures > 0);
    },
    health(): LocalPricesHealth {
      return {
        status: !snapshot ? 'empty' : failures > 0 ? 'stale' : 'ok', failures,
        ...(snapshot ? { loadedAt: snapshot.loadedAt } : {}), ...(lastError ? { lastError } : {}),
        countries: snapshot?.countries.size ?? 0, rates: snapshot?.rates.size ?? 0, roundingRules: snapshot?.rules.size ?? 0,
      };
    },
    close() {
      closed = true;
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}

export type { BrowsingSource, DecimalInput, LocalPrice, LocalPriceInput, LocalPrices, LocalPricesHealth, LocalPricesOptions, PriceStep } from './types.js';
