/**
 * Warnings that do not cry wolf (issue 41, item 6; issue 51, item 4): the ~45 nulls the service sends
 * on every order, each order a slightly different set, are normal (its documentation reads null as
 * absent): never a warning, a debug line; another deviation is warned about once per new kind per
 * process, the line listing what is not a null; every deviating delivery is still counted in
 * cbk.spec_deviations and still carries its full list on the context.
 */
import { createCallbackKit } from 'crossborder-merchant-kit';
import { forgetWarnedDeviations, NULL_RULE } from '../../lib/core/stages/validate.js';
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

/** A number sent as text on the first line (a deviation worth a warning: 'coerced from a string'). */
const quantityAsText = (body: Record<string, unknown>) => {
  const line = (body.Products as Array<Record<string, unknown>>)[0];
  return { ...body, Products: [{ ...line, Quantity: String(line.Quantity) }, ...(body.Products as unknown[]).slice(1)] };
};

test('ten realistic orders, nulls only, of two shapes: no warning, ten debug lines with every null; all ten counted', async () => {
  const logger = captureLogger();
  const kit = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger });
  const bodies = Array.from({ length: 10 }, (_, i) => realistic(i % 2 === 0 ? {} : { PaymentDetails: paymentDetails() }));
  for (const body of bodies) expect((await kit.handle('sendOrderToMerchant', post(body))).status).toBe(200);
  const lines = logger.lines.filter((l) => DEVIATES.test(l.msg ?? ''));
  expect(lines.map((l) => l.level)).toEqual(Array(10).fill('debug'));
  expect(logger.lines.filter((l) => l.level === 'warn')).toEqual([]);
  const first = lines[0].obj as { deviationCount: number; deviations: Array<{ rule: string }> };
  expect(first.deviationCount).toBeGreaterThan(30);
  expect(first.deviations).toHaveLength(first.deviationCount);
  expect(first.deviations.every((d) => d.rule === NULL_RULE)).toBe(true);
  const counted = (await otel.points()).filter((p) => p.name === 'cbk.spec_deviations');
  expect(counted.map((p) => p.value)).toEqual([10]);
});

test('a deviation that is not a null warns once per process, the line listing it and counting the nulls; the same again is debug', async () => {
  const logger = captureLogger();
  const kit = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger });
  for (let i = 0; i < 3; i++) expect((await kit.handle('sendOrderToMerchant', post(quantityAsText(realistic())))).status).toBe(200);
  const lines = logger.lines.filter((l) => DEVIATES.test(l.msg ?? ''));
  expect(lines.map((l) => l.level)).toEqual(['warn', 'debug', 'debug']);
  const warned = lines[0].obj as { deviations: Array<{ pointer: string; rule: string }>; deviationCount: number; nullCount: number };
  expect(warned.deviations).toEqual([{ pointer: '/Products/0/Quantity', rule: expect.stringContaining('coerced from a string') }]);
  expect(warned.nullCount).toBeGreaterThan(30);
  expect(warned.deviationCount).toBe(warned.nullCount + 1);
});

test('per process: a second kit (another shop of the app) does not warn again about what the first warned about', async () => {
  const first = captureLogger();
  const second = captureLogger();
  const a = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger: first });
  const b = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger: second });
  await a.handle('sendOrderToMerchant', post(quantityAsText(realistic())));
  await b.handle('sendOrderToMerchant', post(quantityAsText(realistic())));
  expect(first.lines.filter((l) => DEVIATES.test(l.msg ?? '')).map((l) => l.level)).toEqual(['warn']);
  expect(second.lines.filter((l) => DEVIATES.test(l.msg ?? '')).map((l) => l.level)).toEqual(['debug']);
});

test('a new null among known deviations is not a warning; a new deviation that is not a null is', async () => {
  const logger = captureLogger();
  const kit = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger });
  await kit.handle('sendOrderToMerchant', post(quantityAsText(realistic())));
  await kit.handle('sendOrderToMerchant', post(quantityAsText(realistic({ CurrencyName: null }))));
  await kit.handle('sendOrderToMerchant', post(quantityAsText(realistic({ SameDayDispatchCost: '0' }))));
  const lines = logger.lines.filter((l) => DEVIATES.test(l.msg ?? ''));
  expect(lines.map((l) => l.level)).toEqual(['warn', 'debug', 'warn']);
  expect((lines[1].obj as { deviations: Array<{ pointer: string }> }).deviations.map((d) => d.pointer)).toContain('/CurrencyName');
  const pointers = (lines[2].obj as { deviations: Array<{ pointer: string }> }).deviations.map((d) => d.pointer);
  expect(pointers.sort()).toEqual(['/Products/0/Quantity', '/SameDayDispatchCost']);
});
