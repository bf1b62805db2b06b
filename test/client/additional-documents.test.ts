import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure, fixture, GUID, TOKEN } from './setup.js';

let svc: FakeService;
let docs: FakeService;
beforeEach(async () => {
  svc = await fakeService();
  docs = await fakeService(() => ({ status: 200, body: fixture('additional-documents-response') }));
});
afterEach(async () => { await svc.close(); await docs.close(); });

const ORDERS = [{ OrderId: 'GE927127SE', TrackingNumbers: ['1Z999AA10123456784'] }];

describe('requestAdditionalRequiredDocuments', () => {
  test('POST {merchantApiBaseUrl}/additional-required-documents with { Orders }, the MerchantGUID header and the bearer token', async () => {
    const { client } = clientFor(svc, { merchantApiBaseUrl: docs.url });
    expect(await client.requestAdditionalRequiredDocuments(ORDERS)).toEqual({ Success: true });
    expect(svc.count()).toBe(0);
    const r = docs.received[0];
    expect(r).toMatchObject({ method: 'POST', path: '/additional-required-documents', json: { Orders: ORDERS } });
    expect(r.headers.merchantguid).toBe(GUID);
    expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.query.get('merchantGUID')).toBeNull();
  });

  test('merchantApiBaseUrl defaults to baseUrl', async () => {
    svc.answer(() => ({ status: 200, body: { Success: true } }));
    const { client } = clientFor(svc);
    await client.requestAdditionalRequiredDocuments(ORDERS);
    expect(svc.received[0].path).toBe('/additional-required-documents');
  });

  test('B001 (the order id does not exist) comes back as a ServiceError with that code', async () => {
    const body = fixture('additional-documents-error');
    docs.answer(() => ({ status: 400, body }));
    const { client } = clientFor(svc, { merchantApiBaseUrl: docs.url });
    const err = await failure(client.requestAdditionalRequiredDocuments(ORDERS));
    expect(err).toMatchObject({ name: 'ServiceError', code: body.Code, status: 400, retryable: false, operation: 'requestAdditionalRequiredDocuments' });
    expect(err.description).toBe(body.Description ?? body.Message);
  });

  test('Success: false on a 200 is a failure with the body\'s code', async () => {
    docs.answer(() => ({ status: 200, body: { Success: false, Code: 'B002', Message: 'Tracking number unknown' } }));
    const { client } = clientFor(svc, { merchantApiBaseUrl: docs.url });
    expect(await failure(client.requestAdditionalRequiredDocuments(ORDERS))).toMatchObject({ code: 'B002', status: 200 });
  });

  test.each([
    ['an empty list', []],
    ['no list', undefined],
    ['an empty OrderId', [{ OrderId: '', TrackingNumbers: ['T'] }]],
    ['a missing OrderId', [{ TrackingNumbers: ['T'] }]],
    ['a non-string tracking number', [{ OrderId: 'GE1', TrackingNumbers: [42] }]],
    ['TrackingNumbers not an array', [{ OrderId: 'GE1', TrackingNumbers: 'T' }]],
    ['a misspelt field', [{ OrderId: 'GE1', TrackingNumber: ['T'] }]],
  ])('%s is INVALID_ARGUMENT and sends nothing', async (_name, orders) => {
    const { client } = clientFor(svc, { merchantApiBaseUrl: docs.url });
    expect(await failure(client.requestAdditionalRequiredDocuments(orders as never))).toMatchObject({ code: 'INVALID_ARGUMENT', attempts: 0 });
    expect(docs.count()).toBe(0);
  });

  test('a POST is not retried after it may have reached the service, unless { retry: true }', async () => {
    docs.answer(() => ({ status: 500, body: 'oops' }));
    const { client } = clientFor(svc, { merchantApiBaseUrl: docs.url });
    expect(await failure(client.requestAdditionalRequiredDocuments(ORDERS))).toMatchObject({ code: 'HTTP_500', retryable: true, attempts: 1 });
    expect(docs.count()).toBe(1);
    await failure(client.requestAdditionalRequiredDocuments(ORDERS, { retry: true }));
    expect(docs.count()).toBe(4);
    expect(await failure(client.requestAdditionalRequiredDocuments(ORDERS, { retyr: true } as never)))
      .toMatchObject({ code: 'INVALID_ARGUMENT', description: expect.stringContaining('did you mean "retry"') });
  });
});
