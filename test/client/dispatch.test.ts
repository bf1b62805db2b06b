import { readFileSync } from 'node:fs';
import { fakeService, refusingUrl, type FakeService } from './fake-service.js';
import { clientFor, failure, fixture, GUID } from './setup.js';

let svc: FakeService;
beforeEach(async () => { svc = await fakeService(() => ({ status: 200, body: { Success: true, Reason: 'Received' } })); });
afterEach(() => svc.close());

const V2 = '/Order/UpdateOrderDispatchV2';
const V1 = '/Order/UpdateOrderDispatch';
const realV2 = () => JSON.parse(readFileSync(new URL('../fixtures/real-world/workarea-m2ge-updateorderdispatchv2.json', import.meta.url), 'utf8'));
const parcel = { ParcelCode: 'P1', Products: [{ CartItemId: 'ci-1', ProductCode: 'SKU0', DeliveryQuantity: 1 }] };

describe('updateOrderDispatchV2 / updateOrderDispatch', () => {
  test('V2: POST {baseUrl}/Order/UpdateOrderDispatchV2 with the request as JSON; the reply is returned', async () => {
    const { client } = clientFor(svc);
    const request = fixture('dispatch-request-v2');
    expect(await client.updateOrderDispatchV2(request)).toEqual({ Success: true, Reason: 'Received' });
    const r = svc.received[0];
    expect(r).toMatchObject({ method: 'POST', path: V2, json: request });
    expect(r.query.get('merchantGUID')).toBe(GUID);
    expect(r.headers['content-type']).toBe('application/json');
  });

  test('V2: the real body existing integrations send (nulls, MerchantOrderId spelling, TrackingDetails) is accepted; nulls are left out', async () => {
    const { client } = clientFor(svc);
    await client.updateOrderDispatchV2(realV2());
    const sent = svc.received[0].json;
    expect(sent).toEqual({
      OrderId: 'GE0421337US', IsCompleted: true,
      Parcels: [{ ...realV2().Parcels[0] }],
      TrackingDetails: { TrackingNumber: '1Z' },
    });
    expect(sent.Parcels[0].TrackingDetails).toEqual({ TrackingNumber: '1z' });
  });

  test('V2: order-level and per-parcel tracking with TrackingURL and ShipperName', async () => {
    const { client } = clientFor(svc);
    const tracking = { TrackingNumber: '1Z999', TrackingURL: 'https://track.example.com/1Z999', ShipperName: 'UPS' };
    await client.updateOrderDispatchV2({ MerchantOrderID: '1001', IsCompleted: false, Parcels: [{ ...parcel, TrackingDetails: tracking }], TrackingDetails: tracking });
    expect(svc.received[0].json).toEqual({ MerchantOrderID: '1001', IsCompleted: false, Parcels: [{ ...parcel, TrackingDetails: tracking }], TrackingDetails: tracking });
  });

  test('each version sends its own spelling of the merchant order id; the other spelling is renamed', async () => {
    const { client } = clientFor(svc);
    await client.updateOrderDispatchV2({ MerchantOrderId: '1001', Parcels: [parcel] });
    await client.updateOrderDispatch({ MerchantOrderID: '1002', Parcels: [], Exceptions: null });
    await client.updateOrderDispatch({ MerchantOrderId: '1003', MerchantOrderID: '1003', Parcels: [parcel] });
    expect(svc.received.map((r) => [r.path, r.json])).toEqual([
      [V2, { MerchantOrderID: '1001', Parcels: [parcel] }],
      [V1, { MerchantOrderId: '1002', Parcels: [] }],
      [V1, { MerchantOrderId: '1003', Parcels: [parcel] }],
    ]);
  });

  test('V1 accepts its fixture, empty Parcels and null Exceptions', async () => {
    const { client } = clientFor(svc);
    await client.updateOrderDispatch(fixture('dispatch-request-v1'));
    expect(svc.received[0]).toMatchObject({ path: V1 });
  });

  const EX1 = { CartItemId: 'ci-1', ProductCode: 'SKU0', ExceptionType: 1, Quantity: 1 };
  const EX2 = { CartItemId: 'ci-2', ProductCode: 'SKU1', ExceptionType: 2, ExpectedFulfilmentDate: '2026-12-01' };
  test('exceptions alone are enough for V2 (backorder, later shipment)', async () => {
    const { client } = clientFor(svc);
    await client.updateOrderDispatchV2({ OrderId: 'GE1', IsCompleted: false, Exceptions: [EX1, EX2] });
    expect(svc.received[0].json).toEqual({ OrderId: 'GE1', IsCompleted: false, Exceptions: [EX1, EX2] });
  });

  test.each([
    ['no id at all', 2, { Parcels: [parcel] }, /one of OrderId or MerchantOrderID is required/],
    ['null ids', 2, { OrderId: null, MerchantOrderID: null, Parcels: [parcel] }, /one of OrderId or MerchantOrderID/],
    ['an empty OrderId', 2, { OrderId: '', Parcels: [parcel] }, /OrderId must be a non-empty string/],
    ['both spellings with different values', 2, { MerchantOrderID: '1', MerchantOrderId: '2', Parcels: [parcel] }, /both given with different values/],
    ['both spellings with different values (V1)', 1, { MerchantOrderID: '1', MerchantOrderId: '2' }, /both given with different values/],
    ['V2 without Parcels or Exceptions', 2, { OrderId: 'GE1', IsCompleted: true }, /needs Parcels or Exceptions/],
    ['V2 with empty Parcels and Exceptions', 2, { OrderId: 'GE1', Parcels: [], Exceptions: [] }, /an empty array counts as not given/],
    ['ExceptionType 1 without Quantity', 2, { OrderId: 'GE1', Exceptions: [{ ExceptionType: 1 }] }, /Exceptions\[0\]\.Quantity is required with ExceptionType 1/],
    ['ExceptionType 2 without a date', 2, { OrderId: 'GE1', Exceptions: [{ ExceptionType: 2 }] }, /ExpectedFulfilmentDate is required with ExceptionType 2/],
    ['an impossible date', 2, { OrderId: 'GE1', Exceptions: [{ ...EX2, ExpectedFulfilmentDate: '2026-02-30' }] }, /must be a date YYYY-MM-DD/],
    ['a date in another format', 1, { OrderId: 'GE1', Exceptions: [{ ...EX2, ExpectedFulfilmentDate: '01.12.2026' }] }, /must be a date YYYY-MM-DD/],
    ['a zero quantity', 2, { OrderId: 'GE1', Exceptions: [{ ...EX1, Quantity: 0 }] }, /Quantity must be a number > 0/],
    ['a negative delivery quantity', 2, { OrderId: 'GE1', Parcels: [{ Products: [{ DeliveryQuantity: -1 }] }] }, /DeliveryQuantity must be a number > 0/],
    ['a non-integer ExceptionType', 2, { OrderId: 'GE1', Exceptions: [{ ExceptionType: 1.5, Quantity: 1 }] }, /ExceptionType must be an integer/],
    ['Parcels not an array', 1, { OrderId: 'GE1', Parcels: {} }, /Parcels must be an array/],
    ['IsCompleted not a boolean', 2, { OrderId: 'GE1', Parcels: [parcel], IsCompleted: 'yes' }, /IsCompleted must be a boolean/],
    ['a misspelt field', 2, { OrderId: 'GE1', Parcels: [parcel], IsComplete: true }, /unknown field IsComplete; did you mean IsCompleted/],
    ['a misspelt parcel field', 2, { OrderId: 'GE1', Parcels: [{ ParcelCode: 'P', Product: [] }] }, /Parcels\[0\]\.Product; did you mean Parcels\[0\]\.Products/],
    ['tracking without TrackingNumber', 2, { OrderId: 'GE1', Parcels: [parcel], TrackingDetails: { ShipperName: 'UPS' } }, /TrackingDetails\.TrackingNumber is required/],
    ['a misspelt tracking field', 2, { OrderId: 'GE1', Parcels: [parcel], TrackingDetails: { TrackingNumber: '1', TrackingUrl: 'x' } }, /did you mean TrackingDetails\.TrackingURL/],
    ['tracking on V1', 1, { OrderId: 'GE1', TrackingDetails: { TrackingNumber: '1' } }, /TrackingDetails is a V2 field/],
    ['not an object', 2, 'GE1', /the request must be an object/],
  ])('%s is INVALID_ARGUMENT and sends nothing', async (_name, version, request, message) => {
    const { client } = clientFor(svc);
    const call = version === 2 ? client.updateOrderDispatchV2(request as never) : client.updateOrderDispatch(request as never);
    const err = await failure(call);
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', attempts: 0, operation: version === 2 ? 'updateOrderDispatchV2' : 'updateOrderDispatch' });
    expect(err.description).toMatch(message);
    expect(svc.count()).toBe(0);
  });

  test('Success: false is DISPATCH_REJECTED carrying the Reason, whatever the HTTP status', async () => {
    const { client } = clientFor(svc);
    for (const status of [200, 400, 422, 500]) {
      svc.answer(() => ({ status, body: { Success: false, Reason: 'Order GE1 is already completed' } }));
      const err = await failure(client.updateOrderDispatchV2({ OrderId: 'GE1', Parcels: [parcel] }));
      expect(err).toMatchObject({ code: 'DISPATCH_REJECTED', status, retryable: false, reason: 'Order GE1 is already completed', attempts: 1 });
      expect(err.message).toContain('Order GE1 is already completed');
    }
    expect(svc.count()).toBe(4);
  });

  test('an error status without Success: false keeps its code; a 2xx that is not a dispatch reply is INVALID_RESPONSE', async () => {
    const { client } = clientFor(svc);
    svc.answer(() => ({ status: 401, body: { Code: 'UNAUTHORIZED', Error: 'no' } }));
    expect(await failure(client.updateOrderDispatch({ OrderId: 'GE1' }))).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    svc.answer(() => ({ status: 200, body: { Reason: 'ok' } }));
    expect(await failure(client.updateOrderDispatch({ OrderId: 'GE1' }))).toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  test('not retried after the request may have reached the service (5xx, timeout), unless { retry: true }', async () => {
    svc.answer(() => ({ status: 503, body: 'busy' }));
    const { client } = clientFor(svc, { timeoutMs: 100 });
    expect(await failure(client.updateOrderDispatchV2({ OrderId: 'GE1', Parcels: [parcel] }))).toMatchObject({ code: 'HTTP_503', retryable: true, attempts: 1 });
    expect(svc.count()).toBe(1);
    await failure(client.updateOrderDispatchV2({ OrderId: 'GE1', Parcels: [parcel] }, { retry: true }));
    expect(svc.count()).toBe(4);
    svc.answer(() => ({ status: 200, body: { Success: true }, delayMs: 1000 }));
    const timeout = await failure(client.updateOrderDispatch({ OrderId: 'GE1' }));
    expect(timeout).toMatchObject({ code: 'TIMEOUT', attempts: 1 });
    expect(timeout.description).toMatch(/may have reached the service/);
    expect(svc.count()).toBe(5);
    svc.answer(() => ({ destroy: true }));
    expect(await failure(client.updateOrderDispatch({ OrderId: 'GE1' }))).toMatchObject({ code: 'NETWORK', attempts: 1 });
    expect(svc.count()).toBe(6);
  });

  test('a connection refused before sending is retried even for a POST', async () => {
    const { client } = clientFor({ url: await refusingUrl() } as FakeService);
    const err = await failure(client.updateOrderDispatchV2({ OrderId: 'GE1', Parcels: [parcel] }));
    expect(err).toMatchObject({ code: 'NETWORK', retryable: true, attempts: 3 });
    expect(err.description).toMatch(/nothing was sent/);
  });

  test('a misspelt call option is INVALID_ARGUMENT with a did-you-mean', async () => {
    const { client } = clientFor(svc);
    expect(await failure(client.updateOrderDispatchV2({ OrderId: 'GE1', Parcels: [parcel] }, { forse: true } as never)))
      .toMatchObject({ code: 'INVALID_ARGUMENT', description: expect.stringContaining('did you mean "force"') });
    expect(svc.count()).toBe(0);
  });
});
