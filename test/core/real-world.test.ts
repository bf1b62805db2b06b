/**
 * What the service really sends (test/fixtures/real-world/, sources in SOURCES.md) is accepted through
 * both bindings: the adapter is called once, sees no null, and reads every value as a person would
 * (encoded Primary* parties decoded, plain Secondary* parties and PaymentDetails untouched).
 */
import request from 'supertest';
import { BINDINGS } from '../helpers/bindings.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';
import { fixture } from '../fixtures/index.js';
import { forgetWarnedDeviations } from '../../lib/core/stages/validate.js';

// Deviations are warned about once per process: each test starts as a fresh process would.
beforeEach(forgetWarnedDeviations);

const GUIDS = ['abcdabcd-abcd-abcd-abcd-abcdabcdabcd', 'bf9a2cc4-304c-47bc-9722-8967dfd97734'];
const rw = (name: string) => fixture(`real-world/${name}`);

const ORDER_FIXTURES = [
  ['workarea-sendordertomerchant-basic.json', 'sendOrderToMerchant', '/cb/SendOrderToMerchant'],
  ['workarea-sendordertomerchant-shipping-discounts.json', 'sendOrderToMerchant', '/cb/SendOrderToMerchant'],
  ['udg-sendordertomerchant-created.json', 'sendOrderToMerchant', '/cb/SendOrderToMerchant'],
  ['workarea-performorderpayment.json', 'performOrderPayment', '/cb/PerformOrderPayment'],
  ['workarea-updateorderstatus-canceled.json', 'updateOrderStatus', '/cb/UpdateOrderStatus'],
  ['workarea-updateordershippinginfo.json', 'updateOrderShippingInfo', '/cb/UpdateOrderShippingInfo'],
  ['workarea-notifyorderrefunded.json', 'notifyOrderRefunded', '/cb/NotifyOrderRefunded'],
] as const;

/** Every string leaf of a value, with its JSON pointer. */
function leaves(value: unknown, pointer = '', out: Array<[string, string]> = []): Array<[string, string]> {
  if (typeof value === 'string') out.push([pointer, value]);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) leaves(v, `${pointer}/${k}`, out);
  return out;
}
const at = (value: any, pointer: string) => pointer.split('/').slice(1).reduce((v, k) => v?.[k], value);
const hasNull = (value: unknown): boolean =>
  value === null || (typeof value === 'object' && Object.values(value as object).some(hasNull));

describe.each(BINDINGS)('%s', (_name, mount) => {
  test.each(ORDER_FIXTURES)('%s is accepted, reaches %s once, with no null', async (file, callback, path) => {
    const adapter = recordingAdapter();
    const logger = captureLogger();
    const app = mount({ merchantGuid: GUIDS, adapter, logger });
    const body = rw(file);
    const res = await request(app).post(path).send(body);
    expect({ status: res.status, Success: res.body.Success }).toEqual({ status: 200, Success: true });
    const again = await request(app).post(path).send(body);
    expect(again.status).toBe(200);
    expect(adapter.calls.map((c) => c.method)).toEqual([callback]);
    const { input, context } = adapter.calls[0];
    expect(hasNull(input)).toBe(false);
    expect(input.OrderId).toBe(body.OrderId);
    // A plain value (nothing that form encoding produces) reaches the adapter exactly as sent.
    for (const [pointer, value] of leaves(body)) {
      if (pointer === '/MerchantGUID' || /[%+]/.test(value)) continue;
      expect([pointer, at(input, pointer)]).toEqual([pointer, value]);
    }
    expect(Array.isArray(context.specDeviations)).toBe(true);
    // Deviations are reported by location, never by value.
    const warning = logger.lines.find((l) => /deviates from the interface specification/.test(l.msg ?? ''));
    if (context.specDeviations.length > 0) expect(warning?.obj.deviations).toEqual(context.specDeviations);
    // The kit's own random requestId (a UUID: its hex digits may spell a short payload value) is no payload value.
    const { requestId, ...rest } = (warning?.obj ?? {}) as { requestId?: unknown };
    if (warning) expect(requestId).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
    const logged = JSON.stringify({ msg: warning?.msg, obj: rest });
    for (const [, value] of leaves(body)) if (value.length >= 4) expect(logged).not.toContain(value);
  });

  test('udg order: encoded Primary* parties and the tracking URL are decoded; StateOrProvince is kept', async () => {
    const adapter = recordingAdapter();
    await request(mount({ merchantGuid: GUIDS, adapter })).post('/cb/SendOrderToMerchant').send(rw('udg-sendordertomerchant-created.json')).expect(200);
    const order = adapter.calls[0].input;
    expect(order.PrimaryShipping).toMatchObject({ Address1: '12 E 11th St', City: 'New York', Email: 'jsmith@merchant.com', StateOrProvince: 'New York', StateCode: 'NY' });
    expect(order.PrimaryBilling).toMatchObject({ CountryName: 'United States', Email: 'jsmith@merchant.com' });
    expect(order.PrimaryShipping).not.toHaveProperty('MiddleName');
    expect(order.InternationalDetails.OrderTrackingUrl)
      .toBe('https://www2.bglobale.com/Order/Track/mZyd?OrderId=GE4874348GB&ShippingEmail=jsmith@merchant.com');
  });

  test('workarea payment: plain PaymentDetails and SecondaryBilling untouched, encoded PrimaryBilling decoded', async () => {
    const adapter = recordingAdapter();
    await request(mount({ merchantGuid: GUIDS, adapter })).post('/cb/PerformOrderPayment').send(rw('workarea-performorderpayment.json')).expect(200);
    const order = adapter.calls[0].input;
    expect(order.PaymentDetails).toMatchObject({ Phone1: '+1 (212) 634-3952', Email: 'service@global-e.com', Address1: '79 Madison Ave', City: 'New York', StateOrProvince: 'NY', PaymentMethodCode: 'OT' });
    expect(order.PaymentDetails).not.toHaveProperty('CardNumber');
    expect(order.PaymentDetails).not.toHaveProperty('CVVNumber');
    expect(order.SecondaryBilling).toMatchObject({ Phone1: '+1 (212) 634-3952', Email: 'service@global-e.com' });
    expect(order.PrimaryBilling).toMatchObject({ Address1: 'Hertzel 12', City: 'Petah Tiqwa', Email: 'alextest@test.com', FirstName: 'alex test' });
    expect(order.InternationalDetails.OrderTrackingUrl)
      .toBe('https://qa.bglobale.com/Order/Track/mZ7c?OrderId=GE2130509US&ShippingEmail=alextest@test.com');
    expect(adapter.calls[0].context.specDeviations).toEqual(expect.arrayContaining([
      { pointer: '/PaymentDetails/CardNumber', rule: 'is null (read as absent)' },
      { pointer: '/InternationalDetails/ShippingVATRate', rule: 'is required' },
    ]));
  });

  test('workarea order: plain addresses with spaces, commas and slashes are untouched; PaymentDetails null is absent', async () => {
    const adapter = recordingAdapter();
    await request(mount({ merchantGuid: GUIDS, adapter })).post('/cb/SendOrderToMerchant').send(rw('workarea-sendordertomerchant-shipping-discounts.json')).expect(200);
    const order = adapter.calls[0].input;
    expect(order.PrimaryShipping).toMatchObject({ Address1: "21/D, Yegi'a Kapayim st. Yellow building - Floor 1", Phone1: ' 972 73 204 1384', Email: 'info@global-e.com' });
    expect(order).not.toHaveProperty('PaymentDetails');
    expect(order).not.toHaveProperty('MerchantOrderId');
    expect(order.Discounts).toHaveLength(2);
    expect(adapter.calls[0].context.specDeviations).toEqual(expect.arrayContaining([
      { pointer: '/Discounts/0/DiscountSource', rule: 'is required' },
      { pointer: '/Products/0/CustomerVATRate', rule: 'is required' },
    ]));
  });

  test.each([
    ['workarea-getcheckoutcartinfo-get.json', 'workarea-checkoutcartinfo-reply-promo.json'],
    ['workarea-getcheckoutcartinfo-get-stockvalidation.json', 'workarea-checkoutcartinfo-reply-useraddresses.json'],
    ['udg-getcheckoutcartinfo-post-normal.json', 'udg-checkoutcartinfo-reply-normal.json'],
    ['udg-getcheckoutcartinfo-post-gravur.json', 'udg-checkoutcartinfo-reply-gravur.json'],
  ])('cart info: request %s reaches the adapter; its reply %s is sent (nulls dropped)', async (requestFile, replyFile) => {
    const { _request: req, body } = rw(requestFile);
    const reply = rw(replyFile);
    const adapter = recordingAdapter({ getCheckoutCartInfo: () => reply });
    // The Workarea deployment names the token parameter cartToken; the UDG one POSTs it in the payload.
    const app = mount({ merchantGuid: GUIDS, adapter, cartTokenParameter: 'cartToken' });
    const res = req.method === 'GET'
      ? await request(app).get('/cb/GetCheckoutCartInfo').query(req.query)
      : await request(app).post('/cb/GetCheckoutCartInfo').query(req.query).send(body);
    expect(res.status).toBe(200);
    expect(adapter.calls).toHaveLength(1);
    const input = adapter.calls[0].input;
    expect(input.method).toBe(req.method);
    expect(input.merchantCartToken).toBe(req.query.cartToken ?? body.merchantCartToken);
    expect(input.params).toEqual(req.query);
    if (body) expect(input.payload).toEqual(Object.fromEntries(Object.entries(body).filter(([k]) => k !== 'MerchantGUID')));
    const withoutNull = JSON.parse(JSON.stringify(reply, (_k, v) => (v === null ? undefined : v)));
    expect(res.body).toEqual(withoutNull);
  });

  test("validation: 'strict' still refuses them (today's behaviour, for those who want it)", async () => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: GUIDS, adapter, validation: 'strict' })).post('/cb/SendOrderToMerchant').send(rw('udg-sendordertomerchant-created.json'));
    expect(res.status).toBe(400);
    expect(adapter.calls).toEqual([]);
  });
  test('deviations are warned about once per shape: the same shape again is logged at debug, a new shape warns', async () => {
    const logger = captureLogger();
    const app = mount({ merchantGuid: GUIDS, adapter: recordingAdapter(), logger });
    const order = rw('udg-sendordertomerchant-created.json');
    for (const OrderId of ['GE-SHAPE-1', 'GE-SHAPE-2', 'GE-SHAPE-3']) {
      await request(app).post('/cb/SendOrderToMerchant').send({ ...order, OrderId }).expect(200);
    }
    await request(app).post('/cb/SendOrderToMerchant').send({ ...rw('workarea-sendordertomerchant-basic.json'), OrderId: 'GE-SHAPE-4' }).expect(200);
    const levels = logger.lines.filter((l) => /deviates from the interface specification/.test(l.msg ?? '')).map((l) => l.level);
    expect(levels).toEqual(['warn', 'debug', 'debug', 'warn']);
    // Every delivery still carries its full list, whatever the log level.
    const lines = logger.lines.filter((l) => /deviates from the interface specification/.test(l.msg ?? ''));
    expect(lines[1].obj.deviations).toEqual(lines[0].obj.deviations);
  });
});
