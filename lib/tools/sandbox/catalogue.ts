/**
 * The sandbox's browsing data, catalogue, tracking events and RMA updates (issue 50): the browsing
 * lists from the seed (seed-prices.ts), the products saved by SaveProductsList / SaveProductsBulk kept
 * per sandbox, GetCatalogPrices computed from the seed by the kit's own conversion (lib/prices), so a
 * merchant's `localPrice` over the sandbox's browsing data gives the same prices, GetTrackingEvents
 * with the documented 100-id and 10-a-minute limits, UpdateRMA answered as the cartridge expects.
 */
import type { CartProduct } from '../../payloads.js';
import { convert } from '../../prices/convert.js';
import { buildSnapshot, type Snapshot } from '../../prices/snapshot.js';
import type { LocalPrice, PriceStep } from '../../prices/types.js';
import { parseDecimal } from '../../shared/decimal.js';
import { isObject } from '../../shared/options.js';
import type { ExchangeKind } from './exchange-log.js';
import {
  SEED_APP_SETTINGS, SEED_COEFFICIENTS, SEED_COUNTRIES, SEED_CURRENCIES, SEED_MERCHANT_CURRENCY, SEED_MERCHANT_VAT_RATE, SEED_RATES, SEED_ROUNDING_RULES,
} from './seed-prices.js';

/** The sandbox's answer to a catalogue or browsing request: status, body, the exchange's kind and extra headers. */
export interface CatalogueReply { status: number; body: unknown; kind: ExchangeKind; headers?: Record<string, string> }

/** Product × country prices per GetCatalogPrices call. */
export const CATALOG_PRICES_CAP = 10_000;
const TRACKING_PER_MINUTE = 10;

/** The sandbox's catalogue and browsing look-ups (`Sandbox.catalogue`): the merchant's saved products and the seed's prices. */
export interface Catalogue {
  /**
   * Answers a catalogue or browsing path (undefined: not one of them). `merchant`: the caller's id, undefined when not
   * authenticated; `guidGiven`: whether the request names a MerchantGUID (the `merchantGUID` query parameter or the
   * `MerchantGUID` header, as the client's `merchantGuidIn` places it).
   */
  route(method: string, path: string, body: unknown, query: URLSearchParams, merchant: string | undefined, guidGiven?: boolean): CatalogueReply | undefined;
  /** The saved products of a merchant, by ProductCode. */
  products(merchant: string): ReadonlyMap<string, CartProduct>;
  /** A product's local price in every operated country of the seed, with each step (the console's preview). */
  preview(input: { price: string; productClassCode?: string; vatRate?: string; includesVat?: boolean }): PricePreview[];
}

/** A product's local price in one country (`Catalogue.preview`), or why it has none. */
export type PricePreview = { countryCode: string; ok: true; price: string; currencyCode: string; steps: PriceStep[] } | { countryCode: string; ok: false; error: string };

const snapshot: Snapshot = buildSnapshot(
  { countries: SEED_COUNTRIES, currencies: SEED_CURRENCIES, rates: SEED_RATES, coefficients: SEED_COEFFICIENTS, rules: SEED_ROUNDING_RULES },
  SEED_MERCHANT_CURRENCY, 0,
);
const MERCHANT_VAT = parseDecimal(SEED_MERCHANT_VAT_RATE)!;

function localPrice(price: unknown, countryCode: string, productClassCode: unknown, vatRate: unknown, includesVat: unknown): LocalPrice {
  const vat = vatRate === undefined || vatRate === null ? MERCHANT_VAT : parseDecimal(vatRate);
  return convert(snapshot, {
    price: price as string, countryCode, ...(typeof productClassCode === 'string' && productClassCode !== '' ? { productClassCode } : {}),
  }, { includesVat: includesVat !== false, ...(vat ? { vatRate: vat } : {}) }, false);
}

const bad = (kind: ExchangeKind, Description: string): CatalogueReply => ({ status: 400, kind, body: { Code: 'INVALID_REQUEST', Error: 'Invalid request', Description } });

/** The look-ups whose pages and integrations give every parameter in the query (LP-1, location pages): a body is another form. */
const QUERY_ONLY = /^\/Browsing\/(?:Countries|Currencies|CurrencyRates|CountryCoefficients|RoundingRules|LocationByIP|LocationDefaultCulture|RecentProductCountryS)$/;
/** The query parameter each look-up cannot do without (the client always sends it). */
const REQUIRED_QUERY: Record<string, string> = { '/Browsing/LocationByIP': 'IP', '/Browsing/LocationDefaultCulture': 'countryCode', '/Browsing/RecentProductCountryS': 'requestId' };
/** An absent body, or an empty JSON object (what a generic POST helper writes), is no body. */
const noBody = (body: unknown) => body === undefined || (isObject(body) && Object.keys(body).length === 0);

function browsing(name: string, query: URLSearchParams): unknown {
  const country = query.get('countryCode')?.toUpperCase();
  const currency = query.get('currencyCode')?.toUpperCase();
  switch (name) {
    case 'Countries': return SEED_COUNTRIES.filter((c) => !country || c.Code === country);
    case 'Currencies': return SEED_CURRENCIES;
    case 'CurrencyRates': return SEED_RATES;
    case 'CountryCoefficients': return SEED_COEFFICIENTS.filter((c) => !country || c.CountryCode === country);
    case 'RoundingRules': return SEED_ROUNDING_RULES.filter((r) => (!currency || r.CurrencyCode === currency) && (!country || !r.CountryCode || r.CountryCode === country));
    case 'AppSettings': return SEED_APP_SETTINGS;
    default: return undefined;
  }
}

function productsOf(kind: ExchangeKind, body: unknown): CartProduct[] | CatalogueReply {
  if (!Array.isArray(body) || body.length === 0) return bad(kind, 'The body must be a non-empty JSON array of products');
  const i = body.findIndex((p) => !isObject(p) || typeof p.ProductCode !== 'string' || p.ProductCode === '');
  if (i >= 0) return bad(kind, `Product ${i} has no ProductCode`);
  return body as CartProduct[];
}

export function createCatalogue(): Catalogue {
  const saved = new Map<string, Map<string, CartProduct>>();
  const trackingCalls = new Map<string, number[]>();
  const store = (merchant: string) => {
    let m = saved.get(merchant);
    if (!m) saved.set(merchant, m = new Map());
    return m;
  };

  const catalogPrices = (merchant: string, body: unknown): CatalogueReply => {
    const kind: ExchangeKind = 'getCatalogPrices';
    if (!isObject(body) || !Array.isArray(body.Countries) || !Array.isArray(body.Products)) return bad(kind, 'The body must be { Countries: [{ CountryCode }], Products: [...] }');
    const countries = body.Countries.map((c) => (isObject(c) && typeof c.CountryCode === 'string' ? c.CountryCode.toUpperCase() : ''));
    if (countries.includes('') || countries.length === 0) return bad(kind, 'Every country needs a CountryCode');
    if (countries.length * body.Products.length > CATALOG_PRICES_CAP) return bad(kind, `More than ${CATALOG_PRICES_CAP} product × country prices in one request`);
    const catalogue = store(merchant);
    const Products = [];
    for (const p of body.Products) {
      if (!isObject(p) || typeof p.ProductCode !== 'string' || parseDecimal(p.OriginalSalePrice) === undefined) return bad(kind, 'Every product needs a ProductCode and an OriginalSalePrice');
      // What the request leaves out, the saved catalogue gives (the product's class).
      const known = catalogue.get(p.ProductCode);
      const productClass = p.ProductClassCode ?? known?.ProductClassCode;
      const priced = [];
      for (const CountryCode of countries) {
        try {
          const local = localPrice(p.OriginalSalePrice, CountryCode, productClass, p.VATRate, p.IsPriceIncludeVAT);
          priced.push({ CountryCode, Currency: { CurrencyCode: local.currencyCode, Price: Number(local.price) } });
        } catch { /* a country the seed cannot price (unknown, not operated): left out, as the service leaves it */ }
      }
      Products.push({ ProductCode: p.ProductCode, Countries: priced });
    }
    return { status: 200, kind, body: { Products } };
  };

  const tracking = (merchant: string, body: unknown): CatalogueReply => {
    const kind: ExchangeKind = 'getTrackingEvents';
    const now = Date.now();
    const calls = (trackingCalls.get(merchant) ?? []).filter((t) => t > now - 60_000);
    if (calls.length >= TRACKING_PER_MINUTE) {
      trackingCalls.set(merchant, calls);
      return { status: 429, kind, headers: { 'retry-after': String(Math.ceil((calls[0] + 60_000 - now) / 1000)) }, body: { Code: 'TOO_MANY_REQUESTS', Error: 'Rate limit exceeded: 10 requests per minute' } };
    }
    trackingCalls.set(merchant, [...calls, now]);
    if (!isObject(body) || (body.Type !== 'inbound' && body.Type !== 'outbound')) return bad(kind, 'Type must be inbound or outbound');
    const orderIds = Array.isArray(body.OrderIds) ? body.OrderIds : [];
    const numbers = Array.isArray(body.TrackingNumbers) ? body.TrackingNumbers : [];
    if (orderIds.length > 100 || numbers.length > 100) return bad(kind, 'Up to 100 OrderIds and 100 TrackingNumbers per request');
    const type = body.Type;
    const known = (id: unknown): id is string => typeof id === 'string' && /^GE\d+/.test(id);
    const event = (id: string, byOrder: boolean) => ({
      ...(byOrder ? { GlobaleOrderID: id, TrackingNumber: `${id}-T1` } : { TrackingNumber: id, GlobaleOrderID: id.replace(/-T\d+$/, '') }),
      IsTrackingNumberActive: true, ShipperName: 'Sandbox Express', TrackingURL: `https://tracking.sandbox.invalid/${encodeURIComponent(id)}`, Type: type,
      TrackingEvents: [
        { EventTime: '2024-03-01T10:00:00Z', Status: type === 'inbound' ? 'ReturnedByShipper' : 'DispatchedToCustomer' },
        { EventTime: '2024-03-03T15:30:00Z', Status: 'Delivered' },
      ],
    });
    return {
      status: 200, kind, body: {
        IsSuccess: true,
        SuccessfulTrackingNumbers: [...orderIds.filter(known).map((id) => event(id, true)), ...numbers.filter(known).map((id) => event(id, false))],
        FailedTrackingNumbers: [...orderIds, ...numbers].filter((id) => !known(id)).map((id) => ({ Id: String(id), Error: 'Not found' })),
      },
    };
  };

  /** Loopback and private addresses are the merchant's own country (GB); any other address one of the seed's, by its last digits. */
  const location = (ip: string): CatalogueReply => {
    const operated = SEED_COUNTRIES.filter((c) => c.IsOperatedByGlobalE !== false);
    const digits = ip.replace(/\D/g, '');
    const country = /^(127\.|10\.|192\.168\.|::1$)/.test(ip) || digits === '' ? operated.find((c) => c.Code === 'GB')! : operated[Number(digits.slice(-3)) % operated.length];
    return { status: 200, kind: 'browsing', body: {
      Country: { Code: country.Code, Name: country.Name, DefaultCurrencyCode: country.DefaultCurrencyCode, DefaultCultureCode: 'en-GB' },
      Region: { Code: '', Name: '', CountryCode: '' }, City: { Code: '', Name: '' }, IPRange: null,
    } };
  };

  /** Flat rates: 15 in the requested currency below 100, free from 100 (the preview page's example), for the destination or every operated country. */
  const shippingDetails = (body: unknown): CatalogueReply => {
    if (!isObject(body) || typeof body.currencyCode !== 'string' || parseDecimal(body.amount) === undefined) return bad('browsing', 'currencyCode and amount are required');
    const currency = body.currencyCode.toUpperCase();
    const wanted = typeof body.destinationCountry === 'string' && body.destinationCountry !== '' ? body.destinationCountry.toUpperCase() : undefined;
    const iso3: Record<string, string> = { DEU: 'DE', USA: 'US', JPN: 'JP', AUS: 'AU', BHR: 'BH', GBR: 'GB' };
    const countries = SEED_COUNTRIES.filter((c) => c.IsOperatedByGlobalE !== false && (!wanted || c.Code === wanted || c.Code === iso3[wanted]));
    const rate = (min: number, max: number, cost: number) => ({ minOrderSubtotal: min, maxOrderSubtotal: max, shippingCost: cost, shippingCostCurrency: currency, shippingPriority: 'Express Courier (Air)', estimatedDeliveryDays: '1-3', specialOfferExpiryDate: null });
    return { status: 200, kind: 'browsing', body: countries.map((c) => ({ destinationCountry: wanted ?? c.Code, status: 'active', shippingRates: [rate(0, 100, 15), rate(100, 9999999, 0)] })) };
  };

  /** A country's default culture: the seed's languages, English elsewhere. */
  const culture = (countryCode: string): CatalogueReply => {
    const known: Record<string, [string, string, string]> = { DE: ['de-DE', 'German - Germany', 'Deutsch'], JP: ['ja-JP', 'Japanese - Japan', '日本語'], BH: ['ar-BH', 'Arabic - Bahrain', 'العربية'], US: ['en-US', 'English - United States', 'English'] };
    const [Code, Name, LocalizedName] = known[countryCode.toUpperCase()] ?? ['en-GB', 'English - United Kingdom', 'English'];
    return { status: 200, kind: 'browsing', body: { Code, Name, LocalizedName, IsRTL: Code.startsWith('ar-') } };
  };

  /** The saved products' restrictions: a product of class WOOD is restricted in AU (the docs' example); one page, then none. */
  const restrictions = (merchant: string, requestId: string | null): CatalogueReply => {
    if (requestId !== '0') return { status: 200, kind: 'browsing', body: { RecentProductCountries: [], RequestId: 0 } };
    const records = [...store(merchant).values()].filter((p) => p.ProductClassCode === 'WOOD').map((p) => ({
      ProductCode: p.ProductCode, CountryCode: 'AU', IsForbidden: false, IsRestricted: true, RestrictionMessage: 'Wooden products are regulated in Australia', IsVerified: true, UploadedViaCatalog: false,
    }));
    return { status: 200, kind: 'browsing', body: { RecentProductCountries: records, RequestId: records.length > 0 ? 1 : 0 } };
  };

  return {
    route(method, path, body, query, merchant, guidGiven = true) {
      const browse = /^\/Browsing\/(Countries|Currencies|CurrencyRates|CountryCoefficients|RoundingRules|AppSettings)$/.exec(path);
      const kind: ExchangeKind | undefined = browse ? 'browsing'
        : path === '/Browsing/SaveProductsList' || path === '/Bulk/SaveProductsBulk' ? 'saveProducts'
        : path === '/Browsing/GetCatalogPrices' ? 'getCatalogPrices'
        : path === '/Shipment/GetTrackingEvents' ? 'getTrackingEvents'
        : path === '/Return/UpdateRMA' ? 'updateRma'
        : path === '/ShippingDetails/GetShippingDetails' ? 'browsing'
        : path === '/Browsing/LocationByIP' || path === '/Browsing/RecentProductCountryS' || path === '/Browsing/LocationDefaultCulture' ? 'browsing' : undefined;
      if (!kind) return undefined;
      if (method !== 'POST') return { status: 405, kind, headers: { allow: 'POST' }, body: { Code: 'METHOD_NOT_ALLOWED', Message: `Use POST for ${path}` } };
      if (merchant === undefined) return { status: 401, kind, body: { Code: 'UNAUTHORIZED', Message: 'Unauthorized', Description: 'The merchant credential is missing or invalid.' } };
      // Every source sends the MerchantGUID with these operations (LP-1, LP-15, LP-17; the pages' URLs): without it, refused.
      if (!guidGiven) return bad(kind, 'The merchantGUID query parameter (or the MerchantGUID header) is required');
      if (QUERY_ONLY.test(path) && !noBody(body)) return bad(kind, `${path} takes its parameters in the query string, not in a body`);
      const needed = REQUIRED_QUERY[path];
      if (needed && !query.get(needed)) return bad(kind, `The ${needed} query parameter is required`);
      if (path === '/Browsing/RecentProductCountryS' && !/^\d+$/.test(query.get('requestId')!)) return bad(kind, 'requestId must be a whole number (0: from the start)');
      if (browse) return { status: 200, kind, body: browsing(browse[1], query) };
      if (path === '/Browsing/LocationByIP') return location(query.get('IP') ?? '');
      if (path === '/ShippingDetails/GetShippingDetails') return shippingDetails(body);
      if (path === '/Browsing/LocationDefaultCulture') return culture(query.get('countryCode') ?? '');
      if (path === '/Browsing/RecentProductCountryS') return restrictions(merchant, query.get('requestId'));
      if (kind === 'saveProducts') {
        const products = productsOf(kind, body);
        if (!Array.isArray(products)) return products;
        const catalogue = store(merchant);
        for (const p of products) catalogue.set(p.ProductCode as string, p);
        if (path === '/Bulk/SaveProductsBulk') return { status: 200, kind, body: { Success: true } };
        const country = query.get('countryCode')?.toUpperCase() ?? 'DE';
        return { status: 200, kind, body: products.map((p) => ({ ProductCode: p.ProductCode, CountryCode: country, IsForbidden: false, IsRestricted: false, IsVerified: true, TTL: 3600, UploadedViaCatalog: false })) };
      }
      if (kind === 'getCatalogPrices') return catalogPrices(merchant, body);
      if (kind === 'getTrackingEvents') return tracking(merchant, body);
      if (!isObject(body) || typeof body.OrderId !== 'string') return { status: 200, kind, body: { Success: false, Message: 'The RMA update needs an OrderId' } };
      return { status: 200, kind, body: { Success: true } };
    },
    products: (merchant) => store(merchant),
    preview({ price, productClassCode, vatRate, includesVat }) {
      return SEED_COUNTRIES.map((c): PricePreview => {
        try {
          const local = localPrice(price, c.Code, productClassCode, vatRate, includesVat);
          return { countryCode: c.Code, ok: true, price: local.price, currencyCode: local.currencyCode, steps: local.steps };
        } catch (err) {
          return { countryCode: c.Code, ok: false, error: (err as Error).message };
        }
      });
    },
  };
}
