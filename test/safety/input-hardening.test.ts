/**
 * Issue 9, items 6, 7 and 14–21: what the kit refuses before anything runs (a permanent 400, the
 * adapter never called), and the small holes of the input path.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import { createCallbackKit, createIpAllowListStrategy, KitError, type CallbackRequest } from 'crossborder-merchant-kit';
import { createCallbackRouter } from 'crossborder-merchant-kit/express';
import { MERCHANT_GUID, order, paymentOrder } from '../helpers/orders.js';
import { captureLogger } from '../helpers/recording.js';
import { createSafeLogger } from '../../lib/shared/logger.js';
import { testKit, type TestKit } from '../helpers/kit.js';

const raw = (t: TestKit, callback: Parameters<typeof t.kit.handle>[0], text: string) =>
  t.kit.handle(callback, { method: 'POST', path: '/', query: {}, headers: { 'content-type': 'application/json' }, body: Buffer.from(text) });

const refused = (res: { status: number; body: unknown }) => {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ Success: false, ErrorCode: 'INVALID_REQUEST' });
};

describe('the identity of an order (item 6) and what the store cannot hold (item 7)', () => {
  test('a numeric OrderId beyond 2^53 is refused (it would be rounded onto another order); a safe integer is fine', async () => {
    const t = testKit();
    const text = (id: string) => JSON.stringify(paymentOrder({ OrderId: 'X' })).replace('"OrderId":"X"', `"OrderId":${id}`);
    expect((await raw(t, 'performOrderPayment', text('12345678901234567890'))).status).toBe(400);
    const second = await raw(t, 'performOrderPayment', text('12345678901234567891'));
    refused(second);
    expect((second.body as { Description: string }).Description).toMatch(/OrderId must be a string/);
    expect(t.calls('performOrderPayment')).toHaveLength(0);
    expect((await raw(t, 'performOrderPayment', text('1001'))).status).toBe(200);
    expect(t.calls('performOrderPayment')[0].context.idempotencyKey).toMatch(/^performOrderPayment:1001:/);
    // the adapter gets the OrderId the types promise: a string (the number as its decimal text)
    expect(t.calls('performOrderPayment')[0].input.OrderId).toBe('1001');
  });

  test('a numeric OrderId reaches the adapter as a string in strict validation too, and its replay is the same order', async () => {
    const t = testKit({ validation: 'strict' });
    const text = JSON.stringify(order({ OrderId: 'X' })).replace('"OrderId":"X"', '"OrderId":424242');
    const first = await raw(t, 'sendOrderToMerchant', text);
    expect(first.status).toBe(200);
    expect(t.calls('sendOrderToMerchant').map((c) => c.input.OrderId)).toEqual(['424242']);
    expect((await raw(t, 'sendOrderToMerchant', text)).body).toEqual(first.body);
    expect(t.calls('sendOrderToMerchant')).toHaveLength(1);
  });

  test.each([
    ['empty', ''], ['blank', '   '], ['a lone surrogate', 'GE1001\ud800'], ['a lone low surrogate', '\udc00GE1001'],
    ['a NUL character', 'GE1001\u0000CH'], ['201 characters', 'G'.repeat(201)], ['10,000 characters', 'G'.repeat(10_000)],
  ])('an OrderId with %s is a permanent 400; the adapter is not called', async (_name, id) => {
    const t = testKit();
    refused(await t.deliver('performOrderPayment', paymentOrder({ OrderId: id })));
    refused(await t.deliver('sendOrderToMerchant', order({ OrderId: id })));
    expect(t.adapter.calls).toHaveLength(0);
  });

  test('OrderIds differing only in a lone surrogate never share a slot', async () => {
    const t = testKit();
    expect((await t.deliver('performOrderPayment', paymentOrder({ OrderId: 'GE-\ud800' }))).status).toBe(400);
    expect((await t.deliver('performOrderPayment', paymentOrder({ OrderId: 'GE-\udbff' }))).status).toBe(400);
  });

  test('a NUL character or ill-formed text anywhere in the payload (a value or a key) is a 400', async () => {
    const t = testKit();
    refused(await t.deliver('sendOrderToMerchant', order({ CustomerComments: 'gift\u0000wrap' })));
    refused(await t.deliver('sendOrderToMerchant', order({ CustomerComments: 'gift \ud83d' })));
    refused(await t.deliver('sendOrderToMerchant', order({ 'Bad\u0000Key': 1 })));
    expect(t.adapter.calls).toHaveLength(0);
    expect((await t.deliver('sendOrderToMerchant', order({ CustomerComments: 'gift \ud83c\udf81' }))).status).toBe(200);
  });
});

describe('input hardening (items 14–19)', () => {
  const nest = (depth: number, leaf: unknown): unknown => {
    let v = leaf;
    for (let i = 0; i < depth; i++) v = { n: v };
    return v;
  };

  test('a __proto__ or constructor.prototype key deeper than 64 levels is refused (item 14)', async () => {
    const t = testKit();
    const deepProto = JSON.stringify(order({ Extra: nest(100, 1) })).replace('{"n":1}', '{"__proto__":{"polluted":1}}');
    refused(await raw(t, 'sendOrderToMerchant', deepProto));
    const deepCtor = JSON.stringify(order({ Extra: nest(150, { constructor: { prototype: { polluted: 1 } } }) }));
    refused(await raw(t, 'sendOrderToMerchant', deepCtor));
    refused(await raw(t, 'sendOrderToMerchant', JSON.stringify(order({ Extra: nest(300, 1) }))));
    expect(t.adapter.calls).toHaveLength(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('a pre-parsed body (express.json) nested too deep, with __proto__ inside, is refused as raw text would be', async () => {
    const t = testKit();
    const body = order({ Extra: nest(120, JSON.parse('{"__proto__":{"x":1}}')) });
    const res = await t.kit.handle('sendOrderToMerchant', { method: 'POST', path: '/', query: {}, headers: { 'content-type': 'application/json' }, body });
    refused(res);
  });

  test('POST GetCheckoutCartInfo with a non-string OrderID is a 400, not a 500 (item 15)', async () => {
    const t = testKit();
    const post = (payload: unknown) => t.kit.handle('getCheckoutCartInfo', {
      method: 'POST', path: '/', query: { merchantCartToken: 'c-1' }, headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify(payload)),
    });
    for (const OrderID of [{ toString: 1 }, { valueOf: 1, toString: 1 }, ['x'], true]) {
      const res = await post({ MerchantGUID: MERCHANT_GUID, OrderID });
      expect(res.status).toBe(400);
    }
    expect((await post({ MerchantGUID: 'wrong', OrderID: { toString: 1 } })).status).toBe(400);
    expect(t.calls('getCheckoutCartInfo')).toHaveLength(0);
  });

  test('query parameters named toString or constructor are plain parameters (item 16)', async () => {
    const t = testKit();
    const app = express();
    app.use('/cb', createCallbackRouter(t.options));
    const res = await request(app).get('/cb/GetCheckoutCartInfo?merchantCartToken=c-1&toString=a&constructor=b&hasOwnProperty=c&countryCode=DE');
    expect(res.status).toBe(200);
    const params = t.calls('getCheckoutCartInfo')[0].input.params;
    expect({ ...params }).toEqual({ merchantCartToken: 'c-1', toString: 'a', constructor: 'b', hasOwnProperty: 'c', countryCode: 'DE' });
    const only = await request(app).get('/cb/GetCheckoutCartInfo?merchantCartToken=c-2&toString=x&toString=y');
    expect(only.status).toBe(200);
    expect(t.calls('getCheckoutCartInfo')[1].input.params.toString).toEqual(['x', 'y']);
  });

  test.each([
    ['leading/trailing spaces', ` ${MERCHANT_GUID} `], ['a non-breaking space', `${MERCHANT_GUID}\u00a0`],
    ['a BOM', `\ufeff${MERCHANT_GUID}`], ['a newline', `${MERCHANT_GUID}\n`],
  ])('a MerchantGUID with %s is refused (item 17)', async (_name, guid) => {
    const t = testKit();
    const res = await t.deliver('sendOrderToMerchant', order({ MerchantGUID: guid }));
    expect(res.status).toBe(401);
    const both = await t.deliver('sendOrderToMerchant', { order: order({ MerchantGUID: guid }), MerchantGUID: MERCHANT_GUID });
    expect(both.status).toBe(401);
    expect(t.adapter.calls).toHaveLength(0);
    expect((await t.deliver('sendOrderToMerchant', order({ MerchantGUID: MERCHANT_GUID.toUpperCase() }))).status).toBe(200);
  });

  test('an IPv4-compatible IPv6 peer (::10.0.0.1) is not the IPv4 address 10.0.0.1; an IPv4-mapped one is (item 18)', async () => {
    const strategy = createIpAllowListStrategy(['10.0.0.1']);
    const info = { log: createSafeLogger(captureLogger()), callback: 'sendOrderToMerchant' };
    const from = (remoteAddress: string) => strategy.authenticate({ method: 'POST', path: '/', query: {}, headers: {}, remoteAddress } as CallbackRequest, info);
    expect(await from('::10.0.0.1')).toMatchObject({ ok: false, status: 403 });
    expect(await from('0:0:0:0:0:0:10.0.0.1')).toMatchObject({ ok: false, status: 403 });
    expect(await from('::ffff:10.0.0.1')).toMatchObject({ ok: true });
    expect(await from('10.0.0.1')).toMatchObject({ ok: true });
  });

  test('behind express.json(), a chunked body nested 20,000 deep gets a logged 400 (item 19)', async () => {
    const t = testKit();
    const app = express();
    app.use(express.json({ limit: '50mb' }));
    app.use('/cb', createCallbackRouter(t.options));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const depth = 20_000;
      const body = `${'['.repeat(depth)}${']'.repeat(depth)}`.replace(/^\[/, '{"MerchantGUID":"x","a":[').replace(/\]$/, ']}');
      const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, method: 'POST', path: '/cb/SendOrderToMerchant',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
          let data = '';
          res.on('data', (c) => { data += c; });
          res.on('end', () => resolve({ status: res.statusCode!, text: data }));
        });
        req.on('error', reject);
        for (let i = 0; i < body.length; i += 4096) req.write(body.slice(i, i + 4096));
        req.end();
      });
      expect(status).toBe(400);
      expect(JSON.parse(text)).toMatchObject({ Success: false, ErrorCode: 'INVALID_REQUEST' });
      expect(t.log.lines.some((l) => l.msg === 'callback handled' && l.obj.status === 400)).toBe(true);
      expect(t.adapter.calls).toHaveLength(0);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe('options (item 21)', () => {
  test('a helmet option helmet itself refuses is a KitError ERR_CBK_OPTION_INVALID', () => {
    const build = () => createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: { sendOrderToMerchant: () => ({}), updateOrderStatus() {} }, helmet: { referrerPolicy: { policy: 'nonsense' as never } } });
    expect(build).toThrow(KitError);
    try {
      build();
    } catch (err) {
      expect((err as KitError).code).toBe('ERR_CBK_OPTION_INVALID');
      expect((err as Error).message).toMatch(/helmet/);
    }
  });
});
