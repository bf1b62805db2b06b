/**
 * The scenarios of issue 51 item 3 against the example merchant app, booted in-process as npm start
 * boots it (one MemoryStore for its router and the sandbox's merchantStore): the hold placed and
 * released in the merchant's store, a declined card and its retry, a refund the service made.
 */
import { startLoop, type Loop } from '../../../examples/basic-merchant/loop.js';
import { createSandbox } from '../../../lib/tools/sandbox/index.js';
import { DECLINED_CARD_NUMBER } from '../../../lib/tools/sandbox/scenarios-holds-payments.js';
import { summarize } from '../../../lib/tools/sandbox/console/view.js';

let loop: Loop;
/** The steps of the scenario itself (the cart read that precedes a run's first order left out). */
const own = (steps: Array<{ label: string; status: string; detail: string }>) => steps.filter((s) => s.label !== 'cart products read');

beforeAll(async () => { loop = await startLoop({ merchantPort: 0, sandboxPort: 0 }); });
afterAll(async () => { await loop.close(); });

test('hold: the order announcing an EAD is held in the merchant\'s store, the documents release it', async () => {
  const result = await loop.sandbox.runScenario('hold');
  expect(own(result.steps).map((s) => [s.label, s.status])).toEqual([
    ['SendOrderToMerchant announcing an EAD', 'pass'],
    ['the merchant\'s store holds the order (do not ship yet)', 'pass'],
    ['the documents webhook (the EAD)', 'pass'],
    ['the hold is released (the order may ship)', 'pass'],
  ]);
  expect(own(result.steps)[1].detail).toMatch(/awaiting document type 11 \(1ZSBX\d+\)/);
  const orderId = result.orderIds[0];
  expect(loop.shop.orders.get(orderId)!.documents).toEqual([expect.objectContaining({ type: 'EAD' })]);
  expect(loop.sandbox.orders.get(orderId)!.timeline.map((t) => t.event)).toEqual(['created', 'hold-announced', 'documents-delivered']);
});

test('hold: a store that never holds (not the router\'s) fails the step with what to check', async () => {
  const sandbox = createSandbox({ port: 0, merchantUrl: loop.merchantUrl, merchantGuid: loop.sandbox.options.merchantGuid, merchantStore: { getFulfilmentHold: async () => null } });
  try {
    const result = await sandbox.runScenario('hold');
    expect(result.ok).toBe(false);
    expect(result.steps[1]).toMatchObject({ status: 'fail', detail: expect.stringMatching(/no fulfilment hold.*is merchantStore the store its router uses/) });
  } finally { await sandbox.close(); }
});

test('hold without the merchant\'s store: SKIP with the reason, nothing sent', async () => {
  const sandbox = createSandbox({ port: 0, merchantUrl: loop.merchantUrl, merchantGuid: loop.sandbox.options.merchantGuid });
  try {
    const result = await sandbox.runScenario('hold');
    expect(result.ok).toBe(true);
    expect(result.steps).toEqual([expect.objectContaining({ status: 'skip', detail: expect.stringContaining('merchantStore') })]);
    expect(sandbox.log.list()).toEqual([]);
  } finally { await sandbox.close(); }
});

test('merchantStore is checked at construction', () => {
  expect(() => createSandbox({ merchantStore: {} as never, console: false })).toThrow(/merchantStore must be the merchant's store/);
  expect(() => createSandbox({ merchantStor: {} } as never)).toThrow(/did you mean "merchantStore"/);
});

test('payment-declined: the adapter declines the card twice (the retry runs it again), another card pays; the refusals are not red', async () => {
  const paymentsBefore = loop.shop.payments.length;
  const result = await loop.sandbox.runScenario('payment-declined');
  expect(own(result.steps).map((s) => [s.label, s.status])).toEqual([
    ['the merchant declines the card', 'pass'],
    ['the retry with the same card: declined again (a decline is never replayed as a success)', 'pass'],
    ['another card: accepted, the amount reported', 'pass'],
  ]);
  expect(own(result.steps)[0].detail).toBe('HTTP 402, ErrorCode CARD_DECLINED, Message The card was declined');
  const orderId = result.orderIds[0];
  expect(loop.shop.payments.slice(paymentsBefore)).toEqual([expect.objectContaining({ orderId, cardLast4: '1111' })]);
  const exchanges = loop.sandbox.log.list({ scenario: 'payment-declined' }).filter((e) => e.kind === 'sendOrderToMerchant');
  expect(exchanges.map((e) => summarize(e)).map((s) => [s.failed, s.refusedAsExpected ?? false])).toEqual([[false, true], [false, true], [false, false]]);
  expect(JSON.stringify(exchanges)).not.toContain(DECLINED_CARD_NUMBER);
  expect(loop.sandbox.orders.get(orderId)!.timeline.map((t) => t.event)).toEqual(['payment-declined', 'payment-declined', 'created', 'paid']);
});

test('payment-declined against a merchant that charges any card: a SKIP saying there is no decline to show, nothing sent after', async () => {
  const { createServer } = await import('node:http');
  const server = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }).end('{"Success":true,"InternalOrderId":"X","PaymentAmount":"1.00","PaymentCurrencyCode":"EUR"}'); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const sandbox = createSandbox({ port: 0, console: false, merchantUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}` });
  try {
    const result = await sandbox.runScenario('payment-declined');
    expect(result.steps).toEqual([expect.objectContaining({ status: 'skip', detail: expect.stringMatching(/accepted a card that fails the Luhn check.*CallbackError/) })]);
    expect(sandbox.log.list({ scenario: 'payment-declined' }).filter((e) => e.kind === 'sendOrderToMerchant')).toHaveLength(1);
  } finally {
    await sandbox.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

test('service-refund: NotifyOrderRefunded for a refund the service made, twice: accepted, one refund on the order', async () => {
  const result = await loop.sandbox.runScenario('service-refund');
  expect(result.steps.every((s) => s.status === 'pass')).toBe(true);
  expect(own(result.steps).map((s) => s.label)).toEqual([
    'SendOrderToMerchant with payment',
    'NotifyOrderRefunded (a refund you did not ask for: refund the customer in your shop)',
    'the same notification again (exactly once: answered, not a second refund)',
  ]);
  const order = loop.sandbox.orders.get(result.orderIds[0])!;
  expect(order.refunds).toEqual([expect.objectContaining({ InitiatedBy: 'Service', TotalRefundAmount: '1.00' })]);
  const [first, second] = loop.sandbox.log.list({ scenario: 'service-refund' }).filter((e) => e.kind === 'notifyOrderRefunded');
  expect(second.response?.headers['idempotency-replayed']).toBe('true');
  expect(first.response?.headers['idempotency-replayed']).toBeUndefined();
});
