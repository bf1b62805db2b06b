/**
 * CreateOrderRefund and GetRefundDetails against a recorded fake service (request line, headers,
 * body and answers as docs.global-e.com documents them), and the rule a merchant relies on: a refund
 * is never sent twice — not after a time-out, a reset or a 5xx, unless its ExternalReference was
 * first looked up with GetRefundDetails and found absent.
 */
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { orderActions } from '../../lib/store/order-actions.js';
import { fakeService, refusingUrl, type FakeService } from './fake-service.js';
import { clientFor, failure, GUID, TOKEN } from './setup.js';

let svc: FakeService;
beforeEach(async () => { svc = await fakeService(() => ({ status: 200, body: { Success: true, RefundId: 789 } })); });
afterEach(async () => { await svc.close(); });

const REFUND_PATH = '/Order/CreateOrderRefund';
/**
 * The client time-out of the tests whose refund answer is lost: the client looks the refund up no
 * sooner than timeoutMs after it was sent, and the fake service answers at once, so a short
 * time-out only shortens that wait (the default 2 s made these tests wait 2 s each).
 */
const LOOKUP_AFTER_MS = 500;
const DETAILS_PATH = '/v1/orders/GE69488861GB/refunds';

const partial = (extra: Record<string, unknown> = {}) => ({
  OrderId: 'GE69488861GB', TotalRefundAmount: '170.10', RefundReason: { OrderRefundReasonCode: 'DAMAGED-ITEM-CODE', Name: 'Damaged Item' },
  RefundComments: 'Damaged in transit', Products: [{ CartItemId: '12365', RefundQuantity: 3, RefundAmount: '170.1000', OriginalRefundAmount: '114.5300' }],
  ...extra,
});

/** The page's GetRefundDetails example, with the values of one refund. */
const details = (refunds: Record<string, unknown>[]) => ({
  OrderId: 'GE69488861GB', MerchantOrderId: '14123332', MerchantInternalOrderId: 'A-1', WebStoreCode: null, WebStoreInstanceCode: null,
  Refunds: refunds.map((r) => ({
    RefundID: '789', RMANumber: null, FullRefund: false, TotalRefundAmount: '170.10', OriginalTotalRefundAmount: '114.53', ServiceGestureAmount: '0.00',
    ExternalReference: null, InitiatedBy: 'Merchant', CurrencyCode: 'CAD', OriginalCurrencyCode: 'USD', RefundProducts: [], ...r,
  })),
});

/** A store that knows the order was paid `amount`. */
async function paidStore(amount = '200.00'): Promise<MemoryStore> {
  const store = new MemoryStore();
  await store.saveRecord({
    key: 'sendOrderToMerchant:GE69488861GB:h1', callback: 'sendOrderToMerchant', orderId: 'GE69488861GB', hash: 'h1', payment: true,
    response: { Success: true, InternalOrderId: 'A-1', PaymentAmount: amount, PaymentCurrencyCode: 'CAD' },
  });
  return store;
}

describe('createOrderRefund: what goes out', () => {
  test('POST {baseUrl}/Order/CreateOrderRefund?merchantGUID=…&orderRefund=<JSON>, the bearer token, the RefundProducts array as the body, amounts as text', async () => {
    const { client } = clientFor(svc);
    const res = await client.createOrderRefund(partial({ ExternalReference: 'RMA-1-refund', ServiceGestureAmount: 5 }));
    expect(res).toEqual({ Success: true, RefundId: 789 });
    expect(svc.received).toHaveLength(1);
    const r = svc.received[0];
    expect([r.method, r.path, r.query.get('merchantGUID')]).toEqual(['POST', REFUND_PATH, GUID]);
    expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(r.headers['content-type']).toBe('application/json');
    expect(JSON.parse(r.query.get('orderRefund')!)).toEqual({
      OrderId: 'GE69488861GB', TotalRefundAmount: '170.10', ServiceGestureAmount: '5.00', ExternalReference: 'RMA-1-refund',
      RefundReason: { OrderRefundReasonCode: 'DAMAGED-ITEM-CODE', Name: 'Damaged Item' }, RefundComments: 'Damaged in transit',
    });
    expect(r.json).toEqual([{ CartItemId: '12365', RefundQuantity: 3, RefundAmount: '170.1000', OriginalRefundAmount: '114.5300' }]);
  });

  test('a full refund goes with an empty product list; externalReference (the page\'s spelling) goes out as ExternalReference', async () => {
    const { client } = clientFor(svc);
    await client.createOrderRefund({ OrderId: 'GE69488861GB', FullRefund: true, externalReference: 'full-1' });
    expect(JSON.parse(svc.received[0].query.get('orderRefund')!)).toEqual({ OrderId: 'GE69488861GB', FullRefund: true, ExternalReference: 'full-1' });
    expect(svc.received[0].json).toEqual([]);
  });

  test.each<[string, Record<string, unknown>, RegExp]>([
    ['a misspelt field', { TotalRefundAmmount: '1.00' }, /did you mean TotalRefundAmount/],
    ['a negative amount', { TotalRefundAmount: '-5.00' }, /TotalRefundAmount must be a non-negative decimal/],
    ['an amount in words', { ShippingAmount: 'ten' }, /ShippingAmount must be/],
    ['a full refund with products', { FullRefund: true }, /FullRefund takes no Products/],
    ['a product without id', { Products: [{ RefundQuantity: 1 }] }, /needs CartItemId or ProductCode/],
    ['a zero quantity', { Products: [{ CartItemId: '1', RefundQuantity: 0 }] }, /RefundQuantity must be a whole number > 0/],
    ['a reference too long', { ExternalReference: 'x'.repeat(256) }, /ExternalReference/],
    ['two references', { ExternalReference: 'a', externalReference: 'b' }, /differ/],
  ])('%s: INVALID_ARGUMENT, nothing sent', async (_what, change, message) => {
    const { client } = clientFor(svc);
    const err = await failure(client.createOrderRefund(partial(change) as never));
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', operation: 'createOrderRefund', attempts: 0 });
    expect(err.description).toMatch(message);
    expect(svc.count()).toBe(0);
  });

  test('a partial refund with nothing to refund is refused', async () => {
    const { client } = clientFor(svc);
    expect(await failure(client.createOrderRefund({ OrderId: 'GE1' }))).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('createOrderRefund: never sent twice', () => {
  // timeoutMs: generous where the service answers at once (a loaded machine must not time the request out before it
  // is sent); for the time-out itself, long enough to send the body, shorter than the service's delay.
  test.each<[string, () => object, number]>([
    ['a 500', () => ({ status: 500, body: { Code: 'INTERNAL_ERROR', Error: 'failure during request handling' } }), 10_000],
    ['a 503 with Retry-After', () => ({ status: 503, headers: { 'retry-after': '0' } }), 10_000],
    ['a 429', () => ({ status: 429 }), 10_000],
    ['a reset connection', () => ({ destroy: true }), 10_000],
    ['a time-out after the body was sent', () => ({ delayMs: 3000, status: 200, body: { Success: true } }), 1000],
  ])('%s without an ExternalReference: REFUND_OUTCOME_UNKNOWN after ONE request, saying what to do', async (_what, reply, timeoutMs) => {
    svc.answer(reply as never);
    const { client } = clientFor(svc, { timeoutMs });
    const err = await failure(client.createOrderRefund(partial()));
    expect(err).toMatchObject({ name: 'ServiceError', code: 'REFUND_OUTCOME_UNKNOWN', operation: 'createOrderRefund', retryable: false });
    expect(err.description).toMatch(/may have been made and was not sent again/);
    expect(err.description).toMatch(/getRefundDetails/);
    expect(svc.count(REFUND_PATH)).toBe(1);
    expect(svc.count(DETAILS_PATH)).toBe(0);
  });

  test('with an ExternalReference, a lost answer is looked up: GetRefundDetails lists it → resolved once, not sent again', async () => {
    svc.answer((req) => (req.path === REFUND_PATH ? { destroy: true } : { status: 200, body: details([{ RefundID: '790', ExternalReference: 'ref-7' }]) }));
    const store = new MemoryStore();
    const { client, log } = clientFor(svc, { store, timeoutMs: LOOKUP_AFTER_MS });
    const res = await client.createOrderRefund(partial({ ExternalReference: 'ref-7' }));
    expect(res).toMatchObject({ Success: true, confirmedBy: 'getRefundDetails', RefundId: '790', refund: { ExternalReference: 'ref-7' } });
    expect(svc.count(REFUND_PATH)).toBe(1);
    expect(svc.count(DETAILS_PATH)).toBe(1);
    // recorded like any accepted refund: its RefundId (for NotifyOrderRefunded) and its reference (no second one)
    expect((await orderActions(store, 'refund', 'GE69488861GB')).map((a) => a.details)).toEqual([
      expect.objectContaining({ RefundId: '790', ExternalReference: 'ref-7', amount: '170.10' }),
    ]);
    expect(log.lines.some((l) => l.level === 'warn' && l.obj.operation === 'createOrderRefund' && /GetRefundDetails lists it/.test(l.msg ?? ''))).toBe(true);
  });

  test('with an ExternalReference, absence confirmed first, then sent again: GET before the second POST', async () => {
    svc.answer((req, nth) => {
      if (req.path === DETAILS_PATH) return { status: 200, body: details([{ ExternalReference: 'another' }]) };
      return nth === 1 ? { status: 502 } : { status: 200, body: { Success: true, RefundId: 791 } };
    });
    const { client, log } = clientFor(svc, { timeoutMs: LOOKUP_AFTER_MS });
    expect(await client.createOrderRefund(partial({ ExternalReference: 'ref-8' }))).toEqual({ Success: true, RefundId: 791 });
    expect(svc.received.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${REFUND_PATH}`, `GET ${DETAILS_PATH}`, `POST ${REFUND_PATH}`]);
    expect(svc.received[2].json).toEqual(svc.received[0].json);
    expect(log.lines.some((l) => l.obj.operation === 'createOrderRefund' && l.obj.attempt === 1 && /confirms it was not made/.test(l.msg ?? ''))).toBe(true);
  });

  test.each([
    // [what, client time-out, retry back-off, when the service commits the refund after the request arrived]
    ['a back-off longer than the time-out: the client waits the back-off', 50, 600, 100],
    // looked up about 2 × 300 ms after the request, 200 ms after the commit; without the timeoutMs wait, at 301 ms: before it
    ['a short back-off: the client still waits at least timeoutMs', 300, 1, 400],
  ])('a refund the service is still making when the answer is lost is found, not made twice (%s)', async (_what, timeoutMs, delayMs, commitMs) => {
    let committed = false;
    svc.answer((req) => {
      if (req.path === DETAILS_PATH) return { status: 200, body: details(committed ? [{ ExternalReference: 'ref-slow' }] : []) };
      setTimeout(() => { committed = true; }, commitMs);
      return { delayMs: 1_000, status: 200, body: { Success: true } };
    });
    const { client } = clientFor(svc, { timeoutMs, retry: { retries: 2, minDelayMs: delayMs, maxDelayMs: delayMs } });
    expect(await client.createOrderRefund(partial({ ExternalReference: 'ref-slow' }))).toMatchObject({ confirmedBy: 'getRefundDetails' });
    expect(svc.count(REFUND_PATH)).toBe(1);
  });

  test('with an ExternalReference, GetRefundDetails failing too: REFUND_OUTCOME_UNKNOWN, one POST', async () => {
    svc.answer((req) => (req.path === DETAILS_PATH ? { status: 400, body: { Code: 'B001', Message: 'Order ID not found' } } : { status: 500 }));
    const { client } = clientFor(svc, { timeoutMs: LOOKUP_AFTER_MS });
    const err = await failure(client.createOrderRefund(partial({ ExternalReference: 'ref-9' })));
    expect(err.code).toBe('REFUND_OUTCOME_UNKNOWN');
    expect(err.description).toMatch(/GetRefundDetails could not confirm it either \(B001\)/);
    expect(svc.count(REFUND_PATH)).toBe(1);
  });

  test('an answer without the Refunds list is no proof of absence: not sent again', async () => {
    svc.answer((req) => (req.path === DETAILS_PATH ? { status: 200, body: { OrderId: 'GE69488861GB' } } : { status: 500 }));
    const { client } = clientFor(svc, { timeoutMs: LOOKUP_AFTER_MS });
    expect((await failure(client.createOrderRefund(partial({ ExternalReference: 'ref-10' })))).code).toBe('REFUND_OUTCOME_UNKNOWN');
    expect(svc.count(REFUND_PATH)).toBe(1);
  });

  test('resent at most retry.retries times, each after a fresh look', async () => {
    svc.answer((req) => (req.path === DETAILS_PATH ? { status: 200, body: details([]) } : { status: 500 }));
    const { client } = clientFor(svc, { timeoutMs: 100, retry: { retries: 1, minDelayMs: 1, maxDelayMs: 5 } });
    const err = await failure(client.createOrderRefund(partial({ ExternalReference: 'ref-11' })));
    expect(err.code).toBe('REFUND_OUTCOME_UNKNOWN');
    expect(err.description).toMatch(/does not list it \(after 2 attempt\(s\), each looked up at least timeoutMs after the request\); look the ExternalReference up again/);
    expect(svc.received.map((r) => r.method)).toEqual(['POST', 'GET', 'POST', 'GET']);
  });

  test('a refused connection (nothing sent) is retried as usual and fails NETWORK, not "unknown"', async () => {
    const { client } = clientFor(svc, { baseUrl: await refusingUrl() });
    const err = await failure(client.createOrderRefund(partial()));
    expect(err).toMatchObject({ code: 'NETWORK', mayHaveReached: false, attempts: 3 });
  });

  test('a definitive refusal (400) is the service\'s error, sent once', async () => {
    svc.answer(() => ({ status: 400, body: { Code: 'B001', Message: 'Order ID not found', Description: 'The Order GE1 does not exist.' } }));
    const { client } = clientFor(svc);
    expect(await failure(client.createOrderRefund(partial()))).toMatchObject({ code: 'B001', status: 400 });
    expect(svc.count()).toBe(1);
  });

  test.each([[{ Success: false, Message: 'refund exceeds' }], [{ Success: 'false', Message: 'refund exceeds' }], [{ Code: 'R01', Error: 'Full refund requested but list of RefundProduct is not empty.' }]])(
    'a 200 that says no (%j) is a failure', async (body) => {
      svc.answer(() => ({ status: 200, body }));
      const { client } = clientFor(svc);
      const err = await failure(client.createOrderRefund(partial()));
      expect(err.name).toBe('ServiceError');
      expect(svc.count()).toBe(1);
    });

  test.each<[string, unknown]>([
    ['Success as text, as one page writes it', { Success: 'true' }],
    ['Success as text in another case', { Success: ' True ' }],
    ['only the RefundId', { RefundId: 789 }],
    ['a RefundId beside a Code', { RefundId: 789, Code: 'OK', Message: 'created' }],
    ['a RefundID (the details\' spelling) beside a Code', { RefundID: '789', Code: 'OK' }],
    ['Success true beside a warning Code', { Success: true, Code: 'W001', Error: 'a warning' }],
    ['no body at all (the refund made)', undefined],
  ])('%s is success, sent once', async (_what, body) => {
    svc.answer(() => ({ status: 200, body }));
    const { client } = clientFor(svc);
    expect(await client.createOrderRefund(partial())).toMatchObject({ Success: true });
    expect(svc.count()).toBe(1);
  });

  test.each<[string, unknown]>([['Success "False"', { Success: 'False', Message: 'no' }], ['Success " false "', { Success: ' false ' }]])('%s is a refusal', async (_what, body) => {
    svc.answer(() => ({ status: 200, body }));
    const { client } = clientFor(svc);
    expect((await failure(client.createOrderRefund(partial()))).code).not.toBe('REFUND_OUTCOME_UNKNOWN');
  });

  test.each<[string, () => object]>([
    ['a 501', () => ({ status: 501 })],
    ['a 2xx whose body is a proxy\'s page', () => ({ status: 200, body: '<html>ok</html>' })],
    ['a 2xx whose body is JSON but no object', () => ({ status: 200, body: '["ok"]' })],
    ['a 2xx whose body is larger than maxResponseBytes', () => ({ status: 200, body: { Success: true, Padding: 'x'.repeat(5_000) } })],
  ])('%s: the refund may have been made: REFUND_OUTCOME_UNKNOWN, one request; with an ExternalReference it is looked up', async (_what, reply) => {
    svc.answer((req) => (req.path === DETAILS_PATH ? { status: 200, body: details([{ ExternalReference: 'ref-big' }]) } : reply()));
    const { client } = clientFor(svc, { maxResponseBytes: 4_000, timeoutMs: LOOKUP_AFTER_MS });
    expect((await failure(client.createOrderRefund(partial()))).code).toBe('REFUND_OUTCOME_UNKNOWN');
    expect(await client.createOrderRefund(partial({ ExternalReference: 'ref-big' }))).toMatchObject({ confirmedBy: 'getRefundDetails' });
    expect(svc.count(REFUND_PATH)).toBe(2);
  });

  test('no access token (nothing sent) and a redirect (not followed) are what they are, not "unknown"', async () => {
    const { client } = clientFor(svc, { accessToken: () => { throw new Error('vault down'); } });
    expect(await failure(client.createOrderRefund(partial({ ExternalReference: 'r-t' })))).toMatchObject({ code: 'ACCESS_TOKEN_UNAVAILABLE' });
    svc.answer(() => ({ status: 307, headers: { location: 'http://127.0.0.1:9/' } }));
    const other = clientFor(svc).client;
    expect(await failure(other.createOrderRefund(partial({ ExternalReference: 'r-r' })))).toMatchObject({ code: 'HTTP_307' });
    expect(svc.count(REFUND_PATH)).toBe(1);
    expect(svc.count(DETAILS_PATH)).toBe(0);
  });
});

describe('createOrderRefund with the kit\'s store', () => {
  test('more than the paid total, with the refunds already accepted, is refused locally; force sends it', async () => {
    const store = await paidStore('200.00');
    const { client, log } = clientFor(svc, { store });
    await client.createOrderRefund(partial({ TotalRefundAmount: '150.00' }));
    await client.createOrderRefund(partial({ TotalRefundAmount: '50.00' })); // exactly the total: allowed
    const err = await failure(client.createOrderRefund(partial({ TotalRefundAmount: '0.01' })));
    expect(err).toMatchObject({ code: 'REFUND_EXCEEDS_PAID', attempts: 0 });
    expect(err.description).toMatch(/\(0\.01\) with the 2 accepted before \(200\.00\) is more than the paid total 200\.00 CAD/);
    expect(svc.count()).toBe(2);
    await client.createOrderRefund(partial({ TotalRefundAmount: '0.01' }), { force: true });
    expect(svc.count()).toBe(3);
    expect(log.text()).toMatch(/force: true/);
  });

  test('without TotalRefundAmount the guard adds the lines and components exactly (0.1 + 0.2 is 0.30)', async () => {
    const store = await paidStore('0.30');
    const { client } = clientFor(svc, { store });
    await client.createOrderRefund({ OrderId: 'GE69488861GB', Products: [{ CartItemId: '1', RefundQuantity: 1, RefundAmount: 0.1 }], ShippingAmount: 0.2 });
    expect((await failure(client.createOrderRefund({ OrderId: 'GE69488861GB', ServiceGestureAmount: '0.01' }))).code).toBe('REFUND_EXCEEDS_PAID');
  });

  test('a refund whose amount only the service computed (TotalRefundAmount a number in its answer) counts towards the paid total', async () => {
    const store = await paidStore('100.00');
    svc.answer(() => ({ status: 200, body: { Success: true, RefundId: 801, TotalRefundAmount: 100 } }));
    const { client } = clientFor(svc, { store });
    await client.createOrderRefund({ OrderId: 'GE69488861GB', Products: [{ CartItemId: '1', RefundQuantity: 1 }] });
    expect((await orderActions(store, 'refund', 'GE69488861GB')).map((a) => a.details.amount)).toEqual(['100.00']);
    expect((await failure(client.createOrderRefund(partial({ TotalRefundAmount: '0.01' })))).code).toBe('REFUND_EXCEEDS_PAID');
    expect(svc.count()).toBe(1);
  });

  test('concurrent refunds of one order are checked one after the other', async () => {
    const store = await paidStore('100.00');
    svc.answer(() => ({ status: 200, delayMs: 30, body: { Success: true } }));
    const { client } = clientFor(svc, { store });
    const results = await Promise.allSettled([1, 2, 3].map(() => client.createOrderRefund(partial({ TotalRefundAmount: '40.00' }))));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect(svc.count()).toBe(2);
  });

  test('after a full refund, nothing is left: a partial or a second full refund is refused locally', async () => {
    const store = await paidStore('100.00');
    const { client } = clientFor(svc, { store });
    await client.createOrderRefund({ OrderId: 'GE69488861GB', FullRefund: true });
    for (const refund of [{ OrderId: 'GE69488861GB', TotalRefundAmount: '1.00' }, { OrderId: 'GE69488861GB', FullRefund: true }]) {
      const err = await failure(client.createOrderRefund(refund));
      expect(err).toMatchObject({ code: 'REFUND_EXCEEDS_PAID' });
      expect(err.description).toMatch(/was fully refunded/);
    }
    expect(svc.count()).toBe(1);
  });

  test('a full refund after partial ones, and lines whose amounts the service computes, are left to the service', async () => {
    const store = await paidStore('100.00');
    const { client } = clientFor(svc, { store });
    await client.createOrderRefund(partial({ TotalRefundAmount: '60.00' }));
    await client.createOrderRefund({ OrderId: 'GE69488861GB', Products: [{ CartItemId: '12365', RefundQuantity: 1 }] });
    await client.createOrderRefund({ OrderId: 'GE69488861GB', FullRefund: true });
    expect(svc.count()).toBe(3);
  });

  test('an unknown paid total (no payment stored) is no reason to refuse', async () => {
    const { client } = clientFor(svc, { store: new MemoryStore() });
    await client.createOrderRefund(partial({ TotalRefundAmount: '9999.00' }));
    expect(svc.count()).toBe(1);
  });

  test('a reference already accepted is refused locally (DUPLICATE_REFUND); another reference goes', async () => {
    const store = await paidStore();
    const { client } = clientFor(svc, { store });
    await client.createOrderRefund(partial({ TotalRefundAmount: '1.00', ExternalReference: 'r-1' }));
    expect(await failure(client.createOrderRefund(partial({ TotalRefundAmount: '1.00', ExternalReference: 'r-1' })))).toMatchObject({ code: 'DUPLICATE_REFUND', attempts: 0 });
    await client.createOrderRefund(partial({ TotalRefundAmount: '1.00', ExternalReference: 'r-2' }));
    expect(svc.count()).toBe(2);
  });

  test('a store that cannot be read refuses (fails closed); force sends', async () => {
    const store = await paidStore();
    store.getPayment = async () => { throw new Error('db down'); };
    const { client } = clientFor(svc, { store });
    expect(await failure(client.createOrderRefund(partial()))).toMatchObject({ code: 'STORE_UNAVAILABLE', retryable: true });
    expect(svc.count()).toBe(0);
    await client.createOrderRefund(partial(), { force: true });
    expect(svc.count()).toBe(1);
  });

  test('the options argument is checked', async () => {
    const { client } = clientFor(svc);
    expect(await failure(client.createOrderRefund(partial(), { forse: true } as never))).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('getRefundDetails', () => {
  test('GET {baseUrl}/v1/orders/{orderId}/refunds?merchantGUID=…: the page\'s answer, amounts as text', async () => {
    svc.answer(() => ({ status: 200, body: details([{ ExternalReference: 'ref-1' }]) }));
    const { client } = clientFor(svc);
    const res = await client.getRefundDetails('GE69488861GB');
    expect(res.Refunds[0]).toMatchObject({ RefundID: '789', TotalRefundAmount: '170.10', ExternalReference: 'ref-1' });
    const r = svc.received[0];
    expect([r.method, r.path, r.query.get('merchantGUID'), r.body]).toEqual(['GET', DETAILS_PATH, GUID, '']);
  });

  test('the answer wrapped as { MerchantOrderRefund } is unwrapped; the order id is encoded in the path', async () => {
    svc.answer(() => ({ status: 200, body: { MerchantOrderRefund: details([]) } }));
    const { client } = clientFor(svc);
    expect((await client.getRefundDetails('GE 1/2')).Refunds).toEqual([]);
    expect(svc.received[0].path).toBe('/v1/orders/GE%201%2F2/refunds');
  });

  test('a read: a 500 is retried; 400 (order not found) is not', async () => {
    svc.answer((_r, nth) => (nth === 1 ? { status: 500 } : { status: 200, body: details([]) }));
    const { client } = clientFor(svc);
    await client.getRefundDetails('GE69488861GB');
    expect(svc.count()).toBe(2);
    svc.answer(() => ({ status: 400, body: { Code: 'B001', Message: 'Order ID not found' } }));
    expect(await failure(client.getRefundDetails('GE69488861GB'))).toMatchObject({ code: 'B001', attempts: 1 });
  });

  test.each([[''], ['.'], ['..'], ['x'.repeat(201)]])('order id %j: INVALID_ARGUMENT', async (id) => {
    const { client } = clientFor(svc);
    expect(await failure(client.getRefundDetails(id))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(svc.count()).toBe(0);
  });
});
