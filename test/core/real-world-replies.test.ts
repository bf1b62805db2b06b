/**
 * Adapter replies as real integrations write them (the service's own cart cartridge,
 * test/fixtures/real-world-2/solutiongem-GetCheckoutCartInfo-response-*.json): an empty string where the
 * interface wants a country code is left out as not given, a number where it wants text is sent as its
 * text, and the checkout gets its cart instead of a 500 — through every binding. Any other invalid
 * value still fails the reply; the places are warned about once per shape.
 */
import request from 'supertest';
import { BINDINGS } from '../helpers/bindings.js';
import { MERCHANT_GUID, order } from '../helpers/orders.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';
import { fixture } from '../fixtures/index.js';

const CART = '/cb/GetCheckoutCartInfo?merchantCartToken=cart-1';
const cart = (n: number) => fixture(`real-world-2/solutiongem-GetCheckoutCartInfo-response-${n}.json`) as Record<string, any>;
const readLines = (log: ReturnType<typeof captureLogger>) => log.lines.filter((l) => /values the interface words otherwise/.test(l.msg ?? ''));

describe.each(BINDINGS)('%s', (_name, mount) => {
  test.each([1, 2])('the cartridge\'s cart reply %i is answered 200: "" codes left out, numbers where text is wanted sent as text', async (n) => {
    const given = cart(n);
    expect(given.productsList[0].OriginCountryCode).toBe('');
    expect(given.loyaltyCode).toBe(0);
    const log = captureLogger();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter({ getCheckoutCartInfo: () => cart(n) }), logger: log })).get(CART);
    expect(res.status).toBe(200);
    expect(res.body.productsList).toHaveLength(given.productsList.length);
    for (const p of res.body.productsList) expect(p).not.toHaveProperty('OriginCountryCode');
    expect(res.body.loyaltyCode).toBe('0');
    // Everything else as the adapter gave it.
    expect(res.body.productsList[0].CartItemId).toBe(given.productsList[0].CartItemId);
    expect(res.body.clientIP).toBe(given.clientIP);
    const lines = readLines(log);
    expect(lines).toHaveLength(1);
    expect(lines[0].level).toBe('warn');
    expect(lines[0].obj).toMatchObject({ read: expect.arrayContaining(['/productsList/*/OriginCountryCode:empty', '/loyaltyCode:text']) });
  });

  test('a ResponseInfo with a number where text is wanted is answered with its text (OrderId 100023871 → "100023871")', async () => {
    const log = captureLogger();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter({ sendOrderToMerchant: () => ({ InternalOrderId: 'INT-1', OrderId: 100023871 }) }), logger: log });
    const res = await request(app).post('/cb/SendOrderToMerchant').send(order());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ Success: true, InternalOrderId: 'INT-1', OrderId: '100023871' });
    expect(readLines(log)[0].obj).toMatchObject({ read: ['/OrderId:text'] });
  });

  test('the same shape again is logged at debug, not warned', async () => {
    const log = captureLogger();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter({ getCheckoutCartInfo: () => cart(1) }), logger: log });
    expect((await request(app).get(CART)).status).toBe(200);
    expect((await request(app).get(CART)).status).toBe(200);
    expect(readLines(log).map((l) => l.level)).toEqual(['warn', 'debug']);
  });

  test('a value of the wrong form that is not empty still fails the reply (500, the field named in the log)', async () => {
    const bad = cart(1);
    bad.productsList[0].OriginCountryCode = 'Switzerland';
    const log = captureLogger();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter({ getCheckoutCartInfo: () => bad }), logger: log })).get(CART);
    expect(res.status).toBe(500);
    expect(log.text()).toContain('/productsList/0/OriginCountryCode');
  });

  test('a number whose text the interface still refuses (a country code of 12) fails the reply as the adapter gave it', async () => {
    const bad = cart(1);
    bad.productsList[0].OriginCountryCode = 12;
    const log = captureLogger();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter({ getCheckoutCartInfo: () => bad }), logger: log })).get(CART);
    expect(res.status).toBe(500);
    expect(log.text()).toContain('/productsList/0/OriginCountryCode');
    expect(readLines(log)).toHaveLength(0);
  });

  test('text where the interface wants a number is not read as anything else (500)', async () => {
    const bad = cart(1);
    bad.productsList[0].OrderedQuantity = 'two';
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter({ getCheckoutCartInfo: () => bad }), logger: captureLogger() })).get(CART);
    expect(res.status).toBe(500);
  });
});
