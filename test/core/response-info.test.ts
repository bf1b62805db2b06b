/**
 * ResponseInfo: Success true plus the adapter's fields; payment fields required where a payment
 * was made; CallbackError declines with exactly its texts; any other failure is a generic 500 that
 * leaks nothing of the error or the request.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { CallbackError } from 'crossborder-merchant-kit';
import { BINDINGS } from '../helpers/bindings.js';
import { CARD_NUMBER, CVV_NUMBER, MERCHANT_GUID, order, paymentOrder, statusUpdate } from '../helpers/orders.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';

const GENERIC_500 = { Success: false, Message: 'Internal error', ErrorCode: 'INTERNAL_ERROR' };

describe.each(BINDINGS)('%s', (_name, mount) => {
  test('Success true plus every ResponseInfo field the adapter returns', async () => {
    const result = { InternalOrderId: 'A-1', OrderId: '1001', StatusCode: 'processing', Message: 'Order received', Description: 'Queued for picking' };
    const adapter = recordingAdapter({ sendOrderToMerchant: () => result });
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post('/cb/SendOrderToMerchant').send(order());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ Success: true, ...result });
  });

  test('an adapter returning nothing (UpdateOrderStatus) answers Success true', async () => {
    const adapter = recordingAdapter({ updateOrderStatus: () => undefined });
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post('/cb/UpdateOrderStatus').send(statusUpdate('canceled'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ Success: true });
    expect(adapter.calls[0].input.StatusCode).toBe('canceled');
  });

  test('the documents webhook answers Success true when the adapter returns nothing', async () => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter }))
      .post('/cb/SendAdditionalRequiredDocumentsToMerchant')
      .send({ order: { MerchantGUID: MERCHANT_GUID, OrderId: 'GE1001CH', AdditionalRequiredDocuments: [{ DocumentTypeCode: '11', DocumentTypeName: 'EAD', DocumentExtension: 'PDF', URL: 'https://docs.example.com/1.pdf' }] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ Success: true });
    expect(adapter.calls[0].input.Documents).toHaveLength(1);
    expect(adapter.calls[0].input.OrderId).toBe('GE1001CH');
  });

  test('PerformOrderPayment returns PaymentAmount and PaymentCurrencyCode', async () => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post('/cb/PerformOrderPayment').send(paymentOrder());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ Success: true, InternalOrderId: 'A-1', PaymentAmount: '129.90', PaymentCurrencyCode: 'EUR' });
  });

  test.each([
    ['PerformOrderPayment', '/cb/PerformOrderPayment', 'performOrderPayment'],
    ['SendOrderToMerchant with PaymentDetails', '/cb/SendOrderToMerchant', 'sendOrderToMerchant'],
  ])('%s without payment fields → 500 (the kit will not imply a payment it cannot report)', async (_what, path, method) => {
    for (const result of [
      { InternalOrderId: 'A-1' },
      { InternalOrderId: 'A-1', PaymentAmount: '129.90' },
      { InternalOrderId: 'A-1', PaymentCurrencyCode: 'EUR' },
      { InternalOrderId: 'A-1', PaymentAmount: '129.90', PaymentCurrencyCode: 'euro' },
    ]) {
      const logger = captureLogger();
      const adapter = recordingAdapter({ [method]: () => result });
      const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter, logger })).post(path).send(paymentOrder());
      expect(res.status).toBe(500);
      expect(res.body).toEqual(GENERIC_500);
      expect(logger.text()).toMatch(/Payment(Amount|CurrencyCode)/);
    }
  });

  test('SendOrderToMerchant without PaymentDetails needs no payment fields', async () => {
    const adapter = recordingAdapter({ sendOrderToMerchant: () => ({ InternalOrderId: 'A-1' }) });
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post('/cb/SendOrderToMerchant').send(order());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ Success: true, InternalOrderId: 'A-1' });
  });

  test('card data returned by an adapter never reaches the response', async () => {
    const adapter = recordingAdapter({
      performOrderPayment: (o: any) => ({ InternalOrderId: 'A-1', PaymentAmount: '129.90', PaymentCurrencyCode: 'EUR', Echo: o.PaymentDetails }),
    });
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post('/cb/PerformOrderPayment').send(paymentOrder());
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(CARD_NUMBER);
    expect(res.body.Echo).toBeUndefined();
  });

  test('CallbackError → its status with Success false and exactly its texts', async () => {
    const adapter = recordingAdapter({
      sendOrderToMerchant: () => { throw new CallbackError('Out of stock', { description: 'SKU MUG-1 sold out', errorCode: 'OUT_OF_STOCK', status: 409 }); },
    });
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post('/cb/SendOrderToMerchant').send(order());
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ Success: false, Message: 'Out of stock', Description: 'SKU MUG-1 sold out', ErrorCode: 'OUT_OF_STOCK' });
  });

  test('CallbackError without a status → 400, only the given texts', async () => {
    const adapter = recordingAdapter({ updateOrderStatus: async () => { throw new CallbackError('Already shipped'); } });
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post('/cb/UpdateOrderStatus').send(statusUpdate('canceled'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ Success: false, Message: 'Already shipped' });
  });

  test('an adapter result with Success false is a decline (400) with its texts', async () => {
    const adapter = recordingAdapter({ updateOrderStatus: () => ({ Success: false, Message: 'Cannot cancel', ErrorCode: 'SHIPPED' }) });
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post('/cb/UpdateOrderStatus').send(statusUpdate('canceled'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ Success: false, Message: 'Cannot cancel', ErrorCode: 'SHIPPED' });
  });

  describe.each([
    ['a thrown Error', () => { throw new Error(`db down at /srv/shop.js card ${CARD_NUMBER}`); }],
    ['a rejected promise', () => Promise.reject(new TypeError(`cannot read OrderId of ${CVV_NUMBER}-secret-detail`))],
    ['a thrown string', () => { throw 'secret-detail string'; }],
    ['a non-object result', () => 'secret-detail ok'],
  ])('%s', (_what, impl) => {
    test('→ 500 with a generic body: no message, stack or request data; the detail goes to the logger', async () => {
      const logger = captureLogger();
      const adapter = recordingAdapter({ performOrderPayment: impl });
      const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter, logger })).post('/cb/PerformOrderPayment').send(paymentOrder());
      expect(res.status).toBe(500);
      expect(res.body).toEqual(GENERIC_500);
      for (const leak of ['secret-detail', 'db down', '/srv/shop.js', CARD_NUMBER, 'GE1001CH', 'Jane', 'at ']) {
        expect(res.text).not.toContain(leak);
      }
      expect(logger.lines.some((l) => l.level === 'error' || l.level === 'warn')).toBe(true);
    });
  });

  test('an adapter that does not settle within adapterTimeoutMs → 500, and context.signal is aborted', async () => {
    let signal: AbortSignal | undefined;
    const adapter = recordingAdapter({
      sendOrderToMerchant: (_o: unknown, ctx: any) => { signal = ctx.signal; return new Promise(() => {}); },
    });
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter, adapterTimeoutMs: 50 })).post('/cb/SendOrderToMerchant').send(order());
    expect(res.status).toBe(500);
    expect(res.body).toEqual(GENERIC_500);
    expect(signal?.aborted).toBe(true);
  });

  test('the kit keeps serving after adapter faults', async () => {
    let calls = 0;
    const adapter = recordingAdapter({ sendOrderToMerchant: () => { calls += 1; if (calls === 1) throw new Error('boom'); return { InternalOrderId: 'A-2' }; } });
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter });
    expect((await request(app).post('/cb/SendOrderToMerchant').send(order())).status).toBe(500);
    const ok = await request(app).post('/cb/SendOrderToMerchant').send(order());
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ Success: true, InternalOrderId: 'A-2' });
  });
});

test('a late rejection after the timeout does not crash the process', () => {
  // Node crashes on an unhandled rejection; jest would hide that, so this runs in a child process.
  const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./fixtures/late-rejection.ts', import.meta.url))], {
    encoding: 'utf8', timeout: 20_000, env: { ...process.env, NODE_OPTIONS: '' },
  });
  expect(child.stderr).not.toContain('late failure');
  expect(child.status).toBe(0);
  expect(child.stdout.trim()).toBe('survived 500 500');
});
