/**
 * The sandbox accepts only the documented forms (issue 46 item 7) for the commercial invoice,
 * SendCartV2, AppVersion, ProductCountryS and LocationsDefaultCulturesList (issue 50): the form each source shows and the kit's
 * client are accepted; another form is refused with INVALID_REQUEST. Sources: docs/compatibility.md
 * LP-18 … LP-22 and "What the sandbox accepts".
 */
import { readFileSync } from 'node:fs';
import { SANDBOX_MERCHANT_GUID } from '../../../lib/tools/sandbox/index.js';
import { sandboxWithClient } from '../../helpers/sandbox-client.js';

const sendCartExample = JSON.parse(readFileSync(new URL('../../fixtures/service/send-cart-request.json', import.meta.url), 'utf8'));

const sb = sandboxWithClient();

/** A raw request: `query` as written (repeated names allowed), the merchantGUID first unless `guid` is false. */
async function raw(method: string, path: string, query: Array<[string, string]> = [], body?: unknown, guid = true): Promise<{ status: number; type: string; bytes: Buffer; json?: any }> {
  const q = new URLSearchParams([...(guid ? [['merchantGUID', SANDBOX_MERCHANT_GUID]] : []), ...query]);
  const res = await fetch(`${sb.url}${path}?${q}`, {
    method, headers: { authorization: 'Bearer any', ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, type, bytes, ...(type.startsWith('application/json') && bytes.length > 0 ? { json: JSON.parse(bytes.toString('utf8')) } : {}) };
}
const refused = { status: 400, json: { Code: 'INVALID_REQUEST' } };

test('GetOrdersVATInvoice: the SDK\'s form (POST, repeated orderId, no body) and the client get the PDF; a body, no orderId, no merchantGUID or GET are refused', async () => {
  const sdk = await raw('POST', '/Order/GetOrdersVATInvoice', [['orderId', 'GE100000001SB'], ['orderId', 'GE100000002SB']]);
  expect(sdk.status).toBe(200);
  expect(sdk.type).toBe('application/pdf');
  expect(sdk.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(Buffer.from(await sb.client.getOrdersVatInvoice(['GE100000001SB', 'GE100000002SB'])).equals(sdk.bytes)).toBe(true);
  expect(await raw('POST', '/Order/GetOrdersVATInvoice', [], { orderId: ['GE100000001SB'] })).toMatchObject(refused);
  expect(await raw('POST', '/Order/GetOrdersVATInvoice', [['orderIds', 'GE100000001SB']])).toMatchObject(refused);
  expect(await raw('POST', '/Order/GetOrdersVATInvoice', [['orderId', 'GE100000001SB']], undefined, false)).toMatchObject(refused);
  expect((await raw('GET', '/Order/GetOrdersVATInvoice', [['orderId', 'GE100000001SB']])).status).toBe(405);
});

test('SendCartV2: the page\'s example body and the client are accepted; the V1 form (the cart in the query, or /Checkout/SendCart) and a cart without products are refused', async () => {
  const page = await raw('POST', '/Checkout/SendCartV2', [], sendCartExample);
  expect(page).toMatchObject({ status: 200, json: { CartToken: expect.any(String) } });
  expect((await sb.client.sendCartV2(sendCartExample)).CartToken).toBe(page.json.CartToken);
  expect(await raw('POST', '/Checkout/SendCartV2', [['cartInfo', JSON.stringify(sendCartExample)]])).toMatchObject(refused);
  expect(await raw('POST', '/Checkout/SendCartV2', [['countryCode', 'AU']], sendCartExample)).toMatchObject(refused);
  expect(await raw('POST', '/Checkout/SendCart', [], sendCartExample)).toMatchObject(refused);
  expect(await raw('POST', '/Checkout/SendCartV2', [], { ...sendCartExample, Products: [] })).toMatchObject(refused);
  expect(await raw('POST', '/Checkout/SendCartV2', [], sendCartExample, false)).toMatchObject(refused);
});

test('AppVersion: the page\'s sample URL (POST, merchantGUID, nothing else) and the client are accepted; a body is refused', async () => {
  expect(await raw('POST', '/Browsing/AppVersion')).toMatchObject({ status: 200, json: { APIVersion: '3.7.1', WebClientVersion: '2.1.4' } });
  expect(await sb.client.getAppVersion()).toEqual({ APIVersion: '3.7.1', WebClientVersion: '2.1.4' });
  expect(await raw('POST', '/Browsing/AppVersion', [], { WebStoreCode: 'default' })).toMatchObject(refused);
});

test('ProductCountryS: the SDK\'s form (countryCode, cultureCode, repeated productCode) and the client are accepted; a body or a missing parameter is refused', async () => {
  const sdk = await raw('POST', '/Browsing/ProductCountryS', [['countryCode', 'DE'], ['cultureCode', 'de-DE'], ['productCode', 'A'], ['productCode', 'B']]);
  expect(sdk).toMatchObject({ status: 200 });
  expect(sdk.json.map((r: any) => [r.ProductCode, r.CountryCode])).toEqual([['A', 'DE'], ['B', 'DE']]);
  expect((await sb.client.getProductCountries({ productCodes: ['A', 'B'], countryCode: 'DE', cultureCode: 'de-DE' })).map((r) => r.ProductCode)).toEqual(['A', 'B']);
  expect(await raw('POST', '/Browsing/ProductCountryS', [['countryCode', 'DE']], { productCodes: ['A'] })).toMatchObject(refused);
  expect(await raw('POST', '/Browsing/ProductCountryS', [['productCode', 'A']])).toMatchObject(refused);
  expect(await raw('POST', '/Browsing/ProductCountryS', [['countryCode', 'DE']])).toMatchObject(refused);
});

test('LocationsDefaultCulturesList: the cartridge\'s form (POST, merchantGUID, no body) and the client are accepted; a body, no merchantGUID or GET are refused', async () => {
  const cartridge = await raw('POST', '/Browsing/LocationsDefaultCulturesList');
  expect(cartridge.status).toBe(200);
  expect(cartridge.json.find((c: any) => c.CountryCode === 'DE')).toMatchObject({ Culture: { Code: 'de-DE' } });
  expect((await sb.client.getDefaultCultures()).map((c) => c.CountryCode)).toEqual(cartridge.json.map((c: any) => c.CountryCode));
  expect(await raw('POST', '/Browsing/LocationsDefaultCulturesList', [], { countryCode: 'DE' })).toMatchObject(refused);
  expect(await raw('POST', '/Browsing/LocationsDefaultCulturesList', [], undefined, false)).toMatchObject(refused);
  expect((await raw('GET', '/Browsing/LocationsDefaultCulturesList')).status).toBe(405);
});
