/**
 * GetShippingDetails (docs.global-e.com shipping-options-api.html and its preview page: POST
 * /ShippingDetails/GetShippingDetails with the example request; the example answer) against a recorded fake service.
 */
import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure, fixture, GUID } from './setup.js';

let svc: FakeService;
beforeEach(async () => { svc = await fakeService(() => ({ status: 200, body: fixture('shipping-details-response') })); });
afterEach(() => svc.close());

test('POST /ShippingDetails/GetShippingDetails?merchantGUID=… with the page\'s example request; the example answer typed, null read as absent', async () => {
  const { client } = clientFor(svc);
  const details = await client.getShippingDetails(fixture('shipping-details-request'));
  expect([svc.received[0].method, svc.received[0].path, Object.fromEntries(svc.received[0].query), svc.received[0].json])
    .toEqual(['POST', '/ShippingDetails/GetShippingDetails', { merchantGUID: GUID }, fixture('shipping-details-request')]);
  expect(details[0]).toMatchObject({ destinationCountry: 'USA', status: 'active' });
  expect(details[0].shippingRates?.[0]).toMatchObject({ shippingCost: 15, shippingCostCurrency: 'USD', estimatedDeliveryDays: '1-3' });
  expect(details[0].shippingRates?.[0]).not.toHaveProperty('specialOfferExpiryDate');
});

test.each([
  [{ amount: 50 }], [{ currencyCode: 'USD' }], [{ currencyCode: 'USD', amount: '50.123' }], [{ currencyCode: 'USD', amount: -1 }],
  [{ currencyCode: 'USD', amount: 5, destinationCountry: 'United States' }], [{ currencyCode: 'USD', amount: 5, country: 'US' }],
])('%j is INVALID_ARGUMENT and sends nothing', async (request) => {
  const { client } = clientFor(svc);
  expect(await failure(client.getShippingDetails(request as never))).toMatchObject({ code: 'INVALID_ARGUMENT', operation: 'getShippingDetails' });
  expect(svc.count()).toBe(0);
});
