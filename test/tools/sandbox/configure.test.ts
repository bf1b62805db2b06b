/**
 * Sandbox hooks the web console relies on: configure() changes where callbacks go at run time
 * (checked like the options), and the order timeline names the payment and the fulfilment hold.
 */
import { createSandbox, type Sandbox } from '../../../lib/tools/sandbox/index.js';
import { startStubMerchant } from '../../helpers/stub-merchant.js';

let merchantUrl: string;
let sandbox: Sandbox;

let stub: Awaited<ReturnType<typeof startStubMerchant>>;
beforeAll(async () => {
  stub = await startStubMerchant();
  merchantUrl = stub.merchantUrl;
});
afterAll(async () => { await stub.close(); });
beforeEach(() => { sandbox = createSandbox({ port: 0, documentsDelayMs: 0 }); });
afterEach(async () => { await sandbox.close(); });

describe('sandbox.configure', () => {
  test('points a sandbox without a merchant at one: scenarios then reach it', async () => {
    expect(() => sandbox.runScenario('order')).toThrow(/no merchantUrl/);
    const options = sandbox.configure({ merchantUrl: `${merchantUrl}/` });
    expect(options.merchantUrl).toBe(merchantUrl);
    expect(sandbox.options.merchantUrl).toBe(merchantUrl);
    const result = await sandbox.runScenario('order');
    expect(result.ok).toBe(true);
    expect(sandbox.log.list()[0].request.url.startsWith(`${merchantUrl}/`)).toBe(true);
  });

  test('merges paths onto the current ones and changes the GUID sent in callbacks', async () => {
    sandbox.configure({ merchantUrl, paths: { sendOrderToMerchant: '/orders-here' } });
    const before = sandbox.options.paths.updateOrderStatus;
    sandbox.configure({ merchantGuid: '11111111-2222-4333-8444-555555555555' });
    expect(sandbox.options.paths.sendOrderToMerchant).toBe('/orders-here');
    expect(sandbox.options.paths.updateOrderStatus).toBe(before);
    const result = await sandbox.runScenario('order');
    const [exchange] = sandbox.log.list();
    expect(exchange.request.url).toBe(`${merchantUrl}/orders-here`);
    expect((exchange.request.body as { MerchantGUID: string }).MerchantGUID).toBe('11111111-2222-4333-8444-555555555555');
    expect(result.ok).toBe(false); // this merchant answers 404 on that path
  });

  test('refuses what the options refuse, and changes nothing then', () => {
    sandbox.configure({ merchantUrl });
    expect(() => sandbox.configure({ merchantUrl: 'ftp://x' })).toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_INVALID' }));
    expect(() => sandbox.configure({ paths: { sendOrderToMerchnt: '/x' } as never })).toThrow(/did you mean "sendOrderToMerchant"/);
    expect(() => sandbox.configure({ merchantGiud: 'x' } as never)).toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_UNKNOWN' }));
    expect(() => sandbox.configure({ merchantGuid: '' })).toThrow(/merchantGuid/);
    expect(sandbox.options.merchantUrl).toBe(merchantUrl);
  });

  test('a cart token can be set and forgotten', () => {
    expect(sandbox.configure({ cartToken: 'cart-1' }).cartToken).toBe('cart-1');
    expect(sandbox.configure({ cartToken: '' }).cartToken).toBeUndefined();
  });
});

describe('order timeline', () => {
  test('order-with-payment: created, then paid with amount and currency', async () => {
    sandbox.configure({ merchantUrl });
    const { orderIds: [id] } = await sandbox.runScenario('order-with-payment');
    const order = sandbox.orders.get(id)!;
    expect(order.timeline.map((t) => t.event)).toEqual(['created', 'paid']);
    expect(order.timeline[1].detail).toBe(`${order.paid!.amount} ${order.paid!.currency}`);
    expect(order.timeline[1].detail).toBe('59.90 EUR');
  });

  test('documents: created, hold announced (EAD), then documents delivered', async () => {
    sandbox.configure({ merchantUrl });
    const { orderIds: [id] } = await sandbox.runScenario('documents');
    const { timeline } = sandbox.orders.get(id)!;
    expect(timeline.map((t) => t.event)).toEqual(['created', 'hold-announced', 'documents-delivered']);
    expect(timeline[1].detail).toBe('documents announced: EAD');
  });
});
