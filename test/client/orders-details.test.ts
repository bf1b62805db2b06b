/** getOrdersDetails against a recorded fake service: POST /Order/GetOrdersDetails { OrderIds } → a list of Merchant.Order, typed. */
import type { MerchantOrder } from 'crossborder-merchant-kit';
import { fixture as fromFixtures } from '../fixtures/index.js';
import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure, GUID } from './setup.js';

const PATH = '/Order/GetOrdersDetails';
const ANSWER = fromFixtures('service/orders-details-response.json');
let svc: FakeService;
beforeEach(async () => { svc = await fakeService(() => ({ status: 200, body: ANSWER })); });
afterEach(() => svc.close());

describe('getOrdersDetails', () => {
  test('POST {baseUrl}/Order/GetOrdersDetails?merchantGUID=… with { OrderIds }; the orders come back typed', async () => {
    const { client } = clientFor(svc);
    const orders: MerchantOrder[] = await client.getOrdersDetails([ANSWER[0].OrderId, 'GE2']);
    const r = svc.received[0];
    expect(r).toMatchObject({ method: 'POST', path: PATH, json: { OrderIds: [ANSWER[0].OrderId, 'GE2'] } });
    expect(r.query.get('merchantGUID')).toBe(GUID);
    expect(orders).toEqual(JSON.parse(JSON.stringify(ANSWER, (_k, v) => (v === null ? undefined : v))));
    expect(orders[0].Products?.[0].SKU).toBe(ANSWER[0].Products[0].SKU);
  });

  test('nulls the service sends are read as absent; one order as an object is a list of one', async () => {
    svc.answer(() => ({ status: 200, body: { ...ANSWER[0], Discounts: null, MerchantOrderId: null } }));
    const { client } = clientFor(svc);
    const [order] = await client.getOrdersDetails(['GE1']);
    expect(order).not.toHaveProperty('Discounts');
    expect(order.OrderId).toBe(ANSWER[0].OrderId);
  });

  test('a read: a 503 is retried; an answer that is not orders is INVALID_RESPONSE (no partial data); the error shape is the service error', async () => {
    let n = 0;
    svc.answer(() => (n++ === 0 ? { status: 503, body: 'busy' } : { status: 200, body: ANSWER }));
    const { client } = clientFor(svc);
    expect(await client.getOrdersDetails(['GE1'])).toHaveLength(1);
    expect(svc.count()).toBe(2);
    svc.answer(() => ({ status: 200, body: [{ ...ANSWER[0], Products: 'none' }] }));
    const bad = await failure(client.getOrdersDetails(['GE1']));
    expect(bad).toMatchObject({ code: 'INVALID_RESPONSE' });
    expect(bad.description).toContain('/0');
    svc.answer(() => ({ status: 200, body: { Code: 'B001', Error: 'Order ID not found' } }));
    expect(await failure(client.getOrdersDetails(['GE1']))).toMatchObject({ code: 'B001', retryable: false });
  });

  test.each([[[]], [['']], ['GE1'], [undefined]])('%j is INVALID_ARGUMENT and sends nothing', async (ids) => {
    const { client } = clientFor(svc);
    expect(await failure(client.getOrdersDetails(ids as never))).toMatchObject({ code: 'INVALID_ARGUMENT', operation: 'getOrdersDetails', attempts: 0 });
    expect(svc.count()).toBe(0);
  });
});
