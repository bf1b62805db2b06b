/**
 * Issue 34 item 6 in the tools (docs/compatibility.md row R3-6): against a kit-based merchant whose cart
 * answers guessed product names (`Quantity: 2`, `Price: "19.90"`), `check`'s cart-info checks fail and
 * name the missing fields, and the sandbox orders what the cart says (2 at 19.9) and writes in the
 * scenario log which fields it read; a product with nothing usable is ordered with the defaults, said so.
 */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCallbackRouter } from 'crossborder-merchant-kit/express';
import { runConformance } from '../../../lib/tools/conformance/index.js';
import { createSandbox } from '../../../lib/tools/sandbox/index.js';
import { MERCHANT_GUID } from '../../helpers/orders.js';
import { recordingAdapter, type RecordingAdapter } from '../../helpers/recording.js';

let products: Array<Record<string, unknown>>;
let adapter: RecordingAdapter;
let server: Server;
let url: string;

beforeAll(async () => {
  adapter = recordingAdapter({ getCheckoutCartInfo: () => ({ productsList: products }) });
  const app = express();
  app.use('/cb', createCallbackRouter({ merchantGuid: MERCHANT_GUID, adapter, logger: false }));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`;
});
afterAll(() => new Promise((r) => server.close(r)));
beforeEach(() => { adapter.calls.length = 0; });

test('check: a product without OrderedQuantity and SalePrice fails both cart-info checks, naming the fields', async () => {
  products = [{ ProductCode: 'TEE-1', Name: 'Tee', Quantity: 2, Price: '19.90' }];
  const report = await runConformance({ merchantUrl: url, merchantGuid: MERCHANT_GUID, cartToken: 'c-1', only: ['cart-info-get', 'cart-info-post'] });
  expect(report.checks.map((c) => c.status)).toEqual(['fail', 'fail']);
  for (const c of report.checks) expect(c.detail).toBe('HTTP 200, 1 product(s), but product 1 has no OrderedQuantity; product 1 has no SalePrice (or OriginalSalePrice) (the service reads OrderedQuantity and SalePrice)');
  products = [{ ProductCode: 'TEE-1', OrderedQuantity: 2, SalePrice: 19.9 }];
  const fixed = await runConformance({ merchantUrl: url, merchantGuid: MERCHANT_GUID, cartToken: 'c-1', only: ['cart-info-get'] });
  expect(fixed.checks[0]).toMatchObject({ status: 'pass', detail: 'HTTP 200, 1 product(s)' });
});

test('check\'s own orders carry what the cart says too (the same reading as the sandbox)', async () => {
  products = [{ ProductCode: 'TEE-1', Name: 'Tee', Quantity: 2, Price: '19.90' }, { ProductCode: 'MUG-1', OrderedQuantity: 3, OriginalSalePrice: 7.5 }];
  await runConformance({ merchantUrl: url, merchantGuid: MERCHANT_GUID, cartToken: 'c-1', only: ['order-create'] });
  const order = adapter.calls.find((c) => c.method === 'sendOrderToMerchant')!.input;
  expect(order.Products.map((p: any) => [p.Sku, p.Quantity, p.Price])).toEqual([['TEE-1', 2, 19.9], ['MUG-1', 3, 7.5]]);
});

test('sandbox: orders what the cart says and logs which fields it read; defaults only where nothing is usable, said so', async () => {
  products = [
    { ProductCode: 'TEE-1', Name: 'Tee', Quantity: 2, Price: '19.90' },
    { ProductCode: 'MUG-1', OrderedQuantity: 3, SalePrice: 7.5 },
    { ProductCode: 'CAP-1' },
  ];
  const sandbox = createSandbox({ port: 0, merchantUrl: url, merchantGuid: MERCHANT_GUID, cartToken: 'c-1', documentsDelayMs: 0 });
  try {
    const result = await sandbox.runScenario('order');
    const read = result.steps.find((s) => s.label === 'cart products read')!;
    expect(read.detail).toBe([
      'TEE-1: quantity 2 from Quantity, not an interface field: the service reads OrderedQuantity; price 19.9 from Price (text), not an interface field: the service reads SalePrice or OriginalSalePrice',
      'MUG-1: quantity 3 from OrderedQuantity; price 7.5 from SalePrice',
      'CAP-1: quantity 1 by default (no OrderedQuantity); price 10 by default (no SalePrice or OriginalSalePrice)',
    ].join(' | '));
    const order = adapter.calls.find((c) => c.method === 'sendOrderToMerchant')!.input;
    expect(order.Products.map((p: any) => [p.Sku, p.Quantity, p.Price])).toEqual([['TEE-1', 2, 19.9], ['MUG-1', 3, 7.5], ['CAP-1', 1, 10]]);
  } finally {
    await sandbox.close();
  }
});
