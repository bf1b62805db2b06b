/**
 * Bodies: envelope and top-level order forms, Subs, JSON only (415), size limits (413),
 * malformed JSON and prototype-pollution keys (400). The adapter is never called on a refusal.
 */
import request from 'supertest';
import { BINDINGS } from '../../helpers/bindings.js';
import { documentsDelivery, envelope, MERCHANT_GUID, mixedOrder, order, paymentDetails, paymentOrder, statusUpdate } from '../../helpers/orders.js';
import { recordingAdapter } from '../../helpers/recording.js';
import { bodyText } from '../../../lib/core/stages/parse.js';

test('bodyText: ASCII and UTF-8 bytes give the text JSON.parse must see (Latin-1 only where it is the same text)', () => {
  for (const text of ['', '{"a":"x%C3%A9+y"}', '{"a":"é"}', 'Zürich 😀 \u00e9', '\u0000\u007f', 'ÿ']) {
    expect(bodyText(Buffer.from(text))).toBe(text);
  }
  expect(bodyText(Buffer.from([0xe9]))).toBe('\ufffd'); // not UTF-8: replaced, as Buffer#toString() does
});

const ORDER_ROUTES: Array<[string, () => Record<string, unknown>]> = [
  ['/cb/SendOrderToMerchant', () => order()],
  ['/cb/UpdateOrderStatus', () => statusUpdate('canceled')],
  ['/cb/PerformOrderPayment', () => paymentOrder()],
];

describe.each(BINDINGS)('%s', (_name, mount) => {
  describe.each(ORDER_ROUTES)('%s body forms', (path, build) => {
    test('the envelope { order } reaches the adapter as the plain order', async () => {
      const adapter = recordingAdapter();
      const sent = build();
      const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post(path).send(envelope(sent));
      expect(res.status).toBe(200);
      expect(res.body.Success).toBe(true);
      expect(adapter.calls).toHaveLength(1);
      expect(adapter.calls[0].input).toEqual(sent);
      expect(adapter.calls[0].input.order).toBeUndefined();
    });

    test('the same fields at the top level reach the adapter the same way', async () => {
      const adapter = recordingAdapter();
      const sent = build();
      const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post(path).send(sent);
      expect(res.status).toBe(200);
      expect(adapter.calls[0].input).toEqual(sent);
    });
  });

  test('a body in UTF-8 (plain é, ü, an emoji, a BOM-free text) and one in ASCII only reach the adapter as the same text', async () => {
    const adapter = recordingAdapter();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter });
    const plain = order({ CustomerComments: 'Zürich, Renée – 😀', OrderId: 'GE-utf8' });
    const escaped = JSON.stringify(order({ CustomerComments: 'Zürich, Renée – 😀', OrderId: 'GE-ascii' })).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    expect(/^[\x00-\x7f]*$/.test(escaped)).toBe(true);
    // Strings go on the wire as they are, in UTF-8 (supertest would serialise a Buffer as JSON).
    await request(app).post('/cb/SendOrderToMerchant').set('content-type', 'application/json').send(JSON.stringify(plain)).expect(200);
    await request(app).post('/cb/SendOrderToMerchant').set('content-type', 'application/json').send(escaped).expect(200);
    expect(adapter.calls.map((c) => c.input.CustomerComments)).toEqual(['Zürich, Renée – 😀', 'Zürich, Renée – 😀']);
  });

  test('Subs of a mixed order are kept, in both forms', async () => {
    const adapter = recordingAdapter();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter });
    const sent = mixedOrder();
    await request(app).post('/cb/SendOrderToMerchant').send(sent).expect(200);
    await request(app).post('/cb/SendOrderToMerchant').send(envelope(sent)).expect(200);
    for (const call of adapter.calls) {
      expect(call.input.Subs.map((s: any) => s.OrderId)).toEqual(['GE1001CH-1', 'GE1001CH-2']);
      expect(call.input.Subs[0].Products[0].Sku).toBe('MUG-1');
    }
  });

  test('a PaymentDetails beside the envelope joins the order; other envelope keys go to context.envelope', async () => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter }))
      .post('/cb/SendOrderToMerchant')
      .send({ order: order(), PaymentDetails: paymentDetails(), MerchantGUID: MERCHANT_GUID, Channel: 'web' });
    expect(res.status).toBe(200);
    expect(res.body.PaymentAmount).toBe('129.90');
    expect(adapter.calls[0].input.PaymentDetails.PaymentMethodCode).toBe('VISA');
    expect(adapter.calls[0].context.envelope).toEqual({ Channel: 'web' });
  });

  test.each([
    ['UpdateOrderStatus without StatusCode', '/cb/UpdateOrderStatus', () => ({ MerchantGUID: MERCHANT_GUID, OrderId: 'GE1001CH' }), 'StatusCode'],
    ['UpdateOrderStatus without OrderId', '/cb/UpdateOrderStatus', () => ({ MerchantGUID: MERCHANT_GUID, StatusCode: 'canceled' }), 'OrderId'],
    ['PerformOrderPayment without PaymentDetails', '/cb/PerformOrderPayment', () => order(), 'PaymentDetails'],
  ])('%s → 400 naming the field, not echoing values; adapter not called', async (_what, path, build, field) => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post(path).send(envelope(build()));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ Success: false, ErrorCode: 'INVALID_REQUEST' });
    expect(res.body.Description).toContain(field);
    for (const value of ['Jane', 'Main Street', MERCHANT_GUID]) expect(res.text).not.toContain(value);
    expect(adapter.calls).toHaveLength(0);
  });

  test('malformed JSON → 400 INVALID_REQUEST, adapter not called', async () => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter }))
      .post('/cb/SendOrderToMerchant').set('content-type', 'application/json').send('{"OrderId": "GE1", ');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ Success: false, ErrorCode: 'INVALID_REQUEST' });
    expect(adapter.calls).toHaveLength(0);
  });

  test.each([
    ['an empty body', ''],
    ['a JSON array', '[1,2]'],
    ['a JSON string', '"order"'],
  ])('%s → 400', async (_what, body) => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter }))
      .post('/cb/SendOrderToMerchant').set('content-type', 'application/json').send(body);
    expect(res.status).toBe(400);
    expect(res.body.Success).toBe(false);
    expect(adapter.calls).toHaveLength(0);
  });

  test.each([
    ['__proto__ at the top level', `{"MerchantGUID":"${MERCHANT_GUID}","OrderId":"GE1","__proto__":{"isAdmin":true}}`],
    ['__proto__ nested in the order', `{"order":{"MerchantGUID":"${MERCHANT_GUID}","OrderId":"GE1","PrimaryBilling":{"__proto__":{"x":1}}}}`],
    ['constructor.prototype', `{"MerchantGUID":"${MERCHANT_GUID}","OrderId":"GE1","Products":[{"constructor":{"prototype":{"x":1}}}]}`],
  ])('%s → 400, adapter not called, nothing polluted', async (_what, body) => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter }))
      .post('/cb/SendOrderToMerchant').set('content-type', 'application/json').send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ Success: false, ErrorCode: 'INVALID_REQUEST' });
    expect(adapter.calls).toHaveLength(0);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  test.each([
    ['text/plain', 'hello'],
    ['application/x-www-form-urlencoded', 'OrderId=GE1'],
    ['application/xml', '<order/>'],
  ])('content-type %s → 415', async (type, body) => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter }))
      .post('/cb/SendOrderToMerchant').set('content-type', type).send(body);
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ Success: false, ErrorCode: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(adapter.calls).toHaveLength(0);
  });

  test('application/json with a charset parameter is accepted', async () => {
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter() }))
      .post('/cb/SendOrderToMerchant').set('content-type', 'application/json; charset=utf-8').send(JSON.stringify(order()));
    expect(res.status).toBe(200);
  });

  test('a body over bodyLimit → 413, adapter not called', async () => {
    const adapter = recordingAdapter();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter, bodyLimit: '4kb' });
    const big = order({ CustomerComments: 'x'.repeat(5000) });
    const res = await request(app).post('/cb/SendOrderToMerchant').send(big);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ Success: false, ErrorCode: 'PAYLOAD_TOO_LARGE' });
    expect(adapter.calls).toHaveLength(0);
    const small = await request(app).post('/cb/SendOrderToMerchant').send(order());
    expect(small.status).toBe(200);
  });

  test('the 1 MB default applies to order callbacks; the documents webhook has a larger default', async () => {
    const adapter = recordingAdapter();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter });
    const data = Buffer.alloc(1536 * 1024, 7).toString('base64'); // 2 MB of base64
    const orderRes = await request(app).post('/cb/SendOrderToMerchant').send(order({ CustomerComments: data }));
    expect(orderRes.status).toBe(413);
    const docs = documentsDelivery();
    (docs.Documents as any[])[0].DocumentData = data;
    const docsRes = await request(app).post('/cb/SendAdditionalRequiredDocumentsToMerchant').send(docs);
    expect(docsRes.status).toBe(200);
    expect(adapter.calls.map((c) => c.method)).toEqual(['receiveAdditionalRequiredDocuments']);
    expect(adapter.calls[0].input.Documents[0].DocumentData).toBe(data);
  });

  test('documentsBodyLimit bounds the documents webhook', async () => {
    const adapter = recordingAdapter();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter, documentsBodyLimit: '8kb' });
    const docs = documentsDelivery();
    (docs.Documents as any[])[0].DocumentData = 'A'.repeat(10_000);
    const res = await request(app).post('/cb/SendAdditionalRequiredDocumentsToMerchant').send(docs);
    expect(res.status).toBe(413);
    expect(adapter.calls).toHaveLength(0);
  });
});
