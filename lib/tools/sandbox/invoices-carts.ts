/**
 * The sandbox's commercial invoice download, SendCartV2, AppVersion and ProductCountryS (issue 50),
 * each in the form its source shows and no other (docs/compatibility.md, "What the sandbox accepts"):
 * GetOrdersVATInvoice with repeated `orderId` query parameters and no body, answered with a small
 * deterministic PDF naming the orders; SendCartV2 with the cart as its JSON body (the V1 form, the
 * cart in the query or `/Checkout/SendCart`, is refused); AppVersion with no parameter; ProductCountryS
 * with `countryCode` and repeated `productCode` query parameters; LocationsDefaultCulturesList with no
 * parameter (the seed's countries, each with the culture LocationDefaultCulture gives it).
 */
import { createHash } from 'node:crypto';
import { isObject } from '../../shared/options.js';
import type { CatalogueReply } from './catalogue.js';
import type { ExchangeKind } from './exchange-log.js';
import { SEED_COUNTRIES } from './seed-prices.js';

/** What the routes need of the sandbox: whether an order is the merchant's, and the merchant's saved products' classes. */
export interface InvoicesCartsContext {
  /** Whether `orderId` is an order of `merchant`. */
  hasOrder(orderId: string, merchant: string): boolean;
  /** The product class a saved product has (SaveProductsList / SaveProductsBulk), if any. */
  productClass(merchant: string, productCode: string): string | undefined;
  /** A country's default culture as LocationDefaultCulture answers it (undefined: none). */
  cultureOf(countryCode: string): unknown;
}

/** The sandbox's AppVersion answer (the PHP SDK stub's shape). */
export const SANDBOX_APP_VERSION = { WebClientVersion: '2.1.4', APIVersion: '3.7.1' } as const;

const PATHS: Record<string, ExchangeKind> = {
  '/Order/GetOrdersVATInvoice': 'getOrdersVatInvoice',
  '/Checkout/SendCartV2': 'sendCart',
  '/Checkout/SendCart': 'sendCart',
  '/Browsing/AppVersion': 'browsing',
  '/Browsing/ProductCountryS': 'browsing',
  '/Browsing/LocationsDefaultCulturesList': 'browsing',
};

const bad = (kind: ExchangeKind, Description: string): CatalogueReply => ({ status: 400, kind, body: { Code: 'INVALID_REQUEST', Error: 'Invalid request', Description } });
const noBody = (body: unknown) => body === undefined || (isObject(body) && Object.keys(body).length === 0);

/** A small valid PDF whose first comment names the orders: the same orders give the same bytes. */
export function sandboxInvoicePdf(orderIds: readonly string[]): Buffer {
  const text = [
    '%PDF-1.4',
    `%Sandbox commercial invoice: ${orderIds.join(' ')}`,
    '1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj',
    '2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj',
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj',
    'trailer<</Root 1 0 R>>',
    '%%EOF',
    '',
  ].join('\n');
  return Buffer.from(text, 'latin1');
}

function invoice(ctx: InvoicesCartsContext, merchant: string, body: unknown, query: URLSearchParams): CatalogueReply & { raw?: Buffer } {
  const kind: ExchangeKind = 'getOrdersVatInvoice';
  if (!noBody(body)) return bad(kind, 'GetOrdersVATInvoice takes the order ids as orderId query parameters, not in a body');
  const ids = query.getAll('orderId').filter((id) => id !== '');
  if (ids.length === 0) return bad(kind, 'At least one orderId query parameter is required (orderId=A&orderId=B)');
  const unknown = ids.find((id) => !ctx.hasOrder(id, merchant));
  if (unknown) return { status: 400, kind, body: { Code: 'B001', Error: 'Order not found', Description: `The order id provided does not exist: ${unknown}` } };
  return { status: 200, kind, body: undefined, raw: sandboxInvoicePdf(ids), headers: { 'content-type': 'application/pdf' } };
}

function sendCart(path: string, body: unknown, query: URLSearchParams): CatalogueReply {
  const kind: ExchangeKind = 'sendCart';
  if (path === '/Checkout/SendCart') return bad(kind, 'The sandbox serves SendCartV2 (the cart as the JSON body); SendCart V1, the cart in the query string, is not served');
  const inQuery = [...query.keys()].filter((k) => k !== 'merchantGUID');
  if (inQuery.length > 0) return bad(kind, `SendCartV2 takes the cart as its JSON body; query parameters other than merchantGUID (${inQuery.join(', ')}) are the V1 form`);
  if (!isObject(body)) return bad(kind, 'The body must be the cart (SendCartData) as a JSON object');
  if (typeof body.CountryCode !== 'string' || !/^[A-Za-z]{2}$/.test(body.CountryCode)) return bad(kind, 'CountryCode (2-char ISO) is required');
  if (!Array.isArray(body.Products) || body.Products.length === 0 || body.Products.some((p) => !isObject(p) || typeof p.ProductCode !== 'string' || p.ProductCode === '')) {
    return bad(kind, 'Products must be a non-empty list, each with a ProductCode');
  }
  // An update keeps its token; a new cart's token is derived from its content (the same cart, the same token).
  if (typeof body.CartToken === 'string' && body.CartToken !== '') return { status: 200, kind, body: { CartToken: body.CartToken } };
  const h = createHash('sha256').update(JSON.stringify(body)).digest('hex');
  return { status: 200, kind, body: { CartToken: `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}` } };
}

/** Every product unrestricted at the country's default VAT, except saved class-WOOD products in AU (as RecentProductCountryS says). */
function productCountries(ctx: InvoicesCartsContext, merchant: string, body: unknown, query: URLSearchParams): CatalogueReply {
  const kind: ExchangeKind = 'browsing';
  if (!noBody(body)) return bad(kind, 'ProductCountryS takes countryCode and productCode query parameters, not a body');
  const country = query.get('countryCode')?.toUpperCase() ?? '';
  if (!/^[A-Z]{2}$/.test(country)) return bad(kind, 'The countryCode query parameter is required');
  const codes = query.getAll('productCode').filter((c) => c !== '');
  if (codes.length === 0) return bad(kind, 'At least one productCode query parameter is required (productCode=A&productCode=B)');
  const seeded = SEED_COUNTRIES.find((c) => c.Code === country);
  return {
    status: 200, kind, body: codes.map((ProductCode) => {
      const restricted = country === 'AU' && ctx.productClass(merchant, ProductCode) === 'WOOD';
      return {
        ProductCode, CountryCode: country, IsForbidden: false, ForbiddanceMessage: '', IsRestricted: restricted,
        RestrictionMessage: restricted ? 'Wooden products are regulated in Australia' : '', IsVerified: true, TTL: 86400, UploadedViaCatalog: false,
        VATRateType: seeded?.DefaultVATRateType ?? null,
      };
    }),
  };
}

/**
 * Answers one of the paths above (undefined: not one of them). `merchant`: the caller's id (undefined: not
 * authenticated); `guidGiven`: whether the request names a MerchantGUID (query parameter or header).
 */
export function routeInvoicesCarts(
  ctx: InvoicesCartsContext, method: string, path: string, body: unknown, query: URLSearchParams, merchant: string | undefined, guidGiven: boolean,
): (CatalogueReply & { raw?: Buffer }) | undefined {
  const kind = PATHS[path];
  if (!kind) return undefined;
  if (method !== 'POST') return { status: 405, kind, headers: { allow: 'POST' }, body: { Code: 'METHOD_NOT_ALLOWED', Message: `Use POST for ${path}` } };
  if (merchant === undefined) return { status: 401, kind, body: { Code: 'UNAUTHORIZED', Message: 'Unauthorized', Description: 'The merchant credential is missing or invalid.' } };
  if (!guidGiven) return bad(kind, 'The merchantGUID query parameter (or the MerchantGUID header) is required');
  switch (path) {
    case '/Order/GetOrdersVATInvoice': return invoice(ctx, merchant, body, query);
    case '/Browsing/AppVersion': return noBody(body) ? { status: 200, kind, body: SANDBOX_APP_VERSION } : bad(kind, 'AppVersion takes no body');
    case '/Browsing/ProductCountryS': return productCountries(ctx, merchant, body, query);
    case '/Browsing/LocationsDefaultCulturesList':
      return noBody(body)
        ? { status: 200, kind, body: SEED_COUNTRIES.map((c) => ({ CountryCode: c.Code, RegionCode: null, CityCode: null, Culture: ctx.cultureOf(c.Code) ?? null })) }
        : bad(kind, 'LocationsDefaultCulturesList takes no body');
    default: return sendCart(path, body, query);
  }
}
