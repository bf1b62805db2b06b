/**
 * updateOrderStatus (merchant → service) and updateShippingAddress against a recorded fake service:
 * the request line, headers and body as the service's pages document them, and the local refusals a
 * merchant relies on (a cancellation or address change of an order the store knows is dispatched).
 */
import { readFileSync } from 'node:fs';
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure, GUID, TOKEN } from './setup.js';

const documented = JSON.parse(readFileSync(new URL('../fixtures/real-world-3/gedocs-updateorderstatus-m2ge-request.json', import.meta.url), 'utf8'));

let svc: FakeService;
beforeEach(async () => { svc = await fakeService(() => ({ status: 200, body: { Success: 'true' } })); });
afterEach(async () => { await svc.close(); });

const CANCEL = {
  OrderId: 'GE1235436GB', OrderStatus: { OrderStatusCode: 'cancelled', Name: 'cancelled' },
  OrderStatusReason: { OrderStatusReasonCode: '1010', Name: 'CustomerCancel' },
};
const ADDRESS = {
  orderId: '1234567890',
  primaryShipping: { firstName: 'John', lastName: 'Doe', shippingAddress1: '123 Main Street', countryName: 'United States', city: 'New York', zipCode: '10001', email: 'john@example.com', phone1: '+1-555-123-4567' },
  extraDetails: { customerComments: 'Please deliver to reception' },
};
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A store in which a dispatch of `orderId` was accepted (as the client's dispatch records it). */
async function dispatchedStore(orderId: string): Promise<MemoryStore> {
  const store = new MemoryStore();
  const d = await fakeService(() => ({ status: 200, body: { Success: true } }));
  try {
    const { client } = clientFor(d, { store });
    await client.updateOrderDispatchV2({ OrderId: orderId, Parcels: [{ ParcelCode: `${orderId}-1` }] } as never);
  } finally {
    await d.close();
  }
  return store;
}

describe('updateOrderStatus', () => {
  test('the documented request: POST /Order/UpdateOrderStatus?merchantGUID=…&orderStatus=<the JSON of the page>, no body', async () => {
    const { client } = clientFor(svc);
    const res = await client.updateOrderStatus(CANCEL);
    expect(res).toMatchObject({ Success: true, sent: CANCEL });
    const r = svc.received[0];
    expect([r.method, r.path, r.query.get('merchantGUID'), r.body]).toEqual(['POST', '/Order/UpdateOrderStatus', GUID, '']);
    expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);
    // Exactly the page's example (test/fixtures/real-world-3/gedocs-updateorderstatus-m2ge-request.json).
    expect(r.query.get('orderStatus')).toBe(documented._request.query.orderStatus);
  });

  test('the older page\'s form (StatusCode) goes out in the documented form; Name defaults to the code', async () => {
    const { client } = clientFor(svc);
    await client.updateOrderStatus({ OrderId: 'GE1', StatusCode: 'processing' });
    expect(JSON.parse(svc.received[0].query.get('orderStatus')!)).toEqual({ OrderId: 'GE1', OrderStatus: { OrderStatusCode: 'processing', Name: 'processing' } });
  });

  test.each<[string, Record<string, unknown>, RegExp]>([
    ['a cancellation without its reason', { OrderId: 'GE1', StatusCode: 'canceled' }, /a cancellation needs OrderStatusReason/],
    ['no status', { OrderId: 'GE1' }, /StatusCode/],
    ['two statuses that differ', { OrderId: 'GE1', StatusCode: 'a', OrderStatus: { OrderStatusCode: 'b' } }, /differ/],
    ['a misspelt field', { OrderId: 'GE1', StatusCode: 'x', OrderStatusReasen: {} }, /did you mean OrderStatusReason/],
    ['no OrderId', { StatusCode: 'x' }, /OrderId/],
  ])('%s: INVALID_ARGUMENT, nothing sent', async (_what, input, message) => {
    const { client } = clientFor(svc);
    const err = await failure(client.updateOrderStatus(input as never));
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', operation: 'updateOrderStatus' });
    expect(err.description).toMatch(message);
    expect(svc.count()).toBe(0);
  });

  test('a cancellation of an order the store records as dispatched is refused locally; force sends it', async () => {
    const store = await dispatchedStore('GE1235436GB');
    const { client, log } = clientFor(svc, { store });
    const err = await failure(client.updateOrderStatus(CANCEL));
    expect(err).toMatchObject({ code: 'ORDER_DISPATCHED', operation: 'updateOrderStatus' });
    expect(err.description).toMatch(/was not sent \(pass \{ force: true \} to override\)/);
    expect(svc.count()).toBe(0);
    await client.updateOrderStatus(CANCEL, { force: true });
    expect(svc.count()).toBe(1);
    expect(log.text()).toMatch(/force: true/);
    // Another status (not a cancellation) is not refused.
    await client.updateOrderStatus({ OrderId: 'GE1235436GB', StatusCode: 'processing' });
  });

  test('a dispatch that named the merchant\'s order id counts for the service OrderId it maps to', async () => {
    const store = new MemoryStore();
    await store.saveMerchantOrderIds('GE1235436GB', ['100018322']);
    const d = await fakeService(() => ({ status: 200, body: { Success: true } }));
    await clientFor(d, { store }).client.updateOrderDispatchV2({ OrderId: '100018322', Parcels: [{ ParcelCode: '100018322-1' }] } as never);
    await d.close();
    const { client } = clientFor(svc, { store });
    expect((await failure(client.updateOrderStatus(CANCEL))).code).toBe('ORDER_DISPATCHED');
  });

  test.each([
    ['a manifest (dispatchOrders)', (c: any) => c.dispatchOrders({ OrderIds: ['GE1235436GB'] })],
    ['shipping documents (getShippingDocuments)', (c: any) => c.getShippingDocuments({ OrderId: 'GE1235436GB', IsCompleted: true, Parcels: [{ ParcelCode: 'p-1' }] })],
  ])('%s the service accepted counts as dispatched: a later cancellation and address change are refused locally', async (_what, call) => {
    const store = new MemoryStore();
    const d = await fakeService(() => ({ status: 200, body: { IsSuccess: true, ErrorText: null, Documents: [], ParcelsTracking: null } }));
    await call(clientFor(d, { store }).client);
    await d.close();
    const { client } = clientFor(svc, { store });
    expect((await failure(client.updateOrderStatus(CANCEL))).code).toBe('ORDER_DISPATCHED');
    expect((await failure(client.updateShippingAddress({ ...ADDRESS, orderId: 'GE1235436GB' }))).code).toBe('ORDER_DISPATCHED');
    expect(svc.count()).toBe(0);
  });

  test('a refused dispatch does not count', async () => {
    const store = new MemoryStore();
    const d = await fakeService(() => ({ status: 200, body: { Success: false, Reason: 'no' } }));
    await failure(clientFor(d, { store }).client.updateOrderDispatchV2({ OrderId: 'GE1235436GB', Parcels: [{ ParcelCode: 'p' }] } as never));
    await d.close();
    await clientFor(svc, { store }).client.updateOrderStatus(CANCEL);
    expect(svc.count()).toBe(1);
  });

  test.each([[{ Success: 'false', Message: 'error message', Description: 'error description' }], [{ Success: false, Message: 'no' }]])(
    'the page\'s failure answer (%j) is a ServiceError', async (body) => {
      svc.answer(() => ({ status: 200, body }));
      const { client } = clientFor(svc);
      expect(await failure(client.updateOrderStatus(CANCEL))).toMatchObject({ name: 'ServiceError', operation: 'updateOrderStatus' });
    });

  test('a status is safe to set twice: a 503 is retried', async () => {
    svc.answer((_r, nth) => (nth === 1 ? { status: 503 } : { status: 200, body: { Success: true } }));
    const { client } = clientFor(svc);
    await client.updateOrderStatus(CANCEL);
    expect(svc.count()).toBe(2);
  });
});

describe('updateShippingAddress', () => {
  test('PUT /api/v1/orders/shipping-address: the page\'s body, an Idempotency-Key UUID v4, 202 without a body', async () => {
    svc.answer(() => ({ status: 202 }));
    const { client } = clientFor(svc);
    const res = await client.updateShippingAddress(ADDRESS);
    expect(res).toEqual({ accepted: true, status: 202, idempotencyKey: expect.stringMatching(UUID_V4) });
    const r = svc.received[0];
    expect([r.method, r.path, r.query.get('merchantGUID')]).toEqual(['PUT', '/api/v1/orders/shipping-address', GUID]);
    expect(r.json).toEqual(ADDRESS);
    expect(r.headers['idempotency-key']).toBe(res.idempotencyKey);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(r.headers['merchant-guid']).toBeUndefined();
  });

  test('202 with a body: the body is returned', async () => {
    svc.answer(() => ({ status: 202, body: { requestId: 'abc', status: 'Accepted' } }));
    const { client } = clientFor(svc);
    expect((await client.updateShippingAddress(ADDRESS)).body).toEqual({ requestId: 'abc', status: 'Accepted' });
  });

  test('the same key on every retry of a call; a new key per call; a key of your own is used as given', async () => {
    svc.answer((_r, nth) => (nth % 2 === 1 ? { status: 503 } : { status: 202 }));
    const { client } = clientFor(svc);
    const first = await client.updateShippingAddress(ADDRESS);
    const second = await client.updateShippingAddress(ADDRESS);
    const keys = svc.received.map((r) => r.headers['idempotency-key']);
    expect(keys).toEqual([first.idempotencyKey, first.idempotencyKey, second.idempotencyKey, second.idempotencyKey]);
    expect(first.idempotencyKey).not.toBe(second.idempotencyKey);
    const mine = '3b241101-e2bb-4255-8caf-4136c566a962';
    expect((await client.updateShippingAddress(ADDRESS, { idempotencyKey: mine })).idempotencyKey).toBe(mine);
    expect(svc.received.at(-1)!.headers['idempotency-key']).toBe(mine);
  });

  test('without an access token, the page\'s Merchant-Guid header', async () => {
    svc.answer(() => ({ status: 202 }));
    const { client } = clientFor(svc, { accessToken: undefined });
    await client.updateShippingAddress(ADDRESS);
    expect(svc.received[0].headers['merchant-guid']).toBe(GUID);
  });

  test.each<[string, unknown, Record<string, unknown>, RegExp]>([
    ['a key that is no UUID v4', ADDRESS, { idempotencyKey: 'abc' }, /UUID v4/],
    ['a version-1 UUID', ADDRESS, { idempotencyKey: '6fa459ea-ee8a-1ca4-894e-db77e160355e' }, /UUID v4/],
    ['no address', { orderId: '1' }, {}, /primaryShipping/],
    ['a misspelt address field', { orderId: '1', primaryShipping: { zipcode: '1' } }, {}, /did you mean zipCode/],
    ['no orderId', { primaryShipping: { city: 'x' } }, {}, /orderId/],
  ])('%s: INVALID_ARGUMENT, nothing sent', async (_what, input, options, message) => {
    const { client } = clientFor(svc);
    const err = await failure(client.updateShippingAddress(input as never, options as never));
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', operation: 'updateShippingAddress' });
    expect(err.description).toMatch(message);
    expect(svc.count()).toBe(0);
  });

  test('refused locally once the order is dispatched; force sends', async () => {
    svc.answer(() => ({ status: 202 }));
    const store = await dispatchedStore('1234567890');
    const { client } = clientFor(svc, { store });
    expect(await failure(client.updateShippingAddress(ADDRESS))).toMatchObject({ code: 'ORDER_DISPATCHED' });
    expect(svc.count()).toBe(0);
    await client.updateShippingAddress(ADDRESS, { force: true });
    expect(svc.count()).toBe(1);
  });

  test('an error answer is a ServiceError with the service\'s code', async () => {
    svc.answer(() => ({ status: 409, body: { Code: 'ORDER_NOT_UPDATABLE', Message: 'The order was shipped' } }));
    const { client } = clientFor(svc);
    expect(await failure(client.updateShippingAddress(ADDRESS))).toMatchObject({ code: 'ORDER_NOT_UPDATABLE', status: 409 });
  });
});
