/**
 * The service answers many errors with HTTP 200 and { Code, Error[, Description] } (FINDINGS.md of
 * real-world-2, behaviours 2 and 3): for every operation such a body is a ServiceError, never a result.
 */
import { readFileSync } from 'node:fs';
import { ServiceError } from '../../lib/client/errors.js';
import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure, fixture, GUID } from './setup.js';

const real = (name: string): any =>
  JSON.parse(readFileSync(new URL(`../fixtures/real-world-2/${name}.json`, import.meta.url), 'utf8'));

let svc: FakeService;
beforeEach(async () => { svc = await fakeService(); });
afterEach(() => svc.close());

const parcel = { ParcelCode: 'P1', Products: [{ CartItemId: 'ci-1', ProductCode: 'SKU0', DeliveryQuantity: 1 }] };
const ORDERS = [{ OrderId: 'GE927127SE', TrackingNumbers: ['1Z999AA10123456784'] }];

type Client = ReturnType<typeof clientFor>['client'];
const OPERATIONS: Array<[string, (c: Client) => Promise<unknown>]> = [
  ['getActiveHubDetails', (c) => c.getActiveHubDetails()],
  ['updateOrderDispatchV2', (c) => c.updateOrderDispatchV2({ OrderId: 'GE1', Parcels: [parcel] })],
  ['updateOrderDispatch', (c) => c.updateOrderDispatch({ OrderId: 'GE1', Parcels: [parcel] })],
  ['getShipmentInformation', (c) => c.getShipmentInformation('1Z999AA10123456784')],
  ['requestAdditionalRequiredDocuments', (c) => c.requestAdditionalRequiredDocuments(ORDERS)],
];

describe('a 2xx body in the service\'s error shape', () => {
  test.each(OPERATIONS)('%s: { Code, Error, Description } with 200 is a ServiceError with the service\'s Code, not retried', async (operation, call) => {
    const body = real('solutiongem-GetCheckoutCartInfo-errorResponse-1');
    svc.answer(() => ({ status: 200, body }));
    const err = await failure(call(clientFor(svc).client));
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({ code: body.Code, operation, status: 200, retryable: false, attempts: 1, description: body.Error });
    expect(svc.count()).toBe(1);
  });

  test.each(OPERATIONS)('%s: Error and Description that differ are both in the description; the MerchantGUID is masked', async (_operation, call) => {
    svc.answer(() => ({ status: 200, body: { Code: 'B001', Error: 'Order not found', Description: `no order for merchant ${GUID}` } }));
    const err = await failure(call(clientFor(svc).client));
    expect(err.code).toBe('B001');
    expect(err.description).toBe('Order not found: no order for merchant [REDACTED]');
    expect(err.message).not.toContain(GUID);
  });

  test('every real error fixture is refused by the hub call with its own Code and text', async () => {
    for (const name of ['solutiongem-GetCheckoutCartInfo-errorResponse-1', 'solutiongem-GetCheckoutCartInfo-errorResponse-2']) {
      const body = real(name);
      svc.answer(() => ({ status: 200, body }));
      const { client } = clientFor(svc, { hubCacheTtlMs: 0 });
      expect(await failure(client.getActiveHubDetails())).toMatchObject({ code: body.Code, description: body.Error, retryable: false });
    }
  });

  test('the callbacks\' envelope { Success: false, ErrorCode, Message } is an error too (ErrorCode as the code)', async () => {
    const body = real('linkglobale-OrderCallbacks-defaultErrorResponse-1');
    svc.answer(() => ({ status: 200, body }));
    expect(await failure(clientFor(svc).client.getActiveHubDetails())).toMatchObject({ code: '100', description: body.Message, retryable: false });
  });

  test('Success: false on additional documents and an error status carry a numeric Code or ErrorCode as text', async () => {
    svc.answer(() => ({ status: 200, body: real('linkglobale-OrderCallbacks-defaultErrorResponse-1') }));
    expect(await failure(clientFor(svc).client.requestAdditionalRequiredDocuments(ORDERS))).toMatchObject({ code: '100', status: 200, retryable: false });
    svc.answer(() => ({ status: 403, body: { Code: 403, Error: 'API not enabled' } }));
    expect(await failure(clientFor(svc).client.getShipmentInformation('T1'))).toMatchObject({ code: '403', description: 'API not enabled' });
  });

  test('a numeric Code is passed as text; an Error without a Code is SERVICE_ERROR', async () => {
    svc.answer(() => ({ status: 200, body: { Code: 404, Error: 'Hub not configured' } }));
    expect(await failure(clientFor(svc).client.getActiveHubDetails())).toMatchObject({ code: '404', description: 'Hub not configured' });
    svc.answer(() => ({ status: 200, body: { Error: 'Hub not configured' } }));
    expect(await failure(clientFor(svc).client.getShipmentInformation('T1'))).toMatchObject({ code: 'SERVICE_ERROR', description: 'Hub not configured', status: 200 });
  });

  test('the hub call\'s error is not cached: the next call asks again and gets the hub', async () => {
    svc.answer((_r, nth) => (nth === 1 ? { status: 200, body: { Code: '100', Error: 'busy' } } : { status: 200, body: fixture('hub-details') }));
    const { client } = clientFor(svc);
    expect(await failure(client.getActiveHubDetails())).toMatchObject({ code: '100' });
    expect((await client.getActiveHubDetails()).HubId).toBe(fixture('hub-details').HubId);
  });

  test('a body with a success field is not taken for an error: a hub carrying a Code, a dispatch reply with Success', async () => {
    svc.answer(() => ({ status: 200, body: { ...fixture('hub-details'), Code: 'X' } }));
    expect((await clientFor(svc).client.getActiveHubDetails()).HubId).toBe(fixture('hub-details').HubId);
    svc.answer(() => ({ status: 200, body: { Success: true, Reason: 'Received', Code: '0' } }));
    expect(await clientFor(svc).client.updateOrderDispatchV2({ OrderId: 'GE1', Parcels: [parcel] })).toMatchObject({ Success: true });
  });
});

describe('a dispatch answered Success: false', () => {
  test.each([
    ['Error', { Success: false, Code: 'B001', Error: 'Order GE1 not found' }, 'Order GE1 not found', /\(Code B001\): Order GE1 not found/],
    ['Description', { Success: false, Description: 'Parcel P1 already dispatched' }, 'Parcel P1 already dispatched', /: Parcel P1 already dispatched$/],
    ['Reason (preferred)', { Success: false, Reason: 'Order is completed', Error: 'other' }, 'Order is completed', /: Order is completed$/],
    ['Message (the callbacks\' envelope)', real('linkglobale-OrderCallbacks-defaultErrorResponse-1'), 'Unexpected error has occurred', /Unexpected error has occurred/],
  ])('carries the text of %s in reason and description', async (_where, body, reason, description) => {
    svc.answer(() => ({ status: 200, body }));
    const err = await failure(clientFor(svc).client.updateOrderDispatchV2({ OrderId: 'GE1', Parcels: [parcel] }));
    expect(err).toMatchObject({ code: 'DISPATCH_REJECTED', reason, retryable: false });
    expect(err.description).toMatch(description);
    expect(err.description).not.toMatch(/no Reason given/);
  });

  test('no text at all still says so', async () => {
    svc.answer(() => ({ status: 200, body: { Success: false } }));
    const err = await failure(clientFor(svc).client.updateOrderDispatch({ OrderId: 'GE1' }));
    expect(err.description).toMatch(/no Reason given/);
    expect(err.reason).toBeUndefined();
  });
});
