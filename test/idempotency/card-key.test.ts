/**
 * Issue 36: a payment's idempotencyKey differs when the card differs (a keyed hash of the card data,
 * never the PAN), stays equal for a true redelivery; another card after a successful payment gets
 * the `payment already succeeded` warning (outcome payment_replayed). docs/idempotency.md.
 */
import { createHash } from 'node:crypto';
import { CallbackError, createCallbackKit } from 'crossborder-merchant-kit';
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { CARD_NUMBER, CVV_NUMBER, MERCHANT_GUID, OTHER_GUID, paymentDetails, paymentOrder } from '../helpers/orders.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';

const OTHER_CARD = '5555555555554444';
const post = (body: unknown) => ({ method: 'POST', path: '/PerformOrderPayment', query: {}, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const withCard = (card: string, cvv = CVV_NUMBER) => paymentOrder({ PaymentDetails: paymentDetails({ CardNumber: card, CVVNumber: cvv }) });

function kitFor(decline: () => boolean, merchantGuid = MERCHANT_GUID) {
  const log = captureLogger();
  const keys: string[] = [];
  const adapter = recordingAdapter({
    performOrderPayment: (_o, ctx) => {
      keys.push(ctx.idempotencyKey);
      if (decline()) throw new CallbackError('card declined', { status: 402 });
      return { InternalOrderId: 'A-1', PaymentAmount: '129.90', PaymentCurrencyCode: 'EUR' };
    },
  });
  const kit = createCallbackKit({ merchantGuid, adapter, logger: log, store: new MemoryStore() });
  return { kit, keys, log, adapter };
}

test('a retry with another card after a decline gets another idempotencyKey', async () => {
  const t = kitFor(() => true);
  await t.kit.handle('performOrderPayment', post(withCard(CARD_NUMBER)));
  await t.kit.handle('performOrderPayment', post(withCard(OTHER_CARD)));
  expect(t.keys).toHaveLength(2);
  expect(t.keys[0]).not.toBe(t.keys[1]);
});

test('another CVV alone is another key too', async () => {
  const t = kitFor(() => true);
  await t.kit.handle('performOrderPayment', post(withCard(CARD_NUMBER, '737')));
  await t.kit.handle('performOrderPayment', post(withCard(CARD_NUMBER, '738')));
  expect(new Set(t.keys).size).toBe(2);
});

test('a true redelivery (same card, same payload) keeps its key', async () => {
  const t = kitFor(() => true);
  await t.kit.handle('performOrderPayment', post(withCard(CARD_NUMBER)));
  await t.kit.handle('performOrderPayment', post(withCard(CARD_NUMBER)));
  expect(t.keys).toHaveLength(2);
  expect(t.keys[0]).toBe(t.keys[1]);
  // …and across processes of the same shop (another kit, same MerchantGUID, any case).
  const other = kitFor(() => true, MERCHANT_GUID.toUpperCase());
  await other.kit.handle('performOrderPayment', post(withCard(CARD_NUMBER)));
  expect(other.keys[0]).toBe(t.keys[0]);
});

test('the key is keyed: never the PAN, never a plain hash of it; another shop gets another key for the same card', async () => {
  const t = kitFor(() => true);
  await t.kit.handle('performOrderPayment', post(withCard(CARD_NUMBER)));
  const [key] = t.keys;
  const plain = (s: string) => createHash('sha256').update(s).digest('hex');
  expect(key).not.toContain(CARD_NUMBER);
  for (const h of [plain(CARD_NUMBER), plain(`${CARD_NUMBER}${CVV_NUMBER}`)]) expect(key).not.toContain(h);
  const shop2 = kitFor(() => true, OTHER_GUID);
  await shop2.kit.handle('performOrderPayment', post({ ...withCard(CARD_NUMBER), MerchantGUID: OTHER_GUID }));
  expect(shop2.keys).toHaveLength(1);
  expect(shop2.keys[0]).not.toBe(key);
});

test('a payment without card data keeps the key of its payload alone', async () => {
  const t = kitFor(() => true);
  const noCard = paymentOrder({ PaymentDetails: paymentDetails({ CardNumber: undefined, CVVNumber: undefined }) });
  await t.kit.handle('performOrderPayment', post(noCard));
  await t.kit.handle('performOrderPayment', post(noCard));
  expect(t.keys[0]).toBe(t.keys[1]);
  expect(t.keys[0]).toMatch(/^performOrderPayment:GE1001CH:[0-9a-f]{64}$/);
});

test('another card after a successful payment: the stored success, with the payment_replayed warning', async () => {
  const t = kitFor(() => false);
  expect((await t.kit.handle('performOrderPayment', post(withCard(CARD_NUMBER)))).status).toBe(200);
  const again = await t.kit.handle('performOrderPayment', post(withCard(OTHER_CARD)));
  expect(again.status).toBe(200);
  expect(again.headers['idempotency-replayed']).toBe('true');
  expect(t.keys).toHaveLength(1);
  const warned = t.log.lines.filter((l) => l.level === 'warn' && /payment already succeeded/.test(l.msg ?? ''));
  expect(warned).toHaveLength(1);
  expect(t.log.summaries().at(-1)?.obj.outcome).toBe('payment_replayed');
  // The same card again: a plain replay, no warning.
  await t.kit.handle('performOrderPayment', post(withCard(CARD_NUMBER)));
  expect(t.log.lines.filter((l) => l.level === 'warn' && /payment already succeeded/.test(l.msg ?? ''))).toHaveLength(1);
});
