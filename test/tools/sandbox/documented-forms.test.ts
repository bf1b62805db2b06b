/**
 * A sandbox that cannot agree with a mistake (issue 46, item 7): for the operations it serves, a
 * request recorded from the service's sources (the fixtures of rounds 2–4) and the kit's client are
 * both accepted, and a form no source shows is refused with the error the service documents for it.
 * The accepted form of each operation and its source: docs/compatibility.md, "What the sandbox accepts".
 */
import { readFileSync } from 'node:fs';
import { createServiceClient } from 'crossborder-merchant-kit/client';
import { SANDBOX_MERCHANT_GUID } from '../../../lib/tools/sandbox/index.js';
import { sandboxWithClient } from '../../helpers/sandbox-client.js';

const fixture = (path: string): any => JSON.parse(readFileSync(new URL(`../../fixtures/${path}`, import.meta.url), 'utf8'));

const sb = sandboxWithClient();

/** A raw request as the source shows it (the query's merchantGUID added as every integration sends it). */
async function raw(method: string, path: string, body?: unknown, query: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const q = new URLSearchParams({ merchantGUID: SANDBOX_MERCHANT_GUID, ...query });
  const res = await fetch(`${sb.url}${path}?${q}`, {
    method, headers: { 'content-type': 'application/json', authorization: 'Bearer any' }, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
const sku = (orderId: string, i = 0) => sb.sandbox.orders.get(orderId)!.lines[i].sku;

test('UpdateOrderStatus: the page\'s orderStatus query parameter (round 3) and the client are accepted; neither query nor body is refused', async () => {
  const recorded = fixture('real-world-3/gedocs-updateorderstatus-m2ge-request.json')._request;
  const status = { ...JSON.parse(recorded.query.orderStatus), OrderId: 'GE100000001SB' };
  expect(await raw('POST', recorded.path, undefined, { orderStatus: JSON.stringify(status) })).toMatchObject({ status: 200, body: { Success: true } });
  expect(sb.sandbox.orders.get('GE100000001SB')!.cancelled).toBe(true);
  await sb.client.updateOrderStatus({ OrderId: 'GE100000002SB', StatusCode: 'processing' });
  expect(await raw('POST', recorded.path, undefined)).toMatchObject({ status: 400, body: { Success: false } });
  expect(await raw('POST', recorded.path, undefined, { orderStatus: 'OrderId=GE100000003SB' })).toMatchObject({ status: 400, body: { Success: false } });
});

test('CreateAdditionalRequiredDocuments: the page\'s body (round 3) and the client are accepted; another shape is INVALID_REQUEST', async () => {
  const body = fixture('real-world-3/gedocs-createadditionalrequireddocuments-request.json');
  body.Orders[0].OrderId = 'GE100000001SB';
  expect(await raw('POST', '/additional-required-documents', body)).toMatchObject({ status: 200, body: { Success: true } });
  await sb.client.requestAdditionalRequiredDocuments([{ OrderId: 'GE100000002SB', TrackingNumbers: ['T-1'] }]);
  for (const wrong of [{ OrderId: 'GE100000001SB', TrackingNumbers: ['x'] }, { Orders: [{ OrderId: 'GE100000001SB', TrackingNumber: 'x' }] }, { Orders: [] }]) {
    expect(await raw('POST', '/additional-required-documents', wrong)).toMatchObject({ status: 400, body: { Code: 'INVALID_REQUEST' } });
  }
});

test('UpdateOrderDispatchV2: the pages\' use case (round 3) and a real integration\'s body (round 2) are accepted, the client too; no parcels nor exceptions is refused', async () => {
  const useCase = fixture('real-world-3/gedocs-updateorderdispatch-usecase-single-parcel.json');
  const first = { ...useCase, OrderId: 'GE100000001SB', Parcels: [{ ...useCase.Parcels[0], Products: [{ ProductCode: sku('GE100000001SB'), DeliveryQuantity: 1 }] }] };
  expect(await raw('POST', '/Order/UpdateOrderDispatchV2', first)).toMatchObject({ status: 200, body: { Success: true } });
  const real = fixture('real-world-2/nodeazure-UpdateOrderDispatchV2-request-1.json');
  const second = { ...real, OrderId: 'GE100000002SB', Parcels: [{ ...real.Parcels[0], Products: [{ ProductCode: sku('GE100000002SB'), DeliveryQuantity: 1 }] }] };
  expect(await raw('POST', '/Order/UpdateOrderDispatchV2', second)).toMatchObject({ status: 200, body: { Success: true } });
  await sb.client.updateOrderDispatchV2({ OrderId: 'GE100000003SB', Parcels: [{ ParcelCode: 'C-1', Products: [{ ProductCode: sku('GE100000003SB'), DeliveryQuantity: 1 }] }] });
  expect(await raw('POST', '/Order/UpdateOrderDispatchV2', { OrderId: 'GE100000004SB', IsCompleted: true })).toMatchObject({ body: { Success: false, Reason: 'Either Parcels or Exceptions must be specified' } });
});

test('ActiveHubDetails: the page\'s request (round 3: POST, merchantGUID in the query, no body) and the client are accepted; GET is 405', async () => {
  const recorded = fixture('real-world-3/gedocs-activehubdetails-request.json')._request;
  expect(await raw(recorded.method, recorded.path)).toMatchObject({ status: 200, body: { HubId: 2 } });
  expect(await sb.client.getActiveHubDetails()).toMatchObject({ HubId: 2 });
  expect((await raw('GET', recorded.path)).status).toBe(405);
});

test('GetShippingDocuments: the usage-1 request (round 4) and the client are accepted; parcels that are not a list are A100', async () => {
  const usage1 = fixture('real-world-4/gedocs-getshippingdocuments-usage1.json');
  await sb.client.getShippingDocuments({ OrderId: 'GE100000001SB', Parcels: [{ ParcelCode: 'P-1', Products: [{ ProductCode: sku('GE100000001SB'), DeliveryQuantity: 1 }] }] });
  expect(await raw('POST', usage1._request.path, { ...usage1.body, OrderId: 'GE100000001SB' })).toMatchObject({ status: 200, body: { IsSuccess: true } });
  for (const wrong of [{ OrderId: 'GE100000001SB', Parcels: 'P-1' }, { OrderId: 'GE100000001SB', Exceptions: {} }, { Parcels: [] }]) {
    expect(await raw('POST', usage1._request.path, wrong)).toMatchObject({ status: 400, body: { IsSuccess: false, Code: 'A100' } });
  }
});

test('DispatchOrders: the fields of B404 (round 4) are read; a request with none of them is B404 with the documented text', async () => {
  const b404 = fixture('real-world-4/gedocs-getordersmanifestrequest-error-codes.json').rows.find((r: { ErrorCode: string }) => r.ErrorCode === 'B404');
  for (const wrong of [{}, { OrderId: 'GE100000001SB' }, { orderIds: ['GE100000001SB'] }]) {
    expect(await raw('POST', '/Order/DispatchOrders', wrong)).toMatchObject({ status: 400, body: { IsSuccess: false, Code: 'B404', ErrorText: b404.ErrorText } });
  }
});

/** A raw request without the merchantGUID query parameter (nor the MerchantGUID header): the form no source shows. */
async function withoutGuid(path: string, body?: unknown, query: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const q = new URLSearchParams(query);
  const res = await fetch(`${sb.url}${path}${q.size > 0 ? `?${q}` : ''}`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer any' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}
const invalid = { status: 400, body: { Code: 'INVALID_REQUEST' } };

describe('the operations of issue 50 (docs/compatibility.md, LP-1…LP-17): the documented form and the client accepted, another form refused', () => {
  test('the browsing lists (LP-1): POST, merchantGUID and filters in the query; GET is 405, a missing merchantGUID or the filters as a body INVALID_REQUEST', async () => {
    expect(await sb.client.getCountries({ countryCode: 'DE' })).toEqual([expect.objectContaining({ Code: 'DE' })]);
    expect((await sb.client.getCurrencies()).length).toBeGreaterThan(0);
    expect((await sb.client.getCurrencyRates()).length).toBeGreaterThan(0);
    expect((await sb.client.getCountryCoefficients({ countryCode: 'DE' })).every((c) => c.CountryCode === 'DE')).toBe(true);
    expect((await sb.client.getRoundingRules({ currencyCode: 'JPY' })).every((r) => r.CurrencyCode === 'JPY')).toBe(true);
    for (const name of ['Countries', 'Currencies', 'CurrencyRates', 'CountryCoefficients', 'RoundingRules', 'AppSettings']) {
      const path = `/Browsing/${name}`;
      expect(await raw('POST', path)).toMatchObject({ status: 200 });
      expect((await raw('GET', path)).status).toBe(405);
      expect(await withoutGuid(path)).toMatchObject(invalid);
      if (name !== 'AppSettings') expect(await raw('POST', path, { countryCode: 'DE' })).toMatchObject(invalid);
    }
    // The MerchantGUID header alone (the client's merchantGuidIn: 'header') names the merchant too.
    const byHeader = createServiceClient({ baseUrl: sb.url, merchantGuid: SANDBOX_MERCHANT_GUID, merchantGuidIn: 'header', accessToken: 'any', retry: { retries: 0 } });
    expect(await byHeader.getCountries({ countryCode: 'DE' })).toEqual([expect.objectContaining({ Code: 'DE' })]);
    // An empty JSON object is no body (what a generic POST helper writes): still the documented form.
    expect(await raw('POST', '/Browsing/Countries', {}, { countryCode: 'DE' })).toMatchObject({ status: 200, body: [{ Code: 'DE' }] });
  });

  test('AppSettings (LP-1): the web store\'s codes as the body, the client too', async () => {
    expect(await sb.client.getAppSettings()).toMatchObject({});
    expect(await raw('POST', '/Browsing/AppSettings', { WebStoreCode: 'store1', WebStoreInstanceCode: 'inst1' })).toMatchObject({ status: 200 });
  });

  test('LocationByIP, LocationDefaultCulture, RecentProductCountryS: their parameter in the query; missing, or sent as a body, is INVALID_REQUEST', async () => {
    expect(await sb.client.getLocationByIp('127.0.0.1')).toMatchObject({ Country: { Code: 'GB' } });
    expect(await sb.client.getDefaultCulture('DE')).toMatchObject({ Code: 'de-DE' });
    expect(await sb.client.getProductRestrictions()).toEqual({ productCountries: [], requestId: 0 });
    const cases: Array<[string, string, string]> = [['/Browsing/LocationByIP', 'IP', '127.0.0.1'], ['/Browsing/LocationDefaultCulture', 'countryCode', 'DE'], ['/Browsing/RecentProductCountryS', 'requestId', '0']];
    for (const [path, name, value] of cases) {
      expect(await raw('POST', path, undefined, { [name]: value })).toMatchObject({ status: 200 });
      expect(await raw('POST', path)).toMatchObject(invalid);
      expect(await raw('POST', path, { [name]: value })).toMatchObject(invalid);
      expect(await withoutGuid(path, undefined, { [name]: value })).toMatchObject(invalid);
      expect((await raw('GET', path, undefined, { [name]: value })).status).toBe(405);
    }
    expect(await raw('POST', '/Browsing/RecentProductCountryS', undefined, { requestId: 'latest' })).toMatchObject(invalid);
  });

  test('GetShippingDetails: the page\'s body { currencyCode, amount } with merchantGUID; the client too; no merchantGUID, no amount, GET refused', async () => {
    expect(await sb.client.getShippingDetails({ destinationCountry: 'DE', currencyCode: 'EUR', amount: '50' })).toEqual([expect.objectContaining({ destinationCountry: 'DE' })]);
    const path = '/ShippingDetails/GetShippingDetails';
    expect(await raw('POST', path, { destinationCountry: 'DEU', currencyCode: 'EUR', amount: 120 })).toMatchObject({ status: 200 });
    expect(await raw('POST', path, undefined, { currencyCode: 'EUR', amount: '50' })).toMatchObject(invalid);
    expect(await withoutGuid(path, { currencyCode: 'EUR', amount: 50 })).toMatchObject(invalid);
    expect((await raw('GET', path)).status).toBe(405);
  });

  test('SaveProductsList, SaveProductsBulk (LP-13, LP-15): a JSON array of products; the client too; not an array, no ProductCode, no merchantGUID refused', async () => {
    expect(await sb.client.saveProductsList([{ ProductCode: 'HAT-1', Name: 'Hat' }], { countryCode: 'DE' })).toMatchObject({});
    await sb.client.saveProductsBulk([{ ProductCode: 'HAT-2', Name: 'Hat' }]);
    for (const path of ['/Browsing/SaveProductsList', '/Bulk/SaveProductsBulk']) {
      expect(await raw('POST', path, [{ ProductCode: 'HAT-3', OriginCountryCode: '', OriginalSalePrice: '10.00' }])).toMatchObject({ status: 200 });
      for (const wrong of [{ ProductCode: 'HAT-4' }, [{ Name: 'no code' }], []]) expect(await raw('POST', path, wrong)).toMatchObject(invalid);
      expect(await withoutGuid(path, [{ ProductCode: 'HAT-5' }])).toMatchObject(invalid);
      expect((await raw('GET', path)).status).toBe(405);
    }
    expect([...sb.sandbox.catalogue.products('default').keys()]).toEqual(expect.arrayContaining(['HAT-1', 'HAT-2', 'HAT-3']));
    expect(sb.sandbox.catalogue.products('default').has('HAT-5')).toBe(false);
  });

  test('GetCatalogPrices (LP-14): { Countries: [{ CountryCode }], Products }; the client too; another shape or no merchantGUID refused', async () => {
    expect((await sb.client.getCatalogPrices({ products: [{ ProductCode: 'P-1', OriginalSalePrice: '100' }], countryCodes: ['DE'] })).Products).toHaveLength(1);
    const path = '/Browsing/GetCatalogPrices';
    expect(await raw('POST', path, { Countries: [{ CountryCode: 'DE' }], Products: [{ ProductCode: 'P-1', OriginalSalePrice: 100 }] })).toMatchObject({ status: 200, body: { Products: [{ ProductCode: 'P-1' }] } });
    for (const wrong of [{ CountryCodes: ['DE'], Products: [] }, { Countries: ['DE'], Products: [{ ProductCode: 'P-1', OriginalSalePrice: 1 }] }, { Countries: [{ CountryCode: 'DE' }], Products: [{ ProductCode: 'P-1' }] }]) {
      expect(await raw('POST', path, wrong)).toMatchObject(invalid);
    }
    expect(await withoutGuid(path, { Countries: [{ CountryCode: 'DE' }], Products: [] })).toMatchObject(invalid);
    expect((await raw('GET', path)).status).toBe(405);
  });

  test('GetTrackingEvents (LP-16): { Type, OrderIds | TrackingNumbers }; the client too; another Type, more than 100 ids, no merchantGUID refused', async () => {
    expect(await sb.client.getTrackingEvents({ type: 'outbound', orderIds: ['GE100000001SB'] })).toMatchObject({ IsSuccess: true });
    const path = '/Shipment/GetTrackingEvents';
    expect(await raw('POST', path, { Type: 'inbound', TrackingNumbers: ['GE100000001SB-T1'] })).toMatchObject({ status: 200, body: { IsSuccess: true } });
    expect(await raw('POST', path, { Type: 'both', OrderIds: ['GE100000001SB'] })).toMatchObject(invalid);
    expect(await raw('POST', path, { Type: 'outbound', OrderIds: Array.from({ length: 101 }, (_, i) => `GE${i}`) })).toMatchObject(invalid);
    expect(await withoutGuid(path, { Type: 'outbound', OrderIds: ['GE100000001SB'] })).toMatchObject(invalid);
    expect((await raw('GET', path)).status).toBe(405);
  });

  test('UpdateRMA (LP-17): the merchant\'s payload with an OrderId; the client too; without an OrderId Success false (as the cartridge reads it); no merchantGUID refused', async () => {
    expect(await sb.client.updateRma({ OrderId: 'GE100000001SB', RMANumber: 'RMA-1' })).toEqual({ Success: true });
    const path = '/Return/UpdateRMA';
    expect(await raw('POST', path, { OrderId: 'GE100000001SB', RMANumber: 'RMA-2' })).toMatchObject({ status: 200, body: { Success: true } });
    expect(await raw('POST', path, { RMANumber: 'RMA-3' })).toMatchObject({ status: 200, body: { Success: false } });
    expect(await withoutGuid(path, { OrderId: 'GE100000001SB' })).toMatchObject(invalid);
    expect((await raw('GET', path)).status).toBe(405);
  });
});
