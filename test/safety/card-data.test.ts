/**
 * Issue 9, items 10–13: card numbers (in any spelling) and the request's CVV never reach a reply, a
 * stored reply or a log line, whether the adapter returns them, throws them or logs them; custom
 * auth strategies' secrets are masked in logs.
 */
import { CallbackError } from 'crossborder-merchant-kit';
import { CVV_NUMBER, MERCHANT_GUID, paymentDetails, paymentOrder } from '../helpers/orders.js';
import { memoryFactory } from '../store/harness.js';
import { testKit } from '../helpers/kit.js';

const DIGITS = '4111111111111111';
const FORMS = [DIGITS, '4111 1111 1111 1111', '4111-1111-1111-1111', '4111.1111.1111.1111', '41 11 11 11 11 11 11 11'];
// The CVV is 3 digits: it counts as leaked standing alone, not inside a longer number (a timestamp, an amount).
const CVV_ALONE = new RegExp(`(?<!\\d)${CVV_NUMBER}(?!\\d)`);
const leaks = (text: string) => [...FORMS.filter((f) => text.includes(f)), ...(CVV_ALONE.test(text) ? [CVV_NUMBER] : [])];

describe.each([
  ['bare digits', DIGITS], ['spaces', '4111 1111 1111 1111'], ['dashes', '4111-1111-1111-1111'],
])('a card number sent with %s', (_name, sent) => {
  const order = () => paymentOrder({ PaymentDetails: paymentDetails({ CardNumber: sent, CVVNumber: CVV_NUMBER }) });

  test.each(FORMS)('echoed by the adapter as "%s" in a successful reply is masked in the reply, the store and the logs', async (echo) => {
    const h = await memoryFactory();
    const t = testKit({
      store: h.store,
      answers: {
        performOrderPayment: (_o, ctx) => {
          ctx.log.info({ note: `charging ${echo} cvv ${CVV_NUMBER}` }, `charging ${echo}`);
          return { PaymentAmount: '10.00', PaymentCurrencyCode: 'EUR', Message: `charged ${echo}`, StatusCode: `cvv ${CVV_NUMBER} ok`, InternalOrderId: echo };
        },
      },
    });
    const res = await t.deliver('performOrderPayment', order());
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).toContain('[REDACTED]');
    expect(leaks(JSON.stringify(res.body))).toEqual([]);
    expect(leaks(await h.scan())).toEqual([]);
    expect(leaks(t.log.text())).toEqual([]);
    const replay = await t.deliver('performOrderPayment', order());
    expect(leaks(JSON.stringify(replay.body))).toEqual([]);
  });

  test.each(FORMS)('in a thrown CallbackError ("%s" in Message, Description and ErrorCode) is masked (item 10)', async (echo) => {
    const t = testKit({
      answers: {
        performOrderPayment: () => {
          throw new CallbackError(`card ${echo} declined`, { description: `the card ${echo} with cvv ${CVV_NUMBER} was refused`, errorCode: `DECLINED-${echo}` });
        },
      },
    });
    const res = await t.deliver('performOrderPayment', order());
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ Success: false, Message: 'card [REDACTED] declined' });
    expect(leaks(JSON.stringify(res.body))).toEqual([]);
    expect(leaks(t.log.text())).toEqual([]);
  });

  test.each(FORMS)('in a returned decline or a thrown Error ("%s") is masked in the reply and the logs', async (echo) => {
    let n = 0;
    const t = testKit({
      answers: {
        performOrderPayment: () => {
          if (++n === 1) return { Success: false, Message: `card ${echo} declined`, Description: `cvv ${CVV_NUMBER}` };
          throw new Error(`provider refused ${echo} (cvv ${CVV_NUMBER})`);
        },
      },
    });
    const declined = await t.deliver('performOrderPayment', order());
    const failed = await t.deliver('performOrderPayment', order());
    expect(declined.status).toBe(400);
    expect(failed.status).toBe(500);
    expect(leaks(JSON.stringify([declined.body, failed.body]))).toEqual([]);
    expect(leaks(t.log.text())).toEqual([]);
  });
});

test('the CVV is masked only as a standalone number; other digits of a reply stay', async () => {
  const t = testKit({ answers: { performOrderPayment: () => ({ PaymentAmount: '737.00', PaymentCurrencyCode: 'EUR', Message: `ref 17370 cvv ${CVV_NUMBER}` }) } });
  const res = await t.deliver('performOrderPayment', paymentOrder());
  expect(res.body).toMatchObject({ Message: 'ref 17370 cvv [REDACTED]' });
});

test("a custom auth strategy's secrets are masked in every log line (item 13)", async () => {
  const TOKEN = 'custom-shared-secret-42';
  const t = testKit({
    auth: {
      strategies: [{
        name: 'sharedHeader',
        secrets: [TOKEN],
        authenticate(request: { headers: Record<string, unknown> }, info: { log: { info(o: object, m?: string): void } }) {
          info.log.info({ got: request.headers['x-shared'] }, `checking ${String(request.headers['x-shared'])}`);
          return request.headers['x-shared'] === TOKEN ? { ok: true } : { ok: false, reason: `bad value ${String(request.headers['x-shared'])}` };
        },
      }],
    },
  });
  const res = await t.deliver('performOrderPayment', { ...paymentOrder(), MerchantGUID: MERCHANT_GUID }, { 'x-shared': TOKEN });
  expect(res.status).toBe(200);
  expect(t.log.text()).not.toContain(TOKEN);
  expect(t.log.text()).toContain('[REDACTED]');
});

test('AuthStrategy.secrets must be an array of strings', async () => {
  expect(() => testKit({ auth: { strategies: [{ name: 'x', secrets: 'nope' as never, authenticate: () => ({ ok: true }) }] } }))
    .toThrow(/secrets must be an array of strings/);
});
