/**
 * Issue 34 item 1 over every binding (docs/compatibility.md row R3-1): the documents webhook example of
 * the service's own page sends `"DocumentExtension": "pdf"`; the same enum governs the documents an order
 * announces. An order announcing its EAD as "pdf" is accepted and held, the adapter gets the listed form
 * "PDF", the difference is reported; the webhook releases the hold. An unknown extension ("exe") is a
 * 400 naming the pointer and the listed values, in the order and in the webhook, and the hold stays.
 */
import request from 'supertest';
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { ENUM_CASE_RULE } from '../../lib/validation/index.js';
import { BINDINGS } from '../helpers/bindings.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';
import { fixture } from '../fixtures/index.js';

const GUID = 'abcdabcd-abcd-abcd-abcd-abcdabcdabcd';
const UDG_GUID = 'bf9a2cc4-304c-47bc-9722-8967dfd97734';
const WEBHOOK = '/cb/SendAdditionalRequiredDocumentsToMerchant';
/** The page's webhook example, its OrderId made the order's, and its GUID in the header the authentication pages name. */
const pageDelivery = () => ({ ...fixture('real-world-3/gedocs-sendadditionalrequireddocuments-request.json'), OrderId: 'GE12345678GB' });
const announced = (extension: string) => {
  const [doc] = fixture('real-world-3/gedocs-sendadditionalrequireddocuments-request.json').AdditionalRequiredDocuments;
  return { ...doc, DocumentExtension: extension };
};
/** A real order of round 1 announcing the page's EAD. */
const orderAnnouncing = (extension: string) => ({ ...fixture('real-world/udg-sendordertomerchant-created.json'), AdditionalRequiredDocuments: [announced(extension)] });

describe.each(BINDINGS)('%s', (_name, mount) => {
  const setup = (extra: Record<string, unknown> = {}) => {
    const adapter = recordingAdapter();
    const store = new MemoryStore();
    const logger = captureLogger();
    return { adapter, store, logger, app: mount({ merchantGuid: [GUID, UDG_GUID], adapter, store, logger, ...extra } as never) };
  };

  test('an order announcing its EAD as "pdf" is accepted and held; the adapter gets "PDF", the difference is reported', async () => {
    const { adapter, store, app } = setup();
    const res = await request(app).post('/cb/SendOrderToMerchant').send(orderAnnouncing('pdf'));
    expect({ status: res.status, Success: res.body.Success }).toEqual({ status: 200, Success: true });
    const { input, context } = adapter.calls[0];
    expect(input.AdditionalRequiredDocuments[0].DocumentExtension).toBe('PDF');
    expect(context.specDeviations).toContainEqual({ pointer: '/AdditionalRequiredDocuments/0/DocumentExtension', rule: ENUM_CASE_RULE });
    expect(await store.getFulfilmentHold('GE12345678GB')).toMatchObject({ orderId: 'GE12345678GB' });
  });

  test('the page\'s documents webhook (GUID in the MerchantGUID header) releases that hold; the adapter gets "PDF"', async () => {
    const { adapter, store, app } = setup();
    await request(app).post('/cb/SendOrderToMerchant').send(orderAnnouncing('pdf')).expect(200);
    const res = await request(app).post(WEBHOOK).set('MerchantGUID', GUID).send(pageDelivery());
    expect({ status: res.status, Success: res.body.Success }).toEqual({ status: 200, Success: true });
    const call = adapter.calls.find((c) => c.method === 'receiveAdditionalRequiredDocuments')!;
    expect(call.input.Documents[0]).toMatchObject({ DocumentExtension: 'PDF', DocumentTypeCode: '11', DocumentReference: '24DE85123822923B8' });
    expect(call.context.specDeviations).toContainEqual({ pointer: '/Documents/0/DocumentExtension', rule: ENUM_CASE_RULE });
    expect(await store.getFulfilmentHold('GE12345678GB')).toBeNull();
  });

  test.each([['.pdf', 'PDF'], ['Zpl', 'ZPL'], [' epl ', 'EPL'], ['.EPL', 'EPL']])('%j reaches the adapter as %j', async (sent, listed) => {
    const { adapter, app } = setup();
    await request(app).post('/cb/SendOrderToMerchant').send(orderAnnouncing(sent)).expect(200);
    expect(adapter.calls[0].input.AdditionalRequiredDocuments[0].DocumentExtension).toBe(listed);
  });

  test('a redelivery of the "pdf" order is replayed: the adapter runs once', async () => {
    const { adapter, app } = setup();
    await request(app).post('/cb/SendOrderToMerchant').send(orderAnnouncing('pdf')).expect(200);
    expect((await request(app).post('/cb/SendOrderToMerchant').send(orderAnnouncing('pdf'))).headers['idempotency-replayed']).toBe('true');
    expect(adapter.calls).toHaveLength(1);
  });

  test('an unknown extension ("exe") is a 400 naming the pointer and the listed values; nothing reaches the adapter, no hold changes', async () => {
    const { adapter, store, app } = setup();
    const order = await request(app).post('/cb/SendOrderToMerchant').send(orderAnnouncing('exe'));
    expect(order.status).toBe(400);
    expect(order.body.Description).toBe('/AdditionalRequiredDocuments/0/DocumentExtension: must be one of "PDF", "ZPL", "EPL"');
    await request(app).post('/cb/SendOrderToMerchant').send(orderAnnouncing('pdf')).expect(200);
    const delivery = pageDelivery();
    delivery.AdditionalRequiredDocuments[0].DocumentExtension = 'exe';
    const webhook = await request(app).post(WEBHOOK).set('MerchantGUID', GUID).send(delivery);
    expect(webhook.status).toBe(400);
    expect(webhook.body.Description).toBe('/Documents/0/DocumentExtension: must be one of "PDF", "ZPL", "EPL"');
    expect(adapter.calls.map((c) => c.method)).toEqual(['sendOrderToMerchant']);
    expect(await store.getFulfilmentHold('GE12345678GB')).not.toBeNull();
  });

  test('validation: \'strict\' keeps the schemas as written: "pdf" is refused (400)', async () => {
    const { adapter, app } = setup({ validation: 'strict' });
    const res = await request(app).post('/cb/SendOrderToMerchant').send(orderAnnouncing('pdf'));
    expect(res.status).toBe(400);
    expect(adapter.calls).toHaveLength(0);
  });

  test('a document type name in another case ("ead") reads as the listed "EAD" and counts towards the hold', async () => {
    const { adapter, store, app } = setup();
    const body = orderAnnouncing('PDF');
    body.AdditionalRequiredDocuments[0].DocumentTypeCode = 'ead';
    await request(app).post('/cb/SendOrderToMerchant').send(body).expect(200);
    expect(adapter.calls[0].input.AdditionalRequiredDocuments[0].DocumentTypeCode).toBe('EAD');
    expect(await store.getFulfilmentHold('GE12345678GB')).not.toBeNull();
  });

  test('an adapter answering the webhook with the page\'s documented reply (Success as text) gets Success: true (a boolean) on the wire', async () => {
    const pageReply = fixture('real-world-3/gedocs-sendadditionalrequireddocuments-merchant-response.json');
    const adapter = recordingAdapter({ receiveAdditionalRequiredDocuments: () => pageReply });
    const app = mount({ merchantGuid: [GUID, UDG_GUID], adapter } as never);
    const res = await request(app).post(WEBHOOK).set('MerchantGUID', GUID).send(pageDelivery());
    expect(res.status).toBe(200);
    expect(res.body.Success).toBe(true);
    expect(res.body).not.toHaveProperty('ErrorText'); // not a ResponseInfo field: dropped
  });
});
