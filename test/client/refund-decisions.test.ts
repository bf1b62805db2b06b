/**
 * Each money decision of createOrderRefund (lib/client/create-order-refund.ts, lib/client/amount.ts),
 * one test each, so that a change to any of them fails a test (issue 47 item 8: the refund guard's
 * mutation area, measured whole). What goes out is read in either request form (the body's
 * `orderRefund` member or the `orderRefund` query parameter), so these tests hold the decisions, not
 * the wire form (test/client/refund.test.ts holds that).
 */
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { paymentKey } from '../../lib/store/capabilities.js';
import { orderAction, orderActions } from '../../lib/store/order-actions.js';
import { fakeService, type FakeService, type Received } from './fake-service.js';
import { clientFor, failure } from './setup.js';

let svc: FakeService;
beforeEach(async () => { svc = await fakeService(() => ({ status: 200, body: { Success: true, RefundId: 789 } })); });
afterEach(async () => { await svc.close(); });

const ORDER = 'GE69488861GB';
const REFUND_PATH = '/Order/CreateOrderRefund';
const DETAILS_PATH = `/v1/orders/${ORDER}/refunds`;
/** The client looks a lost refund up no sooner than timeoutMs after sending it (see refund.test.ts). */
const LOOKUP_AFTER_MS = 500;

/** The OrderRefund the service received, in either form. */
function sentRefund(r: Received): Record<string, any> {
  const q = r.query.get('orderRefund');
  return q !== null ? JSON.parse(q) : r.json.orderRefund;
}

/** The RefundProducts the service received, in either form ([] for none). */
function sentProducts(r: Received): Record<string, any>[] {
  if (Array.isArray(r.json)) return r.json;
  return r.json?.refundProductsList ?? [];
}

const details = (refunds: Record<string, unknown>[]) => ({
  OrderId: ORDER, MerchantOrderId: '14123332', Refunds: refunds.map((r) => ({
    RefundID: '789', FullRefund: false, TotalRefundAmount: '170.10', ExternalReference: null, InitiatedBy: 'Merchant', RefundProducts: [], ...r,
  })),
});

/** A store that knows the order was paid: `payment` is the payment reply's PaymentAmount and PaymentCurrencyCode (absent when not given). */
async function paidStore(payment: { amount?: unknown; currency?: unknown } = { amount: '200.00', currency: 'CAD' }, key = `sendOrderToMerchant:${ORDER}:h1`): Promise<MemoryStore> {
  const store = new MemoryStore();
  await store.saveRecord({
    key, callback: 'sendOrderToMerchant', orderId: ORDER, hash: 'h1', payment: true,
    response: {
      Success: true, InternalOrderId: 'A-1', ...('amount' in payment ? { PaymentAmount: payment.amount } : {}),
      ...('currency' in payment ? { PaymentCurrencyCode: payment.currency } : {}),
    } as never, // a payment reply as an adapter may return it: the amount also as a number or worse
  });
  return store;
}
const paid = (amount: unknown) => paidStore({ amount, currency: 'CAD' });

describe('an answer of the service: is the refund perhaps made (never resent blindly) or refused?', () => {
  test.each([[500], [501], [502], [503], [504], [599], [408], [429]])('HTTP %i: REFUND_OUTCOME_UNKNOWN after one request, its status and cause kept', async (status) => {
    svc.answer(() => ({ status, body: { Code: 'E1', Error: 'failure during request handling' } }));
    const { client } = clientFor(svc);
    const err = await failure(client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '10.00' }));
    expect(err).toMatchObject({ code: 'REFUND_OUTCOME_UNKNOWN', status, attempts: 1, retryable: false, cause: { code: 'E1', status } });
    expect(err.description).toMatch(new RegExp(`^E1: failure during request handling; the refund of order ${ORDER} may have been made and was not sent again\\. Look it up`));
    expect(svc.count()).toBe(1);
  });

  test.each([[400], [401], [404], [409], [422], [499]])('HTTP %i: the service\'s refusal (nothing refunded), sent once, not looked up', async (status) => {
    svc.answer(() => ({ status, body: { Code: 'R1', Message: 'refused' } }));
    const { client } = clientFor(svc);
    const err = await failure(client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '10.00', ExternalReference: 'ref-4xx' }));
    expect(err).toMatchObject({ code: 'R1', status });
    expect(svc.count(REFUND_PATH)).toBe(1);
    expect(svc.count(DETAILS_PATH)).toBe(0);
  });

  test('exactly 500 with an ExternalReference: looked up before anything else; listed → resolved, not sent again', async () => {
    svc.answer((req) => (req.path === DETAILS_PATH ? { status: 200, body: details([{ ExternalReference: 'ref-500', RefundID: '900' }]) } : { status: 500 }));
    const { client } = clientFor(svc, { timeoutMs: LOOKUP_AFTER_MS });
    expect(await client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '10.00', ExternalReference: 'ref-500' }))
      .toEqual(expect.objectContaining({ Success: true, confirmedBy: 'getRefundDetails', RefundId: '900' }));
    expect(svc.received.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${REFUND_PATH}`, `GET ${DETAILS_PATH}`]);
  });

  test.each<[string, number, string]>([
    ['a 2xx', 200, 'REFUND_OUTCOME_UNKNOWN'],
    ['a 500', 500, 'REFUND_OUTCOME_UNKNOWN'],
    ['a 503', 503, 'REFUND_OUTCOME_UNKNOWN'],
    ['a 429', 429, 'REFUND_OUTCOME_UNKNOWN'],
    ['a 400', 400, 'INVALID_RESPONSE'],
  ])('an answer too large to read (INVALID_RESPONSE) with %s: %s', async (_what, status, code) => {
    svc.answer(() => ({ status, body: { Padding: 'x'.repeat(5_000) } }));
    const { client } = clientFor(svc, { maxResponseBytes: 1_000 });
    const err = await failure(client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '10.00' }));
    expect(err).toMatchObject({ code, status });
    if (code === 'REFUND_OUTCOME_UNKNOWN') expect(err.cause).toMatchObject({ code: 'INVALID_RESPONSE', status });
    expect(svc.count()).toBe(1);
  });

  test('a 2xx that is no JSON object: REFUND_OUTCOME_UNKNOWN saying so', async () => {
    svc.answer(() => ({ status: 200, body: 'OK' }));
    const { client } = clientFor(svc);
    const err = await failure(client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '10.00' }));
    expect(err).toMatchObject({ code: 'REFUND_OUTCOME_UNKNOWN', status: 200, cause: { code: 'INVALID_RESPONSE', status: 200, attempts: 1 } });
    expect(err.description).toMatch(/^INVALID_RESPONSE: the 2xx answer is not a JSON object; /);
  });

  test('a 2xx of blanks is the refund made (an empty answer)', async () => {
    svc.answer(() => ({ status: 200, body: '  \n' }));
    const store = await paidStore();
    const { client } = clientFor(svc, { store });
    expect(await client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '10.00' })).toEqual({ Success: true });
    expect((await orderActions(store, 'refund', ORDER)).map((a) => a.details.amount)).toEqual(['10.00']);
  });

  test('Success "true" as text comes back as Success: true (a boolean), the other members kept', async () => {
    svc.answer(() => ({ status: 200, body: { Success: 'true', RefundId: 5, Note: 'n' } }));
    const { client } = clientFor(svc);
    expect(await client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '10.00' })).toEqual({ Success: true, RefundId: 5, Note: 'n' });
  });

  test('Success: false beside a RefundId is a refusal saying so', async () => {
    svc.answer(() => ({ status: 200, body: { Success: false, RefundId: 5 } }));
    const store = await paidStore();
    const { client } = clientFor(svc, { store });
    const err = await failure(client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '10.00' }));
    expect(err).toMatchObject({ name: 'ServiceError', code: 'HTTP_200', status: 200 });
    expect(err.description).toMatch(/the service answered Success: false/);
    expect(await orderActions(store, 'refund', ORDER)).toEqual([]);
  });
});

describe('what the refund says: checked before anything is sent', () => {
  test.each<[string, Record<string, unknown>, RegExp]>([
    ['text after the amount (the amount pattern\'s end anchor: 10.00abc is no 10.00)', { TotalRefundAmount: '10.00abc' }, /TotalRefundAmount must be a non-negative decimal amount/],
    ['text before the amount', { ShippingAmount: 'EUR10.00' }, /ShippingAmount must be/],
    ['16 whole digits', { DutiesAmount: '1234567890123456' }, /DutiesAmount must be/],
    ['7 places', { ServiceGestureAmount: '1.1234567' }, /ServiceGestureAmount must be/],
    ['a negative number', { OriginalTotalRefundAmount: -1 }, /OriginalTotalRefundAmount must be/],
    ['a line amount with text after it', { Products: [{ CartItemId: '1', RefundAmount: '5.00 CAD' }] }, /Products\[0\]\.RefundAmount must be/],
    ['a line\'s original amount in words', { Products: [{ CartItemId: '1', OriginalRefundAmount: 'five' }], TotalRefundAmount: '1' }, /Products\[0\]\.OriginalRefundAmount must be/],
    ['a fractional quantity', { Products: [{ CartItemId: '1', RefundQuantity: 1.5 }] }, /Products\[0\]\.RefundQuantity must be a whole number > 0/],
    ['a negative quantity', { Products: [{ CartItemId: '1', RefundQuantity: -2 }] }, /RefundQuantity must be/],
    ['a quantity in words', { Products: [{ CartItemId: '1', RefundQuantity: 'two' }] }, /RefundQuantity must be/],
    ['Products not a list', { Products: { CartItemId: '1' } }, /Products must be an array of refunded lines/],
    ['a line that is no object', { Products: ['1'] }, /Products\[0\] must be an object/],
    ['the second line without an id', { Products: [{ CartItemId: '1' }, { RefundQuantity: 1 }] }, /Products\[1\] needs CartItemId or ProductCode/],
    ['a full refund with a line', { FullRefund: true, Products: [{ CartItemId: '1' }] }, /a FullRefund takes no Products/],
    ['a blank ExternalReference', { TotalRefundAmount: '1', ExternalReference: '   ' }, /ExternalReference must not be empty/],
    ['two different references (the two spellings conflict)', { TotalRefundAmount: '1', ExternalReference: 'r-1', externalReference: 'r-2' }, /ExternalReference and externalReference differ: give one/],
    ['two references differing in case only', { TotalRefundAmount: '1', ExternalReference: 'R-1', externalReference: 'r-1' }, /differ/],
  ])('%s: INVALID_ARGUMENT, nothing sent', async (_what, change, message) => {
    const { client } = clientFor(svc);
    const err = await failure(client.createOrderRefund({ OrderId: ORDER, ...change } as never));
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', operation: 'createOrderRefund', attempts: 0 });
    expect(err.description).toMatch(message);
    expect(svc.count()).toBe(0);
  });

  test.each<[string, Record<string, unknown>]>([
    ['nothing but the order', {}],
    ['an empty list of lines', { Products: [] }],
    ['FullRefund: false and nothing else', { FullRefund: false }],
    ['FullRefund: false with an empty list', { FullRefund: false, Products: [] }],
    ['only flags', { ShippingRefund: true, ProductsDutiesRefund: true, RefundComments: 'why' }],
  ])('an empty refund (%s) is refused: INVALID_ARGUMENT, nothing sent', async (_what, change) => {
    const { client } = clientFor(svc);
    const err = await failure(client.createOrderRefund({ OrderId: ORDER, ...change } as never));
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', attempts: 0 });
    expect(err.description).toMatch(/a partial refund needs Products or an amount/);
    expect(svc.count()).toBe(0);
  });

  test.each<[string, Record<string, unknown>]>([
    ['a full refund', { FullRefund: true }],
    ['a full refund with an empty list of lines', { FullRefund: true, Products: [] }],
    ['only a shipping amount', { ShippingAmount: '5.00' }],
    ['only duties', { DutiesAmount: '5.00' }],
    ['only a service gesture', { ServiceGestureAmount: '5.00' }],
    ['only the total', { TotalRefundAmount: '5.00' }],
    ['only the original total', { OriginalTotalRefundAmount: '5.00' }],
    ['one line by product code', { Products: [{ ProductCode: 'SKU-1', RefundQuantity: 1 }] }],
  ])('%s is a refund: sent once', async (_what, change) => {
    const { client } = clientFor(svc);
    await client.createOrderRefund({ OrderId: ORDER, ...change } as never);
    expect(svc.count()).toBe(1);
    expect(sentRefund(svc.received[0]).OrderId).toBe(ORDER);
    if (Array.isArray(change.Products) && change.Products.length === 0) expect(sentProducts(svc.received[0])).toEqual([]);
  });

  test('every documented field goes out, each amount as the text it was given (trimmed) or that its number prints as', async () => {
    const { client } = clientFor(svc);
    await client.createOrderRefund({
      OrderId: ORDER, TotalRefundAmount: ' 30.5 ', OriginalTotalRefundAmount: 20.1, ServiceGestureAmount: 1, ShippingAmount: '2.50', DutiesAmount: 0,
      ProductsDutiesRefund: true, ShippingRefund: false, RefundReason: { OrderRefundReasonCode: 'C1', Name: 'n' }, RefundComments: 'c', ExternalReference: 'ref-all',
      Products: [{ CartItemId: 7, ProductCode: 'SKU', RefundQuantity: '2', RefundAmount: 10.1, OriginalRefundAmount: ' 6.70 ', RefundReason: { OrderRefundReasonCode: 'C2' }, RefundComments: 'l' }],
    });
    expect(sentRefund(svc.received[0])).toEqual({
      OrderId: ORDER, TotalRefundAmount: '30.5', OriginalTotalRefundAmount: '20.10', ServiceGestureAmount: '1.00', ShippingAmount: '2.50', DutiesAmount: '0.00',
      ProductsDutiesRefund: true, ShippingRefund: false, RefundReason: { OrderRefundReasonCode: 'C1', Name: 'n' }, RefundComments: 'c', ExternalReference: 'ref-all',
    });
    expect(sentProducts(svc.received[0])).toEqual([
      { CartItemId: 7, ProductCode: 'SKU', RefundQuantity: '2', RefundAmount: '10.10', OriginalRefundAmount: '6.70', RefundReason: { OrderRefundReasonCode: 'C2' }, RefundComments: 'l' },
    ]);
  });

  /** A field with one letter dropped (the fourth): a typo the client names with the field meant. */
  const typo = (field: string) => `${field.slice(0, 3)}${field.slice(4)}`;
  test.each(['OrderId', 'FullRefund', 'TotalRefundAmount', 'OriginalTotalRefundAmount', 'ProductsDutiesRefund', 'ShippingRefund', 'RefundReason',
    'ServiceGestureAmount', 'ShippingAmount', 'DutiesAmount', 'RefundComments', 'ExternalReference', 'Products'])(
    'a misspelt %s: INVALID_ARGUMENT naming the field meant, nothing sent', async (field) => {
      const { client } = clientFor(svc);
      const err = await failure(client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '1.00', [typo(field)]: 'x' } as never));
      expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', attempts: 0 });
      expect(err.description).toBe(`unknown field ${typo(field)} in the refund; did you mean ${field}?`);
      expect(svc.count()).toBe(0);
    });

  test.each(['CartItemId', 'ProductCode', 'RefundQuantity', 'RefundAmount', 'OriginalRefundAmount', 'RefundReason', 'RefundComments'])(
    'a line\'s misspelt %s: INVALID_ARGUMENT naming the field meant', async (field) => {
      const { client } = clientFor(svc);
      const err = await failure(client.createOrderRefund({ OrderId: ORDER, Products: [{ CartItemId: '1', [typo(field)]: 'x' }] } as never));
      expect(err.description).toBe(`unknown field ${typo(field)} in Products[0]; did you mean ${field}?`);
      expect(svc.count()).toBe(0);
    });

  test('the same reference in both spellings is one reference: sent once as ExternalReference', async () => {
    const store = await paidStore();
    const { client } = clientFor(svc, { store });
    await client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '1.00', ExternalReference: 'r-same', externalReference: 'r-same' });
    expect(sentRefund(svc.received[0])).toMatchObject({ ExternalReference: 'r-same' });
    expect(sentRefund(svc.received[0])).not.toHaveProperty('externalReference');
    expect(await failure(client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '1.00', externalReference: 'r-same' }))).toMatchObject({ code: 'DUPLICATE_REFUND' });
  });
});

describe('the guard with the store: how much was refunded, and how much was paid', () => {
  test('a refund accepted without a known amount is left out of the sum (the over-refund sum\'s filter), not a store failure', async () => {
    const store = await paid('100.00');
    // a line refund: no amount sent, none in the answer
    svc.answer(() => ({ status: 200, body: { Success: true, RefundId: 1 } }));
    const { client } = clientFor(svc, { store });
    await client.createOrderRefund({ OrderId: ORDER, Products: [{ CartItemId: '1', RefundQuantity: 1 }] });
    expect((await orderActions(store, 'refund', ORDER)).map((a) => a.details)).toEqual([{ RefundId: '1', FullRefund: false, Success: true }]);
    await client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '60.00' });
    const err = await failure(client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '40.01' }));
    expect(err).toMatchObject({ code: 'REFUND_EXCEEDS_PAID', attempts: 0 });
    expect(err.description).toBe('the refund (40.01) with the 1 accepted before (60.00) is more than the paid total 100.00 CAD; nothing was sent (pass { force: true } to override)');
    expect(svc.count()).toBe(2);
  });

  test('the paid total without a currency code: the description names the total alone', async () => {
    const store = await paidStore({ amount: '10.00' });
    const { client } = clientFor(svc, { store });
    const err = await failure(client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '10.01' }));
    expect(err.description).toMatch(/is more than the paid total 10\.00; nothing was sent/);
  });

  test.each<[string, { amount?: unknown }]>([['an unreadable PaymentAmount', { amount: '10.00abc' }], ['no PaymentAmount', {}], ['a PaymentAmount that is no amount', { amount: { value: 1 } }]])(
    '%s: nothing to compare, sent', async (_what, payment) => {
      const store = await paidStore(payment);
      const { client } = clientFor(svc, { store });
      await client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '9999.00' });
      expect(svc.count()).toBe(1);
    });

  test('a PaymentAmount as a number is compared exactly', async () => {
    const store = await paid(10.1);
    const { client } = clientFor(svc, { store });
    await client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '10.10' });
    expect((await failure(client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '0.01' }))).code).toBe('REFUND_EXCEEDS_PAID');
  });

  test('a store without getPayment (core only): the payment read through getRecord', async () => {
    // a core-only store keeps the payment under ~payment:<OrderId> (what the kit writes for it)
    const store = await paidStore({ amount: '10.00' }, paymentKey(ORDER));
    Object.defineProperty(store, 'getPayment', { value: undefined });
    const { client } = clientFor(svc, { store });
    expect((await failure(client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '10.01' }))).code).toBe('REFUND_EXCEEDS_PAID');
    expect(svc.count()).toBe(0);
  });

  test('duties count towards the refund\'s total (lines and components added)', async () => {
    const store = await paid('10.00');
    const { client } = clientFor(svc, { store });
    const err = await failure(client.createOrderRefund({ OrderId: ORDER, Products: [{ CartItemId: '1', RefundAmount: '9.00' }], DutiesAmount: '1.01' }));
    expect(err.description).toMatch(/^the refund \(10\.01\) with the 0 accepted before \(0\.00\) is more than/);
  });

  test('a full refund records FullRefund: true, a partial false; the RefundID spelling and a null RefundId', async () => {
    const store = await paid('100.00');
    const { client } = clientFor(svc, { store });
    svc.answer(() => ({ status: 200, body: { Success: true, RefundID: 'R-2', TotalRefundAmount: '3.00' } }));
    await client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '2.00' });
    svc.answer(() => ({ status: 200, body: { Success: true, RefundId: null } }));
    await client.createOrderRefund({ OrderId: ORDER, FullRefund: true, ExternalReference: 'full' });
    expect((await orderActions(store, 'refund', ORDER)).map((a) => a.details)).toEqual([
      { amount: '2.00', amountKey: '2', RefundId: 'R-2', FullRefund: false, Success: true },
      { ExternalReference: 'full', FullRefund: true, Success: true },
    ]);
  });

  test('a store that cannot be read with force: sent, and the warning says why', async () => {
    const store = await paidStore();
    store.getPayment = async () => { throw new Error('db down'); };
    const { client, log } = clientFor(svc, { store });
    const err = await failure(client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '1.00' }));
    expect(err).toMatchObject({ code: 'STORE_UNAVAILABLE', retryable: true, attempts: 0, cause: { message: 'db down' } });
    expect(err.description).toBe('the refund guard could not read the store; nothing was sent');
    await client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '1.00' }, { force: true });
    expect(log.lines.filter((l) => l.level === 'warn' && l.obj.operation === 'createOrderRefund').map((l) => l.msg))
      .toEqual(['the refund guard could not read the store; sending anyway (force: true)']);
  });

  test('more than paid with force: sent, and the warning names the amounts', async () => {
    const store = await paid('1.00');
    const { client, log } = clientFor(svc, { store });
    await client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '2.00' }, { force: true });
    expect(svc.count()).toBe(1);
    expect(log.lines.filter((l) => l.level === 'warn').map((l) => l.msg))
      .toEqual(['the refund (2.00) with the 0 accepted before (0.00) is more than the paid total 1.00 CAD; sending anyway (force: true)']);
  });

  test('a reference already accepted: DUPLICATE_REFUND names the order, also with force', async () => {
    const store = await paidStore();
    const { client } = clientFor(svc, { store });
    await client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '1.00', ExternalReference: 'r-d' });
    const err = await failure(client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '1.00', ExternalReference: 'r-d' }, { force: true }));
    expect(err).toMatchObject({ code: 'DUPLICATE_REFUND', attempts: 0 });
    expect(err.description).toBe(`a refund with this ExternalReference was already accepted for order ${ORDER}; nothing was sent`);
    expect(svc.count()).toBe(1);
  });

  test('a refund without a reference is not refused as a duplicate of one without a reference', async () => {
    const store = await paidStore();
    const { client } = clientFor(svc, { store });
    await client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '1.00' });
    await client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '1.00' });
    expect(svc.count()).toBe(2);
  });
});

describe('a lost answer confirmed by GetRefundDetails', () => {
  test('a refund whose amount only the service knows is recorded with the listed total; a listing without RefundID gives no RefundId', async () => {
    const store = await paid('100.00');
    svc.answer((req) => (req.path === DETAILS_PATH
      ? { status: 200, body: details([{ ExternalReference: 'ref-l', RefundID: undefined, TotalRefundAmount: '42.00' }]) }
      : { destroy: true }));
    const { client } = clientFor(svc, { store, timeoutMs: LOOKUP_AFTER_MS });
    const res = await client.createOrderRefund({ OrderId: ORDER, Products: [{ CartItemId: '1', RefundQuantity: 1 }], ExternalReference: 'ref-l' });
    expect(res).not.toHaveProperty('RefundId');
    expect(res).toMatchObject({ Success: true, confirmedBy: 'getRefundDetails', refund: { TotalRefundAmount: '42.00' } });
    expect((await orderActions(store, 'refund', ORDER)).map((a) => a.details)).toEqual([
      { amount: '42.00', amountKey: '42', ExternalReference: 'ref-l', FullRefund: false, Success: true },
    ]);
  });
});

describe('issue 47 item 8, the whole-area run: what its survivors left unpinned', () => {
  test('a line whose fields have the wrong type is refused by the request schema, naming the refund; an empty list is no line to check', async () => {
    const { client } = clientFor(svc);
    for (const line of [{ CartItemId: '1', RefundComments: 5 }, { CartItemId: '1', RefundReason: 'damaged' }]) {
      const err = await failure(client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '1.00', Products: [line] } as never));
      expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', attempts: 0 });
      expect(err.description).toMatch(/the refund/);
    }
    expect(svc.count()).toBe(0);
  });

  test('Success as text in any case and spacing decides, also beside an error code: " TRUE " a success, " False" a refusal', async () => {
    svc.answer(() => ({ status: 200, body: { Success: ' TRUE ', Code: 'OK-1', Error: 'none' } }));
    const { client } = clientFor(svc);
    expect(await client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '1.00' })).toMatchObject({ Success: true, Code: 'OK-1' });
    svc.answer(() => ({ status: 200, body: { Success: ' False', RefundId: 4 } }));
    expect(await failure(client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '1.00' }))).toMatchObject({ code: 'HTTP_200' });
    svc.answer(() => ({ status: 200, body: { Success: 'pending', RefundId: 4 } }));
    expect(await client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '1.00' })).toMatchObject({ Success: true, RefundId: 4 });
  });

  test('what is recorded: a RefundID of null is no RefundId; a reference is recorded with itself, a refund without one records no reference', async () => {
    const store = await paid('100.00');
    const { client } = clientFor(svc, { store });
    svc.answer(() => ({ status: 200, body: { Success: true, RefundID: null } }));
    await client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '1.00' });
    expect(await orderAction(store, 'refundRef', ORDER)).toBeNull();
    await client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '1.00', ExternalReference: 'r-rec' });
    expect((await orderActions(store, 'refund', ORDER)).map((a) => a.details)).toEqual([
      { amount: '1.00', amountKey: '1', FullRefund: false, Success: true },
      { amount: '1.00', amountKey: '1', ExternalReference: 'r-rec', FullRefund: false, Success: true },
    ]);
    expect((await orderAction(store, 'refundRef', ORDER, 'r-rec'))?.details).toEqual({ ExternalReference: 'r-rec', Success: true });
  });

  test('more than paid with force: the warning carries the operation', async () => {
    const store = await paid('1.00');
    const { client, log } = clientFor(svc, { store });
    await client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '2.00' }, { force: true });
    expect(log.lines.filter((l) => l.level === 'warn').map((l) => l.obj.operation)).toEqual(['createOrderRefund']);
  });
});

describe('a failure before the refund is sent is not an unknown outcome', () => {
  test('JWT: the token call answers 500: the refund was never sent, so the error is the token\'s, not REFUND_OUTCOME_UNKNOWN', async () => {
    svc.answer((r) => (r.path === '/Authentication/GetAuthenticationToken'
      ? { status: 500, body: { Code: 'INTERNAL_ERROR', Error: 'token service down' } }
      : { status: 200, body: { Success: true, RefundId: 789 } }));
    const { client } = clientFor(svc, { accessToken: undefined, jwt: { userName: 'nordwear-api', password: 'pw-secret-1' }, retry: { retries: 0 } });
    const err = await failure(client.createOrderRefund({ OrderId: ORDER, TotalRefundAmount: '10.00' }));
    expect(err.code).not.toBe('REFUND_OUTCOME_UNKNOWN');
    expect(err).toMatchObject({ name: 'ServiceError', operation: 'createOrderRefund' });
    expect(svc.count(REFUND_PATH)).toBe(0);
  });
});
