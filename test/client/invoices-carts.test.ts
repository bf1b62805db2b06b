/**
 * The commercial invoice download, SendCartV2, AppVersion, ProductCountryS and LocationsDefaultCulturesList (issue 50) against a
 * recorded fake service — the request line, headers and body each source shows, the documented
 * answers (the PHP SDK's stubs, the SendCartV2 page's example body) — and against the sandbox.
 * Sources: docs/compatibility.md LP-18 … LP-22.
 */
import diagnostics from 'node:diagnostics_channel';
import { createServiceClient, type ServiceClient } from 'crossborder-merchant-kit/client';
import { PRODUCT_COUNTRIES_PER_CALL } from '../../lib/client/product-countries.js';
import { createSandbox, SANDBOX_MERCHANT_GUID, type Sandbox } from '../../lib/tools/sandbox/index.js';
import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure, fixture, GUID, TOKEN } from './setup.js';

const PDF = '%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';

describe('against a recorded fake service', () => {
  let svc: FakeService;
  beforeEach(async () => { svc = await fakeService(() => ({ status: 200, body: {} })); });
  afterEach(() => svc.close());

  test('getOrdersVatInvoice: POST /Order/GetOrdersVATInvoice?merchantGUID=…&orderId=A&orderId=B (the SDK\'s form), no body; the PDF\'s bytes as received', async () => {
    svc.answer(() => ({ status: 200, body: PDF, headers: { 'content-type': 'application/pdf' } }));
    const { client } = clientFor(svc);
    const bytes = await client.getOrdersVatInvoice(['GE123874638GB', 'GE100/2']);
    expect(Buffer.from(bytes).toString('latin1')).toBe(PDF);
    const r = svc.received[0];
    expect([r.method, r.path, r.body]).toEqual(['POST', '/Order/GetOrdersVATInvoice', '']);
    expect([...r.query.entries()]).toEqual([['merchantGUID', GUID], ['orderId', 'GE123874638GB'], ['orderId', 'GE100/2']]);
    expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(r.headers.accept).toBe('application/pdf, application/json');
    expect(r.headers['content-type']).toBeUndefined();
  });

  test('getOrdersVatInvoice: the client channel publishes the PDF\'s size, not its bytes; an error answer\'s body as usual (masked)', async () => {
    const channel = diagnostics.tracingChannel('crossborder-merchant-kit:client');
    const results: unknown[] = [];
    const handlers = { start() {}, end() {}, asyncStart() {}, error() {}, asyncEnd: (m: unknown) => { results.push((m as { result?: unknown }).result); } };
    channel.subscribe(handlers);
    try {
      svc.answer(() => ({ status: 200, body: PDF, headers: { 'content-type': 'application/pdf' } }));
      const { client } = clientFor(svc);
      await client.getOrdersVatInvoice(['GE1']);
      svc.answer(() => ({ status: 400, body: { Code: 'B001', Error: `Order not found for ${GUID}` } }));
      await failure(client.getOrdersVatInvoice(['GE2']));
    } finally {
      channel.unsubscribe(handlers);
    }
    expect(results[0]).toMatchObject({ status: 200, body: `[${Buffer.byteLength(PDF)} bytes]` });
    expect(JSON.stringify(results)).not.toContain('%PDF');
    expect(JSON.stringify(results).toLowerCase()).not.toContain(GUID.toLowerCase());
  });

  test('getOrdersVatInvoice: an answer that is not a PDF is INVALID_RESPONSE; the service\'s { Code, Error } in a 2xx is its error; ids checked before sending', async () => {
    const { client } = clientFor(svc);
    svc.answer(() => ({ status: 200, body: '<html>maintenance</html>', headers: { 'content-type': 'text/html' } }));
    expect(await failure(client.getOrdersVatInvoice(['GE1']))).toMatchObject({ code: 'INVALID_RESPONSE', operation: 'getOrdersVatInvoice' });
    svc.answer(() => ({ status: 200, body: { Code: 'B001', Error: 'Order not found' } }));
    expect(await failure(client.getOrdersVatInvoice(['GE1']))).toMatchObject({ code: 'B001' });
    svc.answer(() => ({ status: 404, body: { Code: 'B001', Error: 'Order not found' } }));
    expect(await failure(client.getOrdersVatInvoice(['GE1']))).toMatchObject({ code: 'B001', status: 404 });
    const sent = svc.count();
    for (const bad of [[], [''], [1], Array.from({ length: 101 }, (_, i) => `GE${i}`)]) {
      expect(await failure(client.getOrdersVatInvoice(bad as string[]))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
    expect(svc.count()).toBe(sent);
  });

  test('sendCartV2: POST /Checkout/SendCartV2?merchantGUID=… with the page\'s example cart as the JSON body; the SDK\'s stub token', async () => {
    svc.answer(() => ({ status: 200, body: fixture('send-cart-response') }));
    const { client } = clientFor(svc);
    const cart = fixture('send-cart-request');
    expect(await client.sendCartV2(cart)).toEqual({ CartToken: 'a6723c30-f930-4768-9d23-9ce5c0a8d813' });
    const r = svc.received[0];
    expect([r.method, r.path, Object.fromEntries(r.query)]).toEqual(['POST', '/Checkout/SendCartV2', { merchantGUID: GUID }]);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.json).toEqual(cart);
  });

  test('sendCartV2: a cart without CountryCode or products is refused before sending; an answer without a CartToken is INVALID_RESPONSE', async () => {
    const { client } = clientFor(svc);
    for (const bad of [{ Products: [{ ProductCode: 'A' }] }, { CountryCode: 'AU', Products: [] }, { CountryCode: 'AU', Products: [{ Name: 'x' }] }, { CountryCode: 'AUS', Products: [{ ProductCode: 'A' }] }]) {
      expect(await failure(client.sendCartV2(bad as never))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
    expect(svc.count()).toBe(0);
    svc.answer(() => ({ status: 200, body: { Token: 'x' } }));
    expect(await failure(client.sendCartV2({ CountryCode: 'AU', Products: [{ ProductCode: 'A' }] }))).toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  test('getAppVersion: POST /Browsing/AppVersion?merchantGUID=… (the page\'s sample URL), no body; the SDK\'s stub typed', async () => {
    svc.answer(() => ({ status: 200, body: fixture('app-version') }));
    const { client } = clientFor(svc);
    expect(await client.getAppVersion()).toEqual({ WebClientVersion: '2.1.4', APIVersion: '3.7.1' });
    const r = svc.received[0];
    expect([r.method, r.path, Object.fromEntries(r.query), r.body]).toEqual(['POST', '/Browsing/AppVersion', { merchantGUID: GUID }, '']);
    svc.answer(() => ({ status: 200, body: { WebClientVersion: '2.1.4' } }));
    expect(await failure(client.getAppVersion())).toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  test('getProductCountries: countryCode, cultureCode and a repeated productCode in the query (the SDK\'s form); the SDK\'s stub records typed', async () => {
    svc.answer(() => ({ status: 200, body: fixture('product-countries') }));
    const { client } = clientFor(svc);
    const records = await client.getProductCountries({ productCodes: ['acj0006s', 'msj013'], countryCode: 'de', cultureCode: 'de-DE' });
    expect(records.map((r) => [r.ProductCode, r.CountryCode, r.IsRestricted, r.VATRateType?.Rate])).toEqual([['acj0006s', 'DE', false, 19], ['msj013', 'DE', false, 19]]);
    const r = svc.received[0];
    expect([r.method, r.path, r.body]).toEqual(['POST', '/Browsing/ProductCountryS', '']);
    expect([...r.query.entries()]).toEqual([['merchantGUID', GUID], ['countryCode', 'DE'], ['cultureCode', 'de-DE'], ['productCode', 'acj0006s'], ['productCode', 'msj013']]);
  });

  test('getDefaultCultures: POST /Browsing/LocationsDefaultCulturesList?merchantGUID=… (the cartridge\'s form), no body; the records its Cultures job reads, nulls as absent', async () => {
    svc.answer(() => ({ status: 200, body: fixture('location-default-cultures') }));
    const { client } = clientFor(svc);
    const cultures = await client.getDefaultCultures();
    const r = svc.received[0];
    expect([r.method, r.path, Object.fromEntries(r.query), r.body]).toEqual(['POST', '/Browsing/LocationsDefaultCulturesList', { merchantGUID: GUID }, '']);
    expect(cultures.map((c) => [c.CountryCode, c.Culture?.Code, c.Culture?.IsRTL])).toEqual([['DE', 'de-DE', false], ['IL', 'he-IL', true]]);
    expect(cultures[0]).not.toHaveProperty('RegionCode');
    svc.answer(() => ({ status: 200, body: [{ Culture: { Code: 'en-GB' } }] }));
    expect(await failure(client.getDefaultCultures())).toMatchObject({ code: 'INVALID_RESPONSE' });
    svc.answer(() => ({ status: 200, body: { Code: 'E1', Error: 'Merchant not found' } }));
    expect(await failure(client.getDefaultCultures())).toMatchObject({ code: 'E1' });
  });

  test(`getProductCountries: ${PRODUCT_COUNTRIES_PER_CALL} codes per call exactly — one more is a second call, the answers merged in order`, async () => {
    svc.answer((req) => ({ status: 200, body: req.query.getAll('productCode').map((ProductCode) => ({ ProductCode, CountryCode: 'DE', IsRestricted: false })) }));
    const { client } = clientFor(svc);
    const codes = (n: number) => Array.from({ length: n }, (_, i) => `SKU-${i}`);
    expect(await client.getProductCountries({ productCodes: codes(PRODUCT_COUNTRIES_PER_CALL), countryCode: 'DE' })).toHaveLength(PRODUCT_COUNTRIES_PER_CALL);
    expect(svc.count()).toBe(1);
    const merged = await client.getProductCountries({ productCodes: codes(PRODUCT_COUNTRIES_PER_CALL + 1), countryCode: 'DE' });
    expect(svc.received.slice(1).map((r) => r.query.getAll('productCode').length)).toEqual([PRODUCT_COUNTRIES_PER_CALL, 1]);
    expect(merged.map((m) => m.ProductCode)).toEqual(codes(PRODUCT_COUNTRIES_PER_CALL + 1));
    for (const bad of [{ productCodes: [], countryCode: 'DE' }, { productCodes: ['A'], countryCode: 'DEU' }, { productCodes: ['A'], countryCode: 'DE', cultureCode: 'x y' }]) {
      expect(await failure(client.getProductCountries(bad))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
  });
});

describe('against the sandbox', () => {
  let sandbox: Sandbox;
  let client: ServiceClient;
  beforeEach(async () => {
    sandbox = createSandbox({ port: 0, console: false, documentsDelayMs: 60_000 });
    client = createServiceClient({ baseUrl: await sandbox.listen(), merchantGuid: SANDBOX_MERCHANT_GUID, accessToken: 'any', retry: { retries: 0 } });
  });
  afterEach(() => sandbox.close());

  test('getOrdersVatInvoice: the seed orders\' invoice is a PDF naming them, the same bytes each time; an unknown order is the service\'s B001', async () => {
    const pdf = await client.getOrdersVatInvoice(['GE100000001SB', 'GE100000002SB']);
    const text = Buffer.from(pdf).toString('latin1');
    expect(text.startsWith('%PDF-')).toBe(true);
    expect(text).toContain('GE100000001SB GE100000002SB');
    expect(Buffer.from(await client.getOrdersVatInvoice(['GE100000001SB', 'GE100000002SB'])).equals(Buffer.from(pdf))).toBe(true);
    expect(await failure(client.getOrdersVatInvoice(['GE999']))).toMatchObject({ code: 'B001', status: 400 });
  });

  test('sendCartV2: the page\'s example cart gets a token; the same cart the same token; an update keeps its token', async () => {
    const cart = fixture('send-cart-request');
    const { CartToken } = await client.sendCartV2(cart);
    expect(CartToken).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect((await client.sendCartV2(cart)).CartToken).toBe(CartToken);
    expect((await client.sendCartV2({ ...cart, CartToken: 'kept-token' })).CartToken).toBe('kept-token');
  });

  test('getAppVersion and getProductCountries: the seed\'s answers (a saved class-WOOD product is restricted in AU)', async () => {
    expect(await client.getAppVersion()).toEqual({ WebClientVersion: '2.1.4', APIVersion: '3.7.1' });
    await client.saveProductsBulk([{ ProductCode: 'CHAIR-1', Name: 'Chair', ProductClassCode: 'WOOD' } as never]);
    const au = await client.getProductCountries({ productCodes: ['CHAIR-1', 'SOCK-1'], countryCode: 'AU' });
    expect(au.map((r) => [r.ProductCode, r.CountryCode, r.IsRestricted])).toEqual([['CHAIR-1', 'AU', true], ['SOCK-1', 'AU', false]]);
    const de = await client.getProductCountries({ productCodes: ['CHAIR-1'], countryCode: 'DE' });
    expect(de[0]).toMatchObject({ IsRestricted: false, VATRateType: { Rate: 19 } });
  });

  test('getDefaultCultures: every seed country with the culture getDefaultCulture gives it', async () => {
    const cultures = await client.getDefaultCultures();
    expect(cultures.length).toBeGreaterThan(3);
    for (const c of cultures) expect(c.Culture).toEqual(await client.getDefaultCulture(c.CountryCode));
    expect(cultures.find((c) => c.CountryCode === 'BH')?.Culture).toMatchObject({ Code: 'ar-BH', IsRTL: true });
  });
});
