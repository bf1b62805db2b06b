/**
 * Logging: one summary line per callback (callback, orderId, outcome, status, durationMs), and card
 * data, Authorization header values and MerchantGUID values never reach the logger, whatever path
 * the call takes (success, decline, adapter failure with the card number in its message, refusal).
 */
import request from 'supertest';
import { CallbackError } from 'crossborder-merchant-kit';
import { BINDINGS } from '../helpers/bindings.js';
import { CARD_NUMBER, MERCHANT_GUID, OTHER_GUID, paymentDetails, paymentOrder, statusUpdate } from '../helpers/orders.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXRva2Vu.sig-7Yk2';
const CVV = '4921'; // long enough to be unambiguous in a log search
const BASIC = Buffer.from('merchant:hunter2-pass').toString('base64');

function secretsAbsent(text: string, extra: string[] = []) {
  for (const secret of [CARD_NUMBER, TOKEN, BASIC, MERCHANT_GUID, MERCHANT_GUID.toUpperCase(), ...extra]) {
    expect(text).not.toContain(secret);
  }
  // Four digits also occur by chance inside a random requestId (hex) or a timestamp: the CVV is
  // searched as a value of its own, not as a part of a longer run of digits, hex or a UUID group.
  expect(text).not.toMatch(new RegExp(`(?<![0-9A-Za-z-])${CVV}(?![0-9A-Za-z-])`));
}

const payment = () => paymentOrder({ PaymentDetails: paymentDetails({ CVVNumber: CVV }) });

describe.each(BINDINGS)('%s', (_name, mount) => {
  test('one summary line per callback with callback, orderId, outcome, status and durationMs', async () => {
    const logger = captureLogger();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger });
    await request(app).post('/cb/PerformOrderPayment').send(payment()).expect(200);
    await request(app).post('/cb/UpdateOrderStatus').send(statusUpdate('canceled', { OrderId: 'GE2002CH' })).expect(200);
    await request(app).get('/cb/GetCheckoutCartInfo?merchantCartToken=c1').expect(200);
    const lines = logger.summaries();
    expect(lines).toHaveLength(3);
    expect(lines.map((l) => l.obj.callback)).toEqual(['performOrderPayment', 'updateOrderStatus', 'getCheckoutCartInfo']);
    expect(lines[0].obj).toMatchObject({ orderId: 'GE1001CH', outcome: 'success', status: 200 });
    expect(lines[1].obj).toMatchObject({ orderId: 'GE2002CH', outcome: 'success', status: 200 });
    for (const line of lines) {
      expect(line.level).toBe('info');
      expect(typeof line.obj.durationMs).toBe('number');
      expect(line.obj.durationMs).toBeGreaterThanOrEqual(0);
      expect(typeof line.obj.requestId).toBe('string');
    }
  });

  test.each([
    ['declined', 409, () => { throw new CallbackError('Card declined', { status: 409 }); }],
    ['error', 500, () => { throw new Error('boom'); }],
  ])('the summary line reports outcome %s', async (outcome, status, impl) => {
    const logger = captureLogger();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter({ performOrderPayment: impl }), logger });
    await request(app).post('/cb/PerformOrderPayment').send(payment()).expect(status);
    expect(logger.summaries()).toHaveLength(1);
    expect(logger.summaries()[0].obj).toMatchObject({ callback: 'performOrderPayment', orderId: 'GE1001CH', outcome, status });
  });

  test.each([
    ['as configured', MERCHANT_GUID],
    ['in upper case (accepted: the comparison ignores case)', MERCHANT_GUID.toUpperCase()],
  ])('the payload\'s MerchantGUID %s, logged by the adapter, is masked', async (_how, guid) => {
    const logger = captureLogger();
    const adapter = recordingAdapter({
      updateOrderStatus: (_o: unknown, ctx: { log: { warn(o: object, m: string): void } }) => { ctx.log.warn({ guid }, `guid ${guid}`); },
    });
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter, logger });
    await request(app).post('/cb/UpdateOrderStatus').send(statusUpdate('canceled', { MerchantGUID: guid })).expect(200);
    const text = JSON.stringify(logger.lines);
    expect(text).toContain('[REDACTED]');
    secretsAbsent(text);
  });

  test('a refused call (401) is logged once as rejected', async () => {
    const logger = captureLogger();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger });
    await request(app).post('/cb/UpdateOrderStatus').send(statusUpdate('canceled', { MerchantGUID: OTHER_GUID })).expect(401);
    expect(logger.summaries()).toHaveLength(1);
    expect(logger.summaries()[0].obj).toMatchObject({ callback: 'updateOrderStatus', outcome: 'rejected', status: 401 });
    secretsAbsent(logger.text(), [OTHER_GUID]);
  });

  test('card data, Authorization values and MerchantGUID never reach the logger, even when the adapter logs them', async () => {
    const logger = captureLogger();
    const adapter = recordingAdapter({
      performOrderPayment: (o: any, ctx: any) => {
        ctx.log.info({ order: o, headers: ctx.headers }, 'adapter saw the order');
        ctx.log.info({ note: `charging ${o.PaymentDetails.CardNumber} cvv ${o.PaymentDetails.CVVNumber} for ${o.MerchantGUID}` }, `auth ${ctx.headers.authorization}`);
        return { InternalOrderId: 'A-1', PaymentAmount: '129.90', PaymentCurrencyCode: 'EUR' };
      },
    });
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter, logger });
    await request(app).post('/cb/PerformOrderPayment').set('authorization', `Bearer ${TOKEN}`).send(payment()).expect(200);
    expect(logger.lines.some((l) => l.msg === 'adapter saw the order')).toBe(true);
    secretsAbsent(logger.text());
  });

  test('an adapter error whose message and stack carry the card number is logged masked', async () => {
    const logger = captureLogger();
    const adapter = recordingAdapter({
      performOrderPayment: (o: any) => { throw new Error(`gateway refused card ${o.PaymentDetails.CardNumber} cvv ${o.PaymentDetails.CVVNumber} for ${o.MerchantGUID}`); },
    });
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter, logger });
    const res = await request(app).post('/cb/PerformOrderPayment').set('authorization', `Basic ${BASIC}`).send(payment());
    expect(res.status).toBe(500);
    expect(logger.text()).toContain('gateway refused card');
    secretsAbsent(logger.text());
    secretsAbsent(res.text);
  });

  test('a CallbackError with a misspelt option (JavaScript) is answered 500 and the log names the option to use', async () => {
    const logger = captureLogger();
    const adapter = recordingAdapter({ performOrderPayment: () => { throw new CallbackError('Card declined', { staus: 402 } as never); } });
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter, logger });
    const res = await request(app).post('/cb/PerformOrderPayment').set('authorization', `Bearer ${TOKEN}`).send(payment());
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ Success: false, ErrorCode: 'INTERNAL_ERROR' });
    expect(logger.text()).toContain('did you mean \\"CallbackError status\\"?');
  });

  test('a CallbackError message is not masked in the response but is in the log', async () => {
    const logger = captureLogger();
    const adapter = recordingAdapter({ performOrderPayment: () => { throw new CallbackError('Card declined', { description: 'insufficient funds' }); } });
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter, logger });
    const res = await request(app).post('/cb/PerformOrderPayment').set('authorization', `Bearer ${TOKEN}`).send(payment());
    expect(res.body).toEqual({ Success: false, Message: 'Card declined', Description: 'insufficient funds' });
    secretsAbsent(logger.text());
  });

  test('malformed and refused bodies carrying card data leave no trace of it in the log', async () => {
    const logger = captureLogger();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger, bodyLimit: 2048 });
    const raw = JSON.stringify(payment());
    await request(app).post('/cb/PerformOrderPayment').set('content-type', 'application/json').send(raw.slice(0, -5)).expect(400);
    await request(app).post('/cb/PerformOrderPayment').set('content-type', 'text/plain').send(raw).expect(415);
    await request(app).post('/cb/PerformOrderPayment').send(paymentOrder({ CustomerComments: 'x'.repeat(3000), PaymentDetails: paymentDetails({ CVVNumber: CVV }) })).expect(413);
    await request(app).post('/cb/PerformOrderPayment').send({ ...payment(), MerchantGUID: OTHER_GUID }).expect(401);
    expect(logger.summaries()).toHaveLength(4);
    secretsAbsent(logger.text(), [OTHER_GUID]);
  });

  test('no logger option: the kit is silent and still answers', async () => {
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter() });
    await request(app).post('/cb/PerformOrderPayment').send(payment()).expect(200);
  });

  test('a logger that throws never breaks a callback', async () => {
    const broken = { info() { throw new Error('disk full'); }, warn() { throw new Error('disk full'); }, error() { throw new Error('disk full'); } };
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger: broken });
    const res = await request(app).post('/cb/PerformOrderPayment').send(payment());
    expect(res.status).toBe(200);
    expect(res.body.Success).toBe(true);
  });
});
