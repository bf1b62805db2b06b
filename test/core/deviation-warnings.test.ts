/**
 * Warnings that do not cry wolf (issue 41, item 6): realistic orders, each with a slightly different
 * set of the ~45 nulls the service sends, give one warning per new deviation per process — not a
 * level-40 line per order — then debug; every deviating delivery is still counted in
 * cbk.spec_deviations and still carries its full list on the context.
 */
import { createCallbackKit } from 'crossborder-merchant-kit';
import { forgetWarnedDeviations } from '../../lib/core/stages/validate.js';
import { serviceOrder, newServiceOrderId, DEFAULT_LINES, paymentDetails } from '../../lib/tools/conformance/payloads.js';
import { MERCHANT_GUID } from '../helpers/orders.js';
import { installOtel, type OtelHarness } from '../helpers/otel.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';

let otel: OtelHarness;
beforeEach(() => { forgetWarnedDeviations(); otel = installOtel(); });
afterEach(() => otel.uninstall());

const DEVIATES = /deviates from the interface specification/;
const realistic = (extra: Record<string, unknown> = {}) => {
  const orderId = newServiceOrderId();
  return serviceOrder({ merchantGuid: MERCHANT_GUID, orderId, lines: [...DEFAULT_LINES], trackingNumber: `TN${orderId}`, extra });
};
const post = (body: unknown) => ({ method: 'POST' as const, path: '/SendOrderToMerchant', headers: { 'content-type': 'application/json' }, query: {}, body });

test('ten realistic orders of two shapes: one warning per new deviation, then debug; all ten counted', async () => {
  const logger = captureLogger();
  const kit = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger });
  const bodies = Array.from({ length: 10 }, (_, i) => realistic(i % 2 === 0 ? {} : { PaymentDetails: paymentDetails() }));
  for (const body of bodies) expect((await kit.handle('sendOrderToMerchant', post(body))).status).toBe(200);
  const lines = logger.lines.filter((l) => DEVIATES.test(l.msg ?? ''));
  expect(lines).toHaveLength(10);
  const levels = lines.map((l) => l.level);
  // the first order warns; the first with PaymentDetails has deviations of its own (under /PaymentDetails), so warns once too
  expect(levels).toEqual(['warn', 'warn', 'debug', 'debug', 'debug', 'debug', 'debug', 'debug', 'debug', 'debug']);
  expect((lines[0].obj as { deviationCount: number }).deviationCount).toBeGreaterThan(30);
  const counted = (await otel.points()).filter((p) => p.name === 'cbk.spec_deviations');
  expect(counted.map((p) => p.value)).toEqual([10]);
});

test('per process: a second kit (another shop of the app) does not warn again about what the first warned about', async () => {
  const first = captureLogger();
  const second = captureLogger();
  const a = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger: first });
  const b = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger: second });
  await a.handle('sendOrderToMerchant', post(realistic()));
  await b.handle('sendOrderToMerchant', post(realistic()));
  expect(first.lines.filter((l) => DEVIATES.test(l.msg ?? '')).map((l) => l.level)).toEqual(['warn']);
  expect(second.lines.filter((l) => DEVIATES.test(l.msg ?? '')).map((l) => l.level)).toEqual(['debug']);
});

test('one new deviation among known ones warns again, with the full list of that delivery', async () => {
  const logger = captureLogger();
  const kit = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger });
  await kit.handle('sendOrderToMerchant', post(realistic()));
  const withNewNull = realistic({ CurrencyName: null });
  await kit.handle('sendOrderToMerchant', post(withNewNull));
  const lines = logger.lines.filter((l) => DEVIATES.test(l.msg ?? ''));
  expect(lines.map((l) => l.level)).toEqual(['warn', 'warn']);
  const pointers = (lines[1].obj as { deviations: Array<{ pointer: string }> }).deviations.map((d) => d.pointer);
  expect(pointers).toContain('/CurrencyName');
  expect(pointers.length).toBeGreaterThan(30);
});
