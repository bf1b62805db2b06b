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

/**
 * Every C-code in every answer shape the service uses for its codes (issue 46, item 8), in a 200 and a
 * 400: C102 is always a voided parcel (success, a warning), the other codes always their refusal.
 */
describe('voidParcel: the C-codes read by meaning, whatever the shape and status', () => {
  const SHAPES: Array<[string, (code: string) => Record<string, unknown>]> = [
    ['IsSuccess true, Errors [{ Code }]', (code) => ({ IsSuccess: true, Errors: [{ Code: code, Message: `text of ${code}` }] })],
    ['IsSuccess false, Errors [{ Code }]', (code) => ({ IsSuccess: false, Errors: [{ Code: code, Message: `text of ${code}` }] })],
    ['IsSuccess false, Errors [{ ErrorCode }]', (code) => ({ IsSuccess: false, Errors: [{ ErrorCode: code, Error: `text of ${code}` }] })],
    ['IsSuccess false, Errors ["<code> text"]', (code) => ({ IsSuccess: false, Errors: [`${code} text of ${code}`] })],
    ['a top-level { Code }', (code) => ({ Code: code, Error: `text of ${code}` })],
    ['a top-level { ErrorCode }', (code) => ({ ErrorCode: code, Message: `text of ${code}` })],
    ['a top-level { ErrorText: "<code> …" }', (code) => ({ IsSuccess: false, ErrorText: `${code}: text of ${code}` })],
  ];
  const cases = SHAPES.flatMap(([shape, body]) => [200, 400].map((status) => [shape, status, body] as const));

  test.each(cases)('C102 as %s, HTTP %d: voided — a success with a warning, sent once', async (_shape, status, body) => {
    svc.answer(() => ({ status, body: body('C102') }));
    const { client, log } = clientFor(svc);
    expect(await client.voidParcel({ OrderId: 'GE1', ParcelCode: 'P-1' })).toEqual({ IsSuccess: true, Errors: [{ Code: 'C102', Message: 'text of C102' }] });
    expect(log.lines.filter((l) => l.level === 'warn').map((l) => l.msg)).toEqual([expect.stringMatching(/C102.*cancel it with the carrier/)]);
    expect(svc.count()).toBe(1);
  });

  test.each(cases.flatMap(([shape, status, body]) => ['C100', 'C101', 'C103', 'C104'].map((code) => [code, shape, status, body] as const)))(
    '%s as %s, HTTP %d: its documented refusal', async (code, _shape, status, body) => {
      svc.answer(() => ({ status, body: body(code) }));
      const { client } = clientFor(svc);
      const err = await failure(client.voidParcel({ OrderId: 'GE1', ParcelCode: 'P-1' }));
      expect(err).toMatchObject({ name: 'ServiceError', code, status, retryable: false });
      expect(err.description).toBe(`${VOID_PARCEL_CODES[code]}; the service said: text of ${code}`);
    });

  test('a refusal beside C102 wins: the void is not claimed', async () => {
    svc.answer(() => ({ status: 200, body: { IsSuccess: true, Errors: [{ Code: 'C102' }, { Code: 'C104' }] } }));
    const { client } = clientFor(svc);
    expect(await failure(client.voidParcel({ OrderId: 'GE1', ParcelCode: 'P-1' }))).toMatchObject({ code: 'C104' });
  });

  test('a code that is not a C-code at the start of a text is not read as one; an unknown C-code with IsSuccess false stays a refusal', async () => {
    svc.answer(() => ({ status: 200, body: { IsSuccess: false, Errors: ['failed: see C102 of the page'] } }));
    const { client } = clientFor(svc);
    expect(await failure(client.voidParcel({ OrderId: 'GE1', ParcelCode: 'P-1' }))).toMatchObject({ code: 'SERVICE_ERROR' });
    svc.answer(() => ({ status: 200, body: { IsSuccess: false, Errors: [{ Code: 'C999' }] } }));
    expect(await failure(client.voidParcel({ OrderId: 'GE1', ParcelCode: 'P-1' }))).toMatchObject({ code: 'SERVICE_ERROR' });
  });
});
