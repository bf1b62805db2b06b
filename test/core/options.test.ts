/**
 * Options are checked at construction, by both factories, with a KitError naming the option.
 */
import request from 'supertest';
import { KitError, type CallbackKitOptions } from 'crossborder-merchant-kit';
import { createCallbackRouter } from 'crossborder-merchant-kit/express';
import { createCallbackHandler } from 'crossborder-merchant-kit/node';
import { BINDINGS } from '../helpers/bindings.js';
import { documentsDelivery, MERCHANT_GUID, order, paymentOrder, statusUpdate } from '../helpers/orders.js';
import { recordingAdapter } from '../helpers/recording.js';

const minimal = () => ({
  merchantGuid: MERCHANT_GUID,
  adapter: { sendOrderToMerchant: async () => ({ InternalOrderId: 'A-1' }), updateOrderStatus: async () => undefined },
});

const FACTORIES: Array<[string, (o: any) => unknown]> = [
  ['createCallbackRouter', createCallbackRouter],
  ['createCallbackHandler', createCallbackHandler],
];

function thrown(fn: () => unknown): KitError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(KitError);
    return err as KitError;
  }
  throw new Error('expected a KitError');
}

describe.each(FACTORIES)('%s options', (_name, factory) => {
  test('accepts the minimal options', () => {
    expect(() => factory(minimal())).not.toThrow();
  });

  test('an unknown key gets a did-you-mean naming the closest option', () => {
    const err = thrown(() => factory({ ...minimal(), adaptorTimeoutMs: 1000 }));
    expect(err.code).toBe('ERR_CBK_OPTION_UNKNOWN');
    expect(err.message).toContain('adaptorTimeoutMs');
    expect(err.message).toContain('did you mean "adapterTimeoutMs"');
  });

  test('a wrongly cased merchantGUID suggests merchantGuid', () => {
    const { merchantGuid, ...rest } = minimal();
    const err = thrown(() => factory({ ...rest, merchantGUID: merchantGuid }));
    expect(err.code).toBe('ERR_CBK_OPTION_UNKNOWN');
    expect(err.message).toContain('did you mean "merchantGuid"');
  });

  test('an unknown paths key gets a did-you-mean', () => {
    const err = thrown(() => factory({ ...minimal(), paths: { sendOrderToMerchnt: '/orders' } }));
    expect(err.code).toBe('ERR_CBK_OPTION_UNKNOWN');
    expect(err.message).toContain('did you mean "paths.sendOrderToMerchant"');
  });

  test('merchantGuid is required', () => {
    const { merchantGuid: _omit, ...rest } = minimal();
    const err = thrown(() => factory(rest));
    expect(err.code).toBe('ERR_CBK_OPTION_REQUIRED');
    expect(err.message).toContain('merchantGuid');
  });

  test.each([[''], ['   '], [42], [[]]])('merchantGuid %p is refused', (value) => {
    const err = thrown(() => factory({ ...minimal(), merchantGuid: value }));
    expect(err.code).toBe('ERR_CBK_OPTION_INVALID');
    expect(err.message).toContain('merchantGuid');
  });

  test.each<[string, unknown, RegExp]>([
    ['a name, not a GUID', 'my-merchant-guid', /^Option merchantGuid is not a GUID \(8-4-4-4-12 hex digits, e\.g\. [0-9a-f-]{36}; 16 characters given\) \[ERR_CBK_OPTION_INVALID\]$/],
    ['a placeholder', '{guid}', /^Option merchantGuid looks like a placeholder: put your MerchantGUID from the service there \[ERR_CBK_OPTION_INVALID\]$/],
    ['a GUID in braces', `{${MERCHANT_GUID}}`, /^Option merchantGuid is in braces: give the GUID without \{ \} \[ERR_CBK_OPTION_INVALID\]$/],
    ['a trailing space (not trimmed)', `${MERCHANT_GUID} `, /^Option merchantGuid has whitespace before or after it \(remove it; it is not trimmed\) \[ERR_CBK_OPTION_INVALID\]$/],
    ['a trailing newline', `${MERCHANT_GUID}\n`, /whitespace before or after it/],
    ['no hyphens', MERCHANT_GUID.replace(/-/g, ''), /has no hyphens/],
    ['a bad second GUID of a rotation', [MERCHANT_GUID, 'next-guid'], /^Option merchantGuid\[1\] is not a GUID/],
  ])('merchantGuid as %s is refused at construction, saying what is wrong', (_name, value, message) => {
    const err = thrown(() => factory({ ...minimal(), merchantGuid: value }));
    expect(err.code).toBe('ERR_CBK_OPTION_INVALID');
    expect(err.message).toMatch(message);
  });

  test('a GUID in capitals is accepted', () => {
    expect(() => factory({ ...minimal(), merchantGuid: MERCHANT_GUID.toUpperCase() })).not.toThrow();
  });

  test.each(['sendOrderToMerchant', 'updateOrderStatus'])('adapter.%s is required', (method) => {
    const adapter: Record<string, unknown> = { ...minimal().adapter };
    delete adapter[method];
    const err = thrown(() => factory({ ...minimal(), adapter }));
    expect(err.code).toBe('ERR_CBK_OPTION_REQUIRED');
    expect(err.message).toContain(`adapter.${method}`);
  });

  test('adapter is required', () => {
    const err = thrown(() => factory({ merchantGuid: MERCHANT_GUID }));
    expect(err.code).toBe('ERR_CBK_OPTION_REQUIRED');
    expect(err.message).toContain('adapter');
  });

  test('an adapter method that is not a function is refused', () => {
    const err = thrown(() => factory({ ...minimal(), adapter: { ...minimal().adapter, performOrderPayment: 'yes' } }));
    expect(err.code).toBe('ERR_CBK_OPTION_INVALID');
    expect(err.message).toContain('adapter.performOrderPayment');
  });

  test.each([
    ['adapterTimeoutMs', 0], ['adapterTimeoutMs', 'soon'], ['bodyLimit', -1], ['bodyLimit', 'huge'],
    ['documentsBodyLimit', 0], ['decode', 'yes'], ['logger', console.log], ['helmet', true], ['paths', { updateOrderStatus: 'status' }],
  ])('%s = %p is refused with ERR_CBK_OPTION_INVALID', (key, value) => {
    const err = thrown(() => factory({ ...minimal(), [key]: value }));
    expect(err.code).toBe('ERR_CBK_OPTION_INVALID');
    expect(err.message).toContain(key);
  });

  test('a decode rule that cannot be parsed is refused', () => {
    const err = thrown(() => factory({ ...minimal(), decode: { fields: ['PrimaryBilling.*.City'] } }));
    expect(err.code).toBe('ERR_CBK_OPTION_INVALID');
    expect(err.message).toContain('decode.fields');
  });

  test('two callbacks on one path are refused', () => {
    const err = thrown(() => factory({ ...minimal(), paths: { updateOrderStatus: '/SendOrderToMerchant' } }));
    expect(err.code).toBe('ERR_CBK_OPTION_INVALID');
  });

  test('a KitError carries a help text for its code', () => {
    const err = thrown(() => factory({ ...minimal(), merchantGuid: '' }));
    expect(err.help).toEqual(expect.any(String));
  });
});

describe.each(BINDINGS)('%s mounting', (_name, mount) => {
  test('callbacks whose adapter method is absent are not mounted', async () => {
    const app = mount(minimal() as CallbackKitOptions);
    const payment = await request(app).post('/cb/PerformOrderPayment').send(order());
    expect(payment.status).toBe(404);
    const docs = await request(app).post('/cb/SendAdditionalRequiredDocumentsToMerchant').send(order());
    expect(docs.status).toBe(404);
    const cart = await request(app).get('/cb/GetCheckoutCartInfo?merchantCartToken=c1');
    expect(cart.status).toBe(404);
    const status = await request(app).post('/cb/UpdateOrderStatus').send(statusUpdate());
    expect(status.status).toBe(200);
  });

  test('default paths serve every callback', async () => {
    const adapter = recordingAdapter();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter });
    expect((await request(app).get('/cb/GetCheckoutCartInfo?merchantCartToken=c1')).status).toBe(200);
    expect((await request(app).post('/cb/GetCheckoutCartInfo?merchantCartToken=c1').send({ MerchantGUID: MERCHANT_GUID, OrderID: 'GE1' })).status).toBe(200);
    expect((await request(app).post('/cb/SendOrderToMerchant').send(order())).status).toBe(200);
    expect((await request(app).post('/cb/UpdateOrderStatus').send(statusUpdate())).status).toBe(200);
    expect((await request(app).post('/cb/PerformOrderPayment').send(paymentOrder())).status).toBe(200);
    expect((await request(app).post('/cb/SendAdditionalRequiredDocumentsToMerchant').send(documentsDelivery())).status).toBe(200);
    expect(adapter.calls.map((c) => c.method)).toEqual([
      'getCheckoutCartInfo', 'getCheckoutCartInfo', 'sendOrderToMerchant', 'updateOrderStatus', 'performOrderPayment',
      'receiveAdditionalRequiredDocuments',
    ]);
  });

  test('a class instance works as the adapter, with `this` bound to it', async () => {
    class Shop {
      private readonly prefix = 'SHOP-';
      async sendOrderToMerchant(o: any) { return { InternalOrderId: `${this.prefix}${o.OrderId}` }; }
      async updateOrderStatus() { return undefined; }
    }
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter: new Shop() })).post('/cb/SendOrderToMerchant').send(order());
    expect(res.body).toEqual({ Success: true, InternalOrderId: 'SHOP-GE1001CH' });
  });

  test('paths override the default paths', async () => {
    const adapter = recordingAdapter();
    const app = mount({
      merchantGuid: MERCHANT_GUID, adapter,
      paths: { sendOrderToMerchant: '/orders', getCheckoutCartInfo: '/cart-info' },
    });
    expect((await request(app).post('/cb/orders').send(order())).status).toBe(200);
    expect((await request(app).get('/cb/cart-info?merchantCartToken=c1')).status).toBe(200);
    expect((await request(app).post('/cb/SendOrderToMerchant').send(order())).status).toBe(404);
    expect((await request(app).post('/cb/UpdateOrderStatus').send(statusUpdate())).status).toBe(200);
    expect(adapter.calls.map((c) => c.method)).toEqual(['sendOrderToMerchant', 'getCheckoutCartInfo', 'updateOrderStatus']);
  });
});

describe('binding-only options', () => {
  test.each([
    ['basePath', '/crossborder', /app\.use\('\/crossborder'/],
    ['trustProxy', true, /app\.set\('trust proxy'/],
  ])('the Express router refuses %s with the Express way to do it', (key, value, hint) => {
    const err = thrown(() => createCallbackRouter({ ...minimal(), [key]: value } as any));
    expect(err.code).toBe('ERR_CBK_OPTION_UNKNOWN');
    expect(err.message).toMatch(hint);
  });

  test('the node:http handler accepts them', () => {
    expect(() => createCallbackHandler({ ...minimal(), basePath: '/crossborder', trustProxy: 1 })).not.toThrow();
  });

  test('a typo of a binding-only option still gets a did-you-mean', () => {
    const err = thrown(() => createCallbackHandler({ ...minimal(), basepath: '/x' } as any));
    expect(err.message).toContain('did you mean "basePath"');
  });

  test.each([
    ['basePat', 'basePath', /app\.use\('\/crossborder'/],
    ['trustProxi', 'trustProxy', /app\.set\('trust proxy'/],
  ])('a typo %s given to the Express router names %s and the Express way in the same message', (typo, right, hint) => {
    const err = thrown(() => createCallbackRouter({ ...minimal(), [typo]: 1 } as any));
    expect(err.code).toBe('ERR_CBK_OPTION_UNKNOWN');
    expect(err.message).toContain(`did you mean "${right}"`);
    expect(err.message).toMatch(hint);
  });

  test('a typo of a kit option gets no binding hint', () => {
    const err = thrown(() => createCallbackRouter({ ...minimal(), bodyLimt: '1mb' } as any));
    expect(err.message).toContain('did you mean "bodyLimit"');
    expect(err.message).not.toContain('createCallbackHandler');
  });
});
