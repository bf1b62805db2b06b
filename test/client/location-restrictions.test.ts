/**
 * LocationByIP (docs.global-e.com "Replacing the Global-e Country Switcher": POST
 * /Browsing/LocationByIP?merchantGUID=…&IP=…&useIpv6=true, the page's example response) and
 * RecentProductCountryS (recentproductcountrys.html; `&requestId=` and the answer's
 * RecentProductCountries / RequestId as the service's cartridge reads them) against a recorded fake service.
 */
import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure, fixture, GUID } from './setup.js';

let svc: FakeService;
beforeEach(async () => {
  svc = await fakeService((r) => ({
    status: 200,
    body: r.path === '/Browsing/LocationByIP' ? fixture('location-by-ip') : r.path === '/Browsing/LocationDefaultCulture' ? fixture('culture') : fixture('recent-product-countries'),
  }));
});
afterEach(() => svc.close());

test('getLocationByIp: the request line of the page; the example answer typed', async () => {
  const { client } = clientFor(svc);
  const where = await client.getLocationByIp('203.0.113.7');
  expect([svc.received[0].method, svc.received[0].path, Object.fromEntries(svc.received[0].query)]).toEqual(['POST', '/Browsing/LocationByIP', { merchantGUID: GUID, IP: '203.0.113.7', useIpv6: 'true' }]);
  expect(where.Country).toEqual({ Code: 'IE', Name: 'Ireland (Republic of)', DefaultCurrencyCode: 'EUR', DefaultCultureCode: 'en-GB' });
  expect(await client.getLocationByIp('2001:db8::1')).toBeDefined();
  for (const bad of ['', 'localhost', '999.1.1.1', '1.2.3.4&IP=5.6.7.8']) expect(await failure(client.getLocationByIp(bad))).toMatchObject({ code: 'INVALID_ARGUMENT' });
  expect(svc.count()).toBe(2);
});

test('getProductRestrictions: requestId in the query (0 the first time), the records and the next requestId; nulls read as absent', async () => {
  const { client } = clientFor(svc);
  const page = await client.getProductRestrictions();
  expect(Object.fromEntries(svc.received[0].query)).toEqual({ merchantGUID: GUID, requestId: '0' });
  expect(page.requestId).toBe(42);
  expect(page.productCountries[0]).toMatchObject({ ProductCode: '1020872', CountryCode: 'AU', IsRestricted: true });
  expect(page.productCountries[0]).not.toHaveProperty('VATRateType');
  await client.getProductRestrictions(42);
  expect(svc.received[1].query.get('requestId')).toBe('42');
  svc.answer(() => ({ status: 200, body: { RecentProductCountries: null, RequestId: null } }));
  expect(await client.getProductRestrictions(43)).toEqual({ productCountries: [], requestId: 0 });
  expect(await failure(client.getProductRestrictions(-1))).toMatchObject({ code: 'INVALID_ARGUMENT' });
});

test('getDefaultCulture: POST /Browsing/LocationDefaultCulture?countryCode=… (the SDK\'s form); the SDK\'s stub culture typed; a list is read as its first', async () => {
  const { client } = clientFor(svc);
  expect(await client.getDefaultCulture('gb')).toEqual(fixture('culture'));
  expect([svc.received[0].method, svc.received[0].path, Object.fromEntries(svc.received[0].query)]).toEqual(['POST', '/Browsing/LocationDefaultCulture', { merchantGUID: GUID, countryCode: 'GB' }]);
  svc.answer(() => ({ status: 200, body: [fixture('culture')] }));
  expect((await client.getDefaultCulture('GB')).Code).toBe('en-GB');
  svc.answer(() => ({ status: 200, body: { Name: 'no code' } }));
  expect(await failure(client.getDefaultCulture('GB'))).toMatchObject({ code: 'INVALID_RESPONSE' });
  expect(await failure(client.getDefaultCulture('GBR'))).toMatchObject({ code: 'INVALID_ARGUMENT' });
});
