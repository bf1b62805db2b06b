/**
 * The pipeline refuses invalid callbacks with 400 INVALID_REQUEST (JSON pointer + rule, never the
 * submitted values) before the adapter runs, and answers 500 when the adapter's own result breaks the schema.
 */
import request from 'supertest';
import type { CallbackKitOptions, CallbackName, LoggerLike } from 'crossborder-merchant-kit';
import { BINDINGS } from '../helpers/bindings.js';
import { fixture, MERCHANT_GUID, stringLeaves } from '../fixtures/index.js';
import { CALLBACK_VARIANTS, variantPayload } from '../fixtures/invalid.js';
import { forgetWarnedDeviations } from '../../lib/core/stages/validate.js';
import { CALLBACK_NAMES, DEFAULT_PATHS } from '../../lib/core/registry.js';

// Deviations are warned about once per process: each test starts as a fresh process would.
beforeEach(forgetWarnedDeviations);

/** Where each callback is mounted here: the router at /cb, every callback at its registry default path. */
const PATHS = Object.fromEntries(CALLBACK_NAMES.map((name) => [name, `/cb${DEFAULT_PATHS[name]}`])) as Record<CallbackName, string>;

interface Recorder { calls: Array<{ callback: CallbackName; input: unknown }>; logs: Array<{ level: string; obj: any; msg?: string }> }

function setup(results: Partial<Record<CallbackName, unknown>> = {}): { options: CallbackKitOptions; rec: Recorder } {
  const rec: Recorder = { calls: [], logs: [] };
  const method = (callback: CallbackName, fallback: unknown) => async (input: unknown) => {
    rec.calls.push({ callback, input });
    return (callback in results ? results[callback] : fallback) as never;
  };
  const logger: LoggerLike = {
    info: (obj, msg) => { rec.logs.push({ level: 'info', obj, msg }); },
    warn: (obj, msg) => { rec.logs.push({ level: 'warn', obj, msg }); },
    error: (obj, msg) => { rec.logs.push({ level: 'error', obj, msg }); },
  };
  const options: CallbackKitOptions = {
    merchantGuid: MERCHANT_GUID,
    logger,
    adapter: {
      getCheckoutCartInfo: method('getCheckoutCartInfo', fixture('callbacks/checkout-cart-info.json')),
      sendOrderToMerchant: method('sendOrderToMerchant', { InternalOrderId: 'INT-1', OrderId: '100023871', PaymentAmount: '93.11', PaymentCurrencyCode: 'EUR' }),
      updateOrderStatus: method('updateOrderStatus', { StatusCode: 'canceled' }),
      performOrderPayment: method('performOrderPayment', { PaymentAmount: '64.90', PaymentCurrencyCode: 'EUR' }),
      receiveAdditionalRequiredDocuments: method('receiveAdditionalRequiredDocuments', {}),
    },
  };
  return { options, rec };
}

function send(app: Parameters<typeof request>[0], callback: CallbackName, payload: Record<string, unknown>) {
  if (callback === 'getCheckoutCartInfo') return request(app).get(PATHS[callback]).query(payload);
  const body = callback === 'sendOrderToMerchant' ? { order: payload } : payload;
  return request(app).post(PATHS[callback]).send(body);
}

describe.each(BINDINGS)('%s', (_name, mount) => {
  describe("invalid callbacks are refused before the adapter (validation: 'strict')", () => {
    test.each(CALLBACK_VARIANTS.map((v) => [v.callback!, v.name, v] as const))('%s: %s', async (callback, _n, variant) => {
      const { options, rec } = setup();
      const payload = variantPayload(variant);
      const res = await send(mount({ ...options, validation: 'strict' }), callback, payload);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        Success: false,
        Message: 'Invalid request',
        ErrorCode: 'INVALID_REQUEST',
        Description: `${variant.expect.pointer || '/'}: ${variant.expect.rule}`,
      });
      expect(rec.calls).toEqual([]);
      const submitted = [...stringLeaves(payload), ...(typeof variant.to === 'string' ? [variant.to] : [])];
      const echoed = submitted.filter((s) => s.length >= 3 && res.text.includes(s));
      expect(echoed).toEqual([]);
    });
  });

  describe("validation: 'tolerant' (default) refuses what the kit relies on, accepts and reports the rest", () => {
    // A spec-required field missing below the top level, or a value breaking a pattern or format (not
    // part of its type), is a deviation; a missing top-level field the kit relies on, a wrong type or an
    // enum value outside the list stays a refusal.
    const tolerated = (v: (typeof CALLBACK_VARIANTS)[number]) => (v.expect.rule === 'is required' && v.expect.pointer.split('/').length > 2)
      || /^must (match|be a date)/.test(v.expect.rule);
    test.each(CALLBACK_VARIANTS.filter((v) => !tolerated(v)).map((v) => [v.callback!, v.name, v] as const))('refused: %s: %s', async (callback, _n, variant) => {
      const { options, rec } = setup();
      const res = await send(mount(options), callback, variantPayload(variant));
      expect(res.status).toBe(400);
      expect(res.body.Description).toBe(`${variant.expect.pointer || '/'}: ${variant.expect.rule}`);
      expect(rec.calls).toEqual([]);
    });
    test.each(CALLBACK_VARIANTS.filter(tolerated).map((v) => [v.callback!, v.name, v] as const))('accepted and reported: %s: %s', async (callback, _n, variant) => {
      const { options, rec } = setup();
      let deviations: unknown;
      const adapter = options.adapter as unknown as Record<string, (i: unknown, c: any) => unknown>;
      const original = adapter[callback];
      adapter[callback] = (input, context) => { deviations = context.specDeviations; return original(input, context); };
      const res = await send(mount(options), callback, variantPayload(variant));
      expect(res.status).toBe(200);
      expect(rec.calls).toHaveLength(1);
      expect(deviations).toEqual([variant.expect]);
      const warnings = rec.logs.filter((l) => l.level === 'warn' && /deviates from the interface specification/.test(l.msg ?? ''));
      expect(warnings).toHaveLength(1);
      expect(warnings[0].obj).toMatchObject({ deviations: [variant.expect], deviationCount: 1 });
    });
  });

  describe('valid fixtures reach the adapter', () => {
    test.each([
      ['sendOrderToMerchant', 'callbacks/merchant-order.json'],
      ['updateOrderStatus', 'callbacks/update-order-status.json'],
      ['performOrderPayment', 'callbacks/perform-order-payment.json'],
      ['receiveAdditionalRequiredDocuments', 'callbacks/documents-delivery.json'],
      ['getCheckoutCartInfo', 'callbacks/cart-info-query.json'],
    ] as const)('%s with %s', async (callback, file) => {
      const { options, rec } = setup();
      const res = await send(mount(options), callback, fixture(file));
      expect(res.status).toBe(200);
      expect(rec.calls.map((c) => c.callback)).toEqual([callback]);
    });

    test('POST cart info with its payload', async () => {
      const { options, rec } = setup();
      const res = await request(mount(options)).post(PATHS.getCheckoutCartInfo).query(fixture('callbacks/cart-info-query.json'))
        .send(fixture('callbacks/cart-info-post-payload.json'));
      expect(res.status).toBe(200);
      expect(res.body.productsList).toHaveLength(2);
      expect(rec.calls).toHaveLength(1);
    });
  });

  describe('an adapter result that breaks the schema is a merchant bug', () => {
    test.each([
      ['updateOrderStatus', '/OrderId', 'callbacks/update-order-status.json', { OrderId: { id: 100023871 } }],
      ['sendOrderToMerchant', '/StatusCode', 'callbacks/update-order-status.json', { InternalOrderId: 'INT-1', StatusCode: ['7'] }],
      ['receiveAdditionalRequiredDocuments', '/Message', 'callbacks/documents-delivery.json', { Message: ['ok'] }],
      ['getCheckoutCartInfo', '/productsList/0/OriginCountryCode', 'callbacks/cart-info-query.json',
        { productsList: [{ ProductCode: 'MUG-CER-350', OriginCountryCode: 'de' }] }],
      ['getCheckoutCartInfo', '/discountList/0/CalculationMode', 'callbacks/cart-info-query.json',
        { productsList: [], discountList: [{ OriginalDiscountValue: 5, CalculationMode: 4 }] }],
    ] as const)('%s result invalid at %s → 500 and a log line naming the field', async (callback, field, file, result) => {
      const { options, rec } = setup({ [callback]: result });
      const res = await send(mount(options), callback, fixture(file));
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ Success: false, ErrorCode: 'INTERNAL_ERROR' });
      expect(res.text).not.toContain(field);
      expect(rec.calls).toHaveLength(1);
      const lines = rec.logs.filter((l) => l.level === 'error' && JSON.stringify(l.obj).includes(`invalid at ${field}`));
      expect(lines).toHaveLength(1);
    });
  });
});
