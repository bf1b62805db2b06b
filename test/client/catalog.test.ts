/**
 * The catalogue operations against a recorded fake service: SaveProductsList and SaveProductsBulk
 * (docs.global-e.com saveproductslist.html, saveproductsbulk.html: the products as the body; the query
 * parameters as the service's PHP SDK sends them), split into batches, each batch's outcome reported;
 * GetCatalogPrices (international-prices.html, the method page's sample) split under the
 * product × country cap and merged.
 */
import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure, fixture, GUID } from './setup.js';

const PRODUCT = fixture('save-products-request')[0];
const products = (n: number) => Array.from({ length: n }, (_, i) => ({ ...PRODUCT, ProductCode: `SKU-${i}` }));
let svc: FakeService;
afterEach(() => svc.close());

describe('saveProductsBulk', () => {
  beforeEach(async () => { svc = await fakeService(() => ({ status: 200, body: { Success: true } })); });

  test('POST /Bulk/SaveProductsBulk?merchantGUID=…&inputDataCultureCode=…&originalCurrencyCode=… with the products as the body (the page\'s example product)', async () => {
    const { client } = clientFor(svc);
    const report = await client.saveProductsBulk([PRODUCT], { inputDataCultureCode: 'en-GB', originalCurrencyCode: 'GBP' });
    const r = svc.received[0];
    expect([r.method, r.path, Object.fromEntries(r.query), r.json]).toEqual(['POST', '/Bulk/SaveProductsBulk', { merchantGUID: GUID, inputDataCultureCode: 'en-GB', originalCurrencyCode: 'GBP' }, [PRODUCT]]);
    expect(report).toEqual({ saved: 1, failed: 0, batches: [{ index: 0, productCodes: ['1020872'], ok: true, answer: { Success: true } }] });
  });

  test('1 201 products with batchSize 500: three requests of 500, 500 and 201; a failed batch is reported and the others still sent', async () => {
    svc.answer((_r, nth) => (nth === 2 ? { status: 200, body: { Success: false, Message: 'Invalid product data' } } : { status: 200, body: { Success: true } }));
    const { client } = clientFor(svc);
    const report = await client.saveProductsBulk(products(1201), { batchSize: 500 });
    expect(svc.received.map((r) => r.json.length)).toEqual([500, 500, 201]);
    expect(svc.received[1].json[0].ProductCode).toBe('SKU-500');
    expect([report.saved, report.failed]).toEqual([701, 500]);
    expect(report.batches.map((b) => [b.index, b.ok, b.productCodes.length])).toEqual([[0, true, 500], [1, false, 500], [2, true, 201]]);
    const failed = report.batches[1];
    expect(failed.ok === false && failed.error).toMatchObject({ code: 'SERVICE_ERROR', description: 'Invalid product data' });
  });

  test('the default batch is 500; a bad list, product or option is INVALID_ARGUMENT and sends nothing', async () => {
    const { client } = clientFor(svc);
    await client.saveProductsBulk(products(501));
    expect(svc.received.map((r) => r.json.length)).toEqual([500, 1]);
    svc.received.length = 0;
    for (const bad of [client.saveProductsBulk([]), client.saveProductsBulk([{ Name: 'x' }]), client.saveProductsBulk([PRODUCT], { batchSize: 0 }),
      client.saveProductsBulk([PRODUCT], { currency: 'GBP' } as never)]) {
      expect(await failure(bad)).toMatchObject({ code: 'INVALID_ARGUMENT', operation: 'saveProductsBulk' });
    }
    expect(svc.count()).toBe(0);
  });
});

describe('saveProductsList', () => {
  const ANSWER = fixture('save-products-list-response');
  beforeEach(async () => { svc = await fakeService((r) => ({ status: 200, body: r.json.map((p: any) => ({ ...ANSWER[0], ProductCode: p.ProductCode })) })); });

  test('POST /Browsing/SaveProductsList with the SDK\'s query parameters and the products as the body; the ProductCountry records merged over batches', async () => {
    const { client } = clientFor(svc);
    const saved = await client.saveProductsList(products(3), { clientIP: '203.0.113.7', countryCode: 'DE', cultureCode: 'de-DE', priceCoefficientRate: 0.93, includeVAT: 6, batchSize: 2 });
    expect(svc.received.map((r) => [r.method, r.path, r.json.length])).toEqual([['POST', '/Browsing/SaveProductsList', 2], ['POST', '/Browsing/SaveProductsList', 1]]);
    expect(Object.fromEntries(svc.received[0].query)).toEqual({ merchantGUID: GUID, clientIP: '203.0.113.7', countryCode: 'DE', cultureCode: 'de-DE', priceCoefficientRate: '0.93', includeVAT: '6' });
    expect(saved.productCountries.map((p) => p.ProductCode)).toEqual(['SKU-0', 'SKU-1', 'SKU-2']);
    expect(saved.productCountries[0]).toMatchObject({ IsRestricted: true, RestrictionMessage: 'Import restricted' });
    expect(saved.productCountries[0]).not.toHaveProperty('ForbiddanceMessage');
    expect(saved.batches.map((b) => b.ok)).toEqual([true, true]);
  });

  test('a batch answered with the service\'s error is reported; the other batches\' records are kept', async () => {
    svc.answer((r, nth) => (nth === 1 ? { status: 200, body: { Code: 'A810', Error: 'Merchant not found' } } : { status: 200, body: r.json.map((p: any) => ({ ...ANSWER[0], ProductCode: p.ProductCode })) }));
    const { client } = clientFor(svc);
    const saved = await client.saveProductsList(products(2), { batchSize: 1 });
    expect(saved.batches.map((b) => (b.ok ? 'ok' : b.error.code))).toEqual(['A810', 'ok']);
    expect(saved.productCountries.map((p) => p.ProductCode)).toEqual(['SKU-1']);
  });
});

describe('getCatalogPrices', () => {
  const SAMPLE = fixture('catalog-prices-request');
  const priced = (r: any) => ({ Products: r.json.Products.map((p: any) => ({ ProductCode: p.ProductCode, Countries: r.json.Countries.map((c: any) => ({ CountryCode: c.CountryCode, Currency: { CurrencyCode: 'EUR', Price: 1 } })) })) });
  beforeEach(async () => { svc = await fakeService((r) => ({ status: 200, body: priced(r) })); });

  test('POST /Browsing/GetCatalogPrices with { Countries, Products } as the page\'s sample; the sample answer comes back typed', async () => {
    svc.answer(() => ({ status: 200, body: fixture('catalog-prices-response') }));
    const { client } = clientFor(svc);
    const prices = await client.getCatalogPrices({ products: SAMPLE.Products, countryCodes: ['FR', 'DE'] });
    expect([svc.received[0].method, svc.received[0].path, svc.received[0].json]).toEqual(['POST', '/Browsing/GetCatalogPrices', SAMPLE]);
    expect(prices.Products[0].Countries[1].Currency).toEqual({ CurrencyCode: 'EUR', Price: 141.95 });
  });

  test('12 001 products × 2 countries: three calls of at most 10 000 prices each (5 000, 5 000, 2 001 products), merged in order', async () => {
    const { client } = clientFor(svc);
    const many = Array.from({ length: 12_001 }, (_, i) => ({ ProductCode: `P${i}`, OriginalSalePrice: 10 }));
    const prices = await client.getCatalogPrices({ products: many, countryCodes: ['FR', 'de'] });
    expect(svc.received.map((r) => r.json.Products.length * r.json.Countries.length)).toEqual([10_000, 10_000, 4_002]);
    expect(svc.received[0].json.Countries).toEqual([{ CountryCode: 'FR' }, { CountryCode: 'DE' }]);
    expect(prices.Products.map((p) => p.ProductCode)).toEqual(many.map((p) => p.ProductCode));
  });

  test('the cap splits exactly at its boundary: 10 000 prices are one call, 10 001 two; 3 countries take 3 333 products a call', async () => {
    const { client } = clientFor(svc);
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ ProductCode: `P${i}`, OriginalSalePrice: 10 }));
    const sizes = async (n: number, countryCodes: string[]) => {
      const before = svc.count();
      const prices = await client.getCatalogPrices({ products: many(n), countryCodes });
      expect(prices.Products).toHaveLength(n);
      return svc.received.slice(before).map((r) => r.json.Products.length * r.json.Countries.length);
    };
    expect(await sizes(5_000, ['FR', 'DE'])).toEqual([10_000]);
    expect(await sizes(5_001, ['FR', 'DE'])).toEqual([10_000, 2]);
    expect(await sizes(3_333, ['FR', 'DE', 'IT'])).toEqual([9_999]);
    expect(await sizes(3_334, ['FR', 'DE', 'IT'])).toEqual([9_999, 3]);
    expect(await sizes(10_000, ['FR'])).toEqual([10_000]);
    expect(await sizes(10_001, ['FR'])).toEqual([10_000, 1]);
  });

  test('a failing call fails the whole (no partial catalogue); bad input is INVALID_ARGUMENT', async () => {
    svc.answer((r, nth) => (nth === 2 ? { status: 400, body: { Code: 'INVALID_REQUEST', Error: 'bad' } } : { status: 200, body: priced(r) }));
    const { client } = clientFor(svc);
    const many = Array.from({ length: 10_001 }, (_, i) => ({ ProductCode: `P${i}`, OriginalSalePrice: '1.5' }));
    expect(await failure(client.getCatalogPrices({ products: many, countryCodes: ['FR'] }))).toMatchObject({ code: 'INVALID_REQUEST' });
    svc.received.length = 0;
    for (const bad of [{ products: [], countryCodes: ['FR'] }, { products: many, countryCodes: [] }, { products: [{ ProductCode: 'x', OriginalSalePrice: -1 }], countryCodes: ['FR'] },
      { products: many, countryCodes: ['France'] }, { productCodes: ['x'], countryCodes: ['FR'] }]) {
      expect(await failure(client.getCatalogPrices(bad as never))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
    expect(svc.count()).toBe(0);
  });
});
