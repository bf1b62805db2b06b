/**
 * Sandbox hooks the web console relies on: configure() changes where callbacks go at run time
 * (checked like the options), and the order timeline names the payment and the fulfilment hold.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSandbox, type Sandbox } from '../../lib/sandbox/index.js';

let merchant: Server;
let merchantUrl: string;
let sandbox: Sandbox;

/** A merchant that accepts everything at the default paths and reports a payment when it is sent one. */
beforeAll(async () => {
  merchant = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => { text += c; });
    req.on('end', () => {
      const known = /^\/crossborder\/(SendOrderToMerchant|UpdateOrderStatus|PerformOrderPayment|SendAdditionalRequiredDocumentsToMerchant)$/i.test(req.url ?? '');
      const body = text ? JSON.parse(text) : {};
      const order = body.order ?? body;
      const paid = order.PaymentDetails ? { PaymentAmount: '59.90', PaymentCurrencyCode: 'EUR' } : {};
      res.writeHead(known ? 200 : 404, { 'content-type': 'application/json' })
        .end(JSON.stringify(known ? { Success: true, InternalOrderId: 'M-1', OrderId: 'M-1', ...paid } : { Success: false }));
    });
  });
  await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve));
  merchantUrl = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}/crossborder`;
});
afterAll(async () => {
  await new Promise((resolve) => merchant.close(resolve));
});
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
