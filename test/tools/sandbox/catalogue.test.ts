/**
 * The sandbox serves the browsing data, the catalogue, GetCatalogPrices, tracking events and UpdateRMA
 * (issue 50), and the client and local prices work against it: `localPrice` over the sandbox's browsing
 * data gives the sandbox's GetCatalogPrices for its seed, in every country and for every rule.
 */
import { createServiceClient, type ServiceClient } from 'crossborder-merchant-kit/client';
import { createLocalPrices, type LocalPrices } from 'crossborder-merchant-kit/prices';
import { createSandbox, type Sandbox } from '../../../lib/tools/sandbox/index.js';
import { captureLogger } from '../../helpers/recording.js';

const TOKEN = 'sandbox-catalogue-token';
const GUID = '6a3c1f52-0d7e-4b9a-8f21-5c4e9d0b7a13';
let sandbox: Sandbox;
let client: ServiceClient;
let prices: LocalPrices;

beforeAll(async () => {
  sandbox = createSandbox({ port: 0, accessToken: TOKEN, documentsDelayMs: 0 });
  const url = await sandbox.listen();
  // A generous time-out: the split GetCatalogPrices below prices 10 002 products × countries on a shared CI machine.
  client = createServiceClient({ baseUrl: url, merchantGuid: GUID, accessToken: TOKEN, logger: captureLogger(), timeoutMs: 60_000, retry: { retries: 0, minDelayMs: 1, maxDelayMs: 10 } });
  prices = createLocalPrices({ client, refreshMs: 0, merchantVatRate: 20 });
  await prices.refresh();
});
afterAll(async () => { prices.close(); await sandbox.close(); });

test('the browsing lists come from the seed, filters applied; every call is in the exchange log', async () => {
  expect((await client.getCountries()).map((c) => c.Code)).toEqual(['DE', 'US', 'JP', 'AU', 'BH', 'GB', 'KP']);
  expect(await client.getCountryCoefficients({ countryCode: 'DE' })).toHaveLength(2);
  expect((await client.getRoundingRules({ currencyCode: 'JPY', countryCode: 'JP' })).map((r) => r.RoundingRuleId)).toEqual([19, 28]);
  expect((await client.getAppSettings()).ClientSettings).toBeDefined();
  expect(sandbox.log.list().some((e: any) => e.kind === 'browsing' && e.request.url.startsWith('/Browsing/CountryCoefficients?'))).toBe(true);
  expect(prices.health()).toMatchObject({ status: 'ok', countries: 7, rates: 5, roundingRules: 4 });
});

test('localPrice equals the sandbox\'s GetCatalogPrices for its seed: every operated country, with and without a class, across the rules\' ranges', async () => {
  const amounts = ['0.01', '0.5', '0.78', '1', '9.99', '12.3', '19.99', '49.99', '99.5', '120', '250', '333.33', '1250', '99999.99'];
  const products = amounts.flatMap((a, i) => [
    { ProductCode: `P${i}`, OriginalSalePrice: a, VATRate: 20 },
    { ProductCode: `S${i}`, OriginalSalePrice: a, VATRate: 20, ProductClassCode: 'SHOES' },
  ]);
  const countryCodes = ['DE', 'US', 'JP', 'AU', 'BH', 'GB'];
  const answer = await client.getCatalogPrices({ products, countryCodes });
  let compared = 0;
  for (const [i, p] of answer.Products.entries()) {
    const input = products[i];
    expect(p.ProductCode).toBe(input.ProductCode);
    for (const c of p.Countries) {
      const local = prices.localPrice({ price: input.OriginalSalePrice, countryCode: c.CountryCode, ...(input.ProductClassCode ? { productClassCode: input.ProductClassCode } : {}) });
      expect([input.ProductCode, c.CountryCode, Number(local.price), local.currencyCode]).toEqual([input.ProductCode, c.CountryCode, Number(c.Currency.Price), c.Currency.CurrencyCode]);
      compared++;
    }
  }
  expect(compared).toBe(products.length * countryCodes.length);
});

test('saved products are kept: GetCatalogPrices takes a product\'s class from the catalogue when the request gives none', async () => {
  const saved = await client.saveProductsBulk([{ ProductCode: 'BOOT-1', Name: 'Boot', ProductClassCode: 'SHOES' }]);
  expect(saved).toMatchObject({ saved: 1, failed: 0 });
  expect(sandbox.catalogue.products('default').get('BOOT-1')).toMatchObject({ ProductClassCode: 'SHOES' });
  const listed = await client.saveProductsList([{ ProductCode: 'HAT-1', Name: 'Hat' }], { countryCode: 'DE' });
  expect(listed.productCountries).toEqual([expect.objectContaining({ ProductCode: 'HAT-1', CountryCode: 'DE', IsRestricted: false })]);
  const [boot] = (await client.getCatalogPrices({ products: [{ ProductCode: 'BOOT-1', OriginalSalePrice: '100' }], countryCodes: ['DE'] })).Products;
  expect(String(boot.Countries[0].Currency.Price)).toBe(prices.localPrice({ price: '100', countryCode: 'DE', productClassCode: 'SHOES' }).price.replace(/\.?0+$/, ''));
});

test('GetCatalogPrices refuses more than 10 000 prices in one request (the client splits under it)', async () => {
  const res = await fetch(`${sandbox.url}/Browsing/GetCatalogPrices?merchantGUID=${GUID}`, {
    method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ Countries: [{ CountryCode: 'DE' }, { CountryCode: 'US' }], Products: Array.from({ length: 5001 }, (_, i) => ({ ProductCode: `X${i}`, OriginalSalePrice: 1 })) }),
  });
  expect(res.status).toBe(400);
  const many = Array.from({ length: 5001 }, (_, i) => ({ ProductCode: `X${i}`, OriginalSalePrice: 1 }));
  expect((await client.getCatalogPrices({ products: many, countryCodes: ['DE', 'US'] })).Products).toHaveLength(5001);
}, 90_000);

test('tracking events: known ids tracked, unknown ones failed; the 11th request in a minute is 429 from the sandbox (a fresh client does not know the count)', async () => {
  const events = await client.getTrackingEvents({ type: 'outbound', orderIds: ['GE100000001SB', 'nope'] });
  expect(events.SuccessfulTrackingNumbers?.[0]).toMatchObject({ GlobaleOrderID: 'GE100000001SB', Type: 'outbound' });
  expect(events.FailedTrackingNumbers).toHaveLength(1);
  const other = createServiceClient({ baseUrl: sandbox.url!, merchantGuid: GUID, accessToken: TOKEN, logger: captureLogger(), retry: { retries: 0, minDelayMs: 1, maxDelayMs: 10 } });
  const results = [];
  for (let i = 0; i < 10; i++) results.push(await other.getTrackingEvents({ type: 'inbound', orderIds: ['GE1'] }).then(() => 'ok', (e) => e.status ?? e.code));
  expect(results.slice(0, 9)).toEqual(Array(9).fill('ok'));
  expect(results[9]).toBe(429);
});

test('UpdateRMA: Success true for an update with an OrderId', async () => {
  expect(await client.updateRma({ OrderId: 'GE100000001SB', RMANumber: 'RMA-1' })).toEqual({ Success: true });
});

test('the console\'s price preview: every seed country with each step, and why a country has no price', () => {
  const preview = sandbox.catalogue.preview({ price: '120', productClassCode: 'SHOES' });
  const de = preview.find((p) => p.countryCode === 'DE');
  expect(de).toMatchObject({ ok: true, currencyCode: 'EUR' });
  expect(de?.ok && de.steps.map((s) => s.step)).toEqual(['vat', 'coefficient', 'rate', 'minor-unit', 'rounding']);
  expect(preview.find((p) => p.countryCode === 'KP')).toMatchObject({ ok: false, error: expect.stringMatching(/does not operate KP/) });
});

test('the console API: GET /_console/api/prices/preview?price=…&productClassCode=… answers the preview; a bad price is 400', async () => {
  const ok = await fetch(`${sandbox.url}/_console/api/prices/preview?price=120&productClassCode=SHOES`);
  expect(ok.status).toBe(200);
  const rows = await ok.json();
  expect(rows).toEqual(sandbox.catalogue.preview({ price: '120', productClassCode: 'SHOES' }));
  expect(rows.find((r: any) => r.countryCode === 'DE')).toMatchObject({ ok: true, price: prices.localPrice({ price: '120', countryCode: 'DE', productClassCode: 'SHOES' }).price });
  for (const bad of ['-1', 'abc', '']) expect((await fetch(`${sandbox.url}/_console/api/prices/preview?price=${bad}`)).status).toBe(400);
});

test('LocationByIP: loopback is the merchant\'s own country; RecentProductCountryS: a saved WOOD product is restricted in AU, one page', async () => {
  expect((await client.getLocationByIp('127.0.0.1')).Country).toMatchObject({ Code: 'GB', DefaultCurrencyCode: 'GBP' });
  expect(await client.getDefaultCulture('DE')).toMatchObject({ Code: 'de-DE', IsRTL: false });
  expect(await client.getDefaultCulture('BH')).toMatchObject({ Code: 'ar-BH', IsRTL: true });
  expect((await client.getLocationByIp('203.0.113.7')).Country.Code).toBe((await client.getLocationByIp('203.0.113.7')).Country.Code);
  await client.saveProductsBulk([{ ProductCode: 'CHAIR-1', Name: 'Chair', ProductClassCode: 'WOOD' }]);
  const first = await client.getProductRestrictions(0);
  expect(first.productCountries).toEqual([expect.objectContaining({ ProductCode: 'CHAIR-1', CountryCode: 'AU', IsRestricted: true })]);
  expect(await client.getProductRestrictions(first.requestId)).toEqual({ productCountries: [], requestId: 0 });
});

test('GetShippingDetails: the flat rates of the seed for a destination (ISO-3 read), every operated country without one', async () => {
  const [us] = await client.getShippingDetails({ destinationCountry: 'USA', currencyCode: 'USD', amount: '50', productCodes: [] });
  expect(us).toMatchObject({ destinationCountry: 'USA', status: 'active' });
  expect(us.shippingRates?.map((r) => r.shippingCost)).toEqual([15, 0]);
  expect((await client.getShippingDetails({ currencyCode: 'EUR', amount: 10 })).map((d) => d.destinationCountry)).toEqual(['DE', 'US', 'JP', 'AU', 'BH', 'GB']);
});
