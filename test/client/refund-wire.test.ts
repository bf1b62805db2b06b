/**
 * CreateOrderRefund in the form the service reads (round 4, test/fixtures/real-world-4): the
 * service's own cartridge (link_globale OrderRefundUpdateOperation.js) sends the OrderRefund as JSON
 * in the `orderRefund` query parameter and the RefundProduct array as the body. The client sends that
 * form; the documented refusals 1001/1002 in both answer structs are definite errors, sent once; the
 * sandbox reads that form only — the client's request and one built from the fixture pass, the old
 * one-body form is refused.
 */
import { readFileSync } from 'node:fs';
import { createServiceClient } from 'crossborder-merchant-kit/client';
import { createSandbox, SANDBOX_MERCHANT_GUID, type Sandbox } from '../../lib/tools/sandbox/index.js';
import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure, GUID } from './setup.js';

const rw4 = (name: string): any => JSON.parse(readFileSync(new URL(`../fixtures/real-world-4/${name}`, import.meta.url), 'utf8'));
const WIRE = rw4('linkglobale-createorderrefund-wire.json');
const CODES = rw4('gedocs-createorderrefund-error-codes.json').codes as Array<{ code: number; text: string }>;

/** The refund the service documents in its NotifyOrderRefund example (SOURCES.md), as the merchant's request. */
const REFUND = {
  OrderId: 'GE69488861GB', TotalRefundAmount: '170.10', OriginalTotalRefundAmount: '114.53', ExternalReference: 'RMA-6543-refund',
  RefundReason: { OrderRefundReasonCode: 'DAMAGED-ITEM-CODE', Name: 'Damaged Item' },
  Products: [{ CartItemId: '12365', RefundQuantity: '3', RefundAmount: '170.10', OriginalRefundAmount: '114.53' }],
};

describe('the wire form of the cartridge', () => {
  let svc: FakeService;
  beforeEach(async () => { svc = await fakeService(() => ({ status: 200, body: { Success: true, RefundId: 789 } })); });
  afterEach(() => svc.close());

  test('method, path, the query parameters (merchantGUID, orderRefund = the OrderRefund\'s JSON), JSON content type, the RefundProducts array as the body', async () => {
    const { client } = clientFor(svc);
    await client.createOrderRefund(REFUND);
    const r = svc.received[0];
    expect([r.method, r.path]).toEqual([WIRE._request.method, WIRE._request.path]);
    expect([...r.query.keys()].sort()).toEqual(Object.keys(WIRE._request.query).sort());
    expect(r.query.get('merchantGUID')).toBe(GUID);
    expect(r.headers['content-type']).toBe(WIRE._request.headers['Content-Type']);
    const { Products, ...header } = REFUND;
    expect(JSON.parse(r.query.get('orderRefund')!)).toEqual(header);
    expect(Array.isArray(r.json)).toBe(true);
    expect(r.json).toEqual(Products);
    // nothing of the header travels in the body, nothing of the lines in the query
    expect(r.body).not.toContain('OrderId');
    expect(r.query.get('orderRefund')).not.toContain('CartItemId');
  });

  test.each(CODES.flatMap(({ code, text }) => [
    [`${code} as ErrorInfo (a numeric Code)`, code, { Code: code, Error: text }],
    [`${code} as ResponseInfo (Success false, its code)`, code, { Success: false, ErrorCode: String(code), Message: text }],
  ] as Array<[string, number, object]>))('%s: a definite error with the code, sent once, nothing recorded', async (_what, code, body) => {
    for (const status of [200, 400]) {
      svc.answer(() => ({ status, body }));
      const { client } = clientFor(svc);
      const before = svc.count();
      const err = await failure(client.createOrderRefund(REFUND));
      expect(err).toMatchObject({ name: 'ServiceError', code: String(code), operation: 'createOrderRefund', attempts: 1 });
      expect(svc.count() - before).toBe(1);
    }
  });
});

describe('the sandbox reads only the cartridge\'s form', () => {
  let sandbox: Sandbox;
  let url: string;
  beforeEach(async () => {
    sandbox = createSandbox({ port: 0, console: false });
    url = await sandbox.listen();
  });
  afterEach(() => sandbox.close());
  const client = () => createServiceClient({ baseUrl: url, merchantGuid: SANDBOX_MERCHANT_GUID, accessToken: 'any', retry: { retries: 0 } });
  const post = (query: string, body: unknown) => fetch(`${url}${WIRE._request.path}?merchantGUID=${SANDBOX_MERCHANT_GUID}${query}`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer any' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const line = (orderId: string) => sandbox.orders.get(orderId)!.lines[0];

  test('the client\'s refund is made', async () => {
    const res = await client().createOrderRefund({ OrderId: 'GE100000004SB', TotalRefundAmount: '2.00', Products: [{ CartItemId: line('GE100000004SB').cartItemId!, RefundQuantity: 1 }] });
    expect(res.Success).toBe(true);
    expect(sandbox.orders.get('GE100000004SB')!.refunds).toEqual([expect.objectContaining({ TotalRefundAmount: '2.00', RefundProducts: [expect.objectContaining({ RefundQuantity: '1' })] })]);
  });

  test('a request built from the fixture\'s description is made; the cartridge\'s empty body (no lines) too', async () => {
    const header = { OrderId: 'GE100000004SB', TotalRefundAmount: '1.00' };
    const made = await post(`&orderRefund=${encodeURIComponent(JSON.stringify(header))}`, [{ CartItemId: line('GE100000004SB').cartItemId, RefundQuantity: '1' }]);
    expect(made.status).toBe(200);
    const empty = await post(`&orderRefund=${encodeURIComponent(JSON.stringify({ ...header, TotalRefundAmount: '0.50' }))}`, undefined);
    expect(empty.status).toBe(200);
    expect(sandbox.orders.get('GE100000004SB')!.refunds).toHaveLength(2);
  });

  test.each<[string, string, unknown]>([
    ['the old one-body form', '', { orderRefund: { OrderId: 'GE100000004SB', TotalRefundAmount: '1.00' }, refundProductsList: [] }],
    ['a flat body', '', { OrderId: 'GE100000004SB', TotalRefundAmount: '1.00' }],
    ['orderRefund in the query, an object body', `&orderRefund=${encodeURIComponent(JSON.stringify({ OrderId: 'GE100000004SB', TotalRefundAmount: '1.00' }))}`, { refundProductsList: [] }],
    ['orderRefund that is not JSON', '&orderRefund=OrderId%3DGE100000004SB', []],
  ])('%s is refused (400 Success false), nothing refunded', async (_what, query, body) => {
    const res = await post(query, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ Success: false, Description: expect.stringContaining('orderRefund query parameter') });
    expect(sandbox.orders.get('GE100000004SB')!.refunds).toHaveLength(0);
  });

  test('the documented refusals: more than paid → 1002, a fully refunded order → 1001 (the client reads both as their codes)', async () => {
    const c = client();
    sandbox.orders.get('GE100000004SB')!.paid = { amount: '20.00', currency: 'EUR' };
    expect(await failure(c.createOrderRefund({ OrderId: 'GE100000004SB', TotalRefundAmount: '20.01' }))).toMatchObject({ code: '1002', attempts: 1 });
    await c.createOrderRefund({ OrderId: 'GE100000004SB', FullRefund: true });
    expect(await failure(c.createOrderRefund({ OrderId: 'GE100000004SB', TotalRefundAmount: '1.00' }))).toMatchObject({ code: '1001', attempts: 1 });
  });
});
