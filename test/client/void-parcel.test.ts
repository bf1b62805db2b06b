/** voidParcel against a recorded fake service: POST /Parcel/VoidParcel as the pages show it, the C-codes, C102 as a logged success. */
import { VOID_PARCEL_CODES } from 'crossborder-merchant-kit/client';
import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure, GUID } from './setup.js';

let svc: FakeService;
beforeEach(async () => { svc = await fakeService(() => ({ status: 200, body: { IsSuccess: true, Errors: [] } })); });
afterEach(() => svc.close());

describe('voidParcel', () => {
  test('POST {baseUrl}/Parcel/VoidParcel?merchantGUID=… with the pages\' example body', async () => {
    const { client } = clientFor(svc);
    expect(await client.voidParcel({ OrderId: '#12354', ParcelCode: '454234', MerchantOrderID: '#1138' })).toEqual({ IsSuccess: true, Errors: [] });
    const r = svc.received[0];
    expect(r).toMatchObject({ method: 'POST', path: '/Parcel/VoidParcel', json: { OrderId: '#12354', ParcelCode: '454234', MerchantOrderId: '#1138' } });
    expect(r.query.get('merchantGUID')).toBe(GUID);
  });

  test.each(Object.entries(VOID_PARCEL_CODES))('%s is a ServiceError with its documented meaning, not retryable', async (code, meaning) => {
    svc.answer(() => ({ status: 400, body: { IsSuccess: false, Errors: [{ Code: code, Message: `the service's text for ${code}` }] } }));
    const { client } = clientFor(svc);
    const err = await failure(client.voidParcel({ OrderId: 'GE1', ParcelCode: 'P-1' }));
    expect(err).toMatchObject({ code, retryable: false, operation: 'voidParcel' });
    expect(err.description.startsWith(meaning)).toBe(true);
    expect(err.description).toContain(`the service's text for ${code}`);
  });

  test('a code as the start of a string in Errors (HTTP 200, IsSuccess false) is read the same way', async () => {
    svc.answer(() => ({ status: 200, body: { IsSuccess: false, Errors: ['C104 The parcel code was not found'] } }));
    const { client } = clientFor(svc);
    expect(await failure(client.voidParcel({ OrderId: 'GE1', ParcelCode: 'P-1' }))).toMatchObject({ code: 'C104', status: 200 });
  });

  test('C102 (voided; the shipper\'s cancellation failed) is a success, logged as a warning', async () => {
    svc.answer(() => ({ status: 200, body: { IsSuccess: true, Errors: [{ Code: 'C102', Message: 'shipper error 42' }] } }));
    const { client, log } = clientFor(svc);
    expect(await client.voidParcel({ OrderId: 'GE1', ParcelCode: 'P-1' })).toMatchObject({ IsSuccess: true });
    expect(log.text()).toMatch(/C102/);
  });

  test.each([
    [{ OrderId: 'GE1' }, /ParcelCode is required/],
    [{ ParcelCode: 'P-1' }, /one of OrderId, MerchantOrderId or DeliveryReferenceNumber/],
    [{ OrderId: 'GE1', ParcelCode: '' }, /ParcelCode must be a non-empty string/],
    [{ OrderId: 'GE1', ParcelCod: 'P-1' }, /did you mean "ParcelCode"/],
  ])('%j is INVALID_ARGUMENT and sends nothing', async (request, message) => {
    const { client } = clientFor(svc);
    const err = await failure(client.voidParcel(request as never));
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', attempts: 0 });
    expect(err.description).toMatch(message);
    expect(svc.count()).toBe(0);
  });
});
