/**
 * Typed values sent as text, through every binding (issue 22 items 1, 2; docs/compatibility.md rows R2-1, R2-2).
 * The service's own SFCC cartridge wraps DiscountType, Price, VATRate, LocalVATRate, ProductCartItemId,
 * Quantity and OrderCreationSource in `Number(...)` (test/fixtures/real-world-2/FINDINGS.md #10): the
 * real order of round 1 with those fields sent as text must reach the adapter exactly as the order
 * with numbers does. A null element of an array is dropped and reported (item 2).
 */
import request from 'supertest';
import { BINDINGS } from '../helpers/bindings.js';
import { testOptions } from '../helpers/kit.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';
import { MERCHANT_GUID, order, product } from '../helpers/orders.js';
import { fixture } from '../fixtures/index.js';
import { forgetWarnedDeviations } from '../../lib/core/stages/validate.js';

// Deviations are warned about once per process: each test starts as a fresh process would.
beforeEach(forgetWarnedDeviations);

const GUID = 'abcdabcd-abcd-abcd-abcd-abcdabcdabcd';
const REAL_ORDER = 'real-world/workarea-sendordertomerchant-shipping-discounts.json';
/** The fields FINDINGS.md #10 names (the cartridge reads them with Number(...)). */
const AS_TEXT = new Set(['DiscountType', 'Price', 'VATRate', 'LocalVATRate', 'ProductCartItemId', 'Quantity', 'OrderCreationSource']);

/** The order with every number of those fields turned into its text; returns the pointers changed. */
function asText(value: any, pointer = '', out: string[] = []): string[] {
  for (const [k, v] of Object.entries(value)) {
    const p = `${pointer}/${k}`;
    if (typeof v === 'number' && AS_TEXT.has(k)) {
      value[k] = String(v);
      out.push(p);
    } else if (v !== null && typeof v === 'object') asText(v, p, out);
  }
  return out;
}
const warnings = (logger: ReturnType<typeof captureLogger>) =>
  logger.lines.filter((l) => l.level === 'warn' && /deviates from the interface specification/.test(l.msg ?? ''));

describe.each(BINDINGS)('%s', (_name, mount) => {
  test('a real order with the cartridge\'s Number(...) fields sent as text reaches the adapter as the order with numbers', async () => {
    const adapter = recordingAdapter();
    const logger = captureLogger();
    const app = mount({ merchantGuid: GUID, adapter, logger });
    const numbers = fixture(REAL_ORDER);
    const text = fixture(REAL_ORDER);
    const changed = asText(text);
    expect(changed.length).toBeGreaterThanOrEqual(5);
    await request(app).post('/cb/SendOrderToMerchant').send(numbers).expect(200);
    const res = await request(app).post('/cb/SendOrderToMerchant').send({ ...text, OrderId: 'GE-TEXT-1' });
    expect({ status: res.status, Success: res.body.Success }).toEqual({ status: 200, Success: true });
    const [fromNumbers, fromText] = adapter.calls;
    expect({ ...fromText.input, OrderId: numbers.OrderId }).toEqual(fromNumbers.input);
    const coerced = fromText.context.specDeviations.filter((d: any) => d.rule === 'coerced from a string').map((d: any) => d.pointer);
    expect(coerced.sort()).toEqual([...changed].sort());
    // Counted in the warning of that payload's shape, by pointer and rule, never the value.
    // (the nulls, normal, are never warned about; the warning lists the rest)
    const second = warnings(logger).at(-1)!;
    expect(second.obj.deviations).toEqual(fromText.context.specDeviations.filter((d: any) => d.rule !== 'is null (read as absent)'));
    expect(JSON.stringify(second.obj)).not.toContain('"21.55"');
  });

  test('the same shape of coercions warns once; a new shape warns again', async () => {
    const logger = captureLogger();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger });
    const send = (id: string, p: Record<string, unknown>) => request(app).post('/cb/SendOrderToMerchant').send(order({ OrderId: id, Products: [product(p)] })).expect(200);
    await send('GE-S1', { Quantity: '8' });
    await send('GE-S2', { Quantity: '3' });
    expect(warnings(logger)).toHaveLength(1);
    await send('GE-S3', { Quantity: '3', Price: '9.5' });
    await send('GE-S4', { Quantity: '' });
    expect(warnings(logger).map((w) => w.obj.deviations)).toEqual([
      [{ pointer: '/Products/0/Quantity', rule: 'coerced from a string' }],
      [{ pointer: '/Products/0/Quantity', rule: 'coerced from a string' }, { pointer: '/Products/0/Price', rule: 'coerced from a string' }],
      [{ pointer: '/Products/0/Quantity', rule: 'is an empty string (read as absent)' }],
    ]);
  });

  test.each([
    ['/Products/0/Quantity', { Products: [product({ Quantity: '8 ' })] }, 'must be number'],
    ['/Products/0/Quantity', { Products: [product({ Quantity: 'Infinity' })] }, 'must be number'],
    ['/Products/0/Quantity', { Products: [product({ Quantity: 'eight' })] }, 'must be number'],
    ['/Products/0/Price', { Products: [product({ Price: { Amount: 5 } })] }, 'must be number'],
    ['/OrderCreationSource', { OrderCreationSource: '1.5' }, 'must be integer'],
  ])('%s unreadable as its type → 400 naming the pointer, adapter not called', async (pointer, overrides, rule) => {
    const { options, adapter } = testOptions();
    const res = await request(mount(options)).post('/cb/SendOrderToMerchant').send(order(overrides));
    expect({ status: res.status, description: res.body.Description }).toEqual({ status: 400, description: `${pointer}: ${rule}` });
    expect(adapter.calls).toEqual([]);
    expect(res.text).not.toMatch(/Infinity|eight|1\.5/);
  });

  test("validation: 'strict' refuses a number sent as text", async () => {
    const { options, adapter } = testOptions({ validation: 'strict' });
    const res = await request(mount(options)).post('/cb/SendOrderToMerchant')
      .send(order({ Products: [product({ Quantity: '8' })] }));
    expect({ status: res.status, description: res.body.Description }).toEqual({ status: 400, description: '/Products/0/Quantity: must be number' });
    expect(adapter.calls).toEqual([]);
  });

  test('the fingerprint is of the payload as received: "8" twice is a replay, then 8 is a different payload (an update)', async () => {
    const { options, adapter } = testOptions();
    const app = mount(options);
    const send = (quantity: unknown) => request(app).post('/cb/SendOrderToMerchant').send(order({ OrderId: 'GE-FP-1', Products: [product({ Quantity: quantity })] })).expect(200);
    await send('8');
    await send('8');
    expect(adapter.calls).toHaveLength(1);
    await send(8);
    expect(adapter.calls).toHaveLength(2);
    expect(adapter.calls.map((c) => c.input.Products[0].Quantity)).toEqual([8, 8]);
    expect(adapter.calls[1].context.previous).toBeDefined();
  });

  test('beside a coerced value, null still means absent for the fingerprint (as everywhere else)', async () => {
    const { options, adapter } = testOptions();
    const app = mount(options);
    const send = (extra: Record<string, unknown>) => request(app).post('/cb/SendOrderToMerchant')
      .send(order({ OrderId: 'GE-FP-2', UserId: null, ...extra, Products: [product({ Quantity: '8', Brand: null }), null] })).expect(200);
    await send({});
    const res = await request(app).post('/cb/SendOrderToMerchant')
      .send(order({ OrderId: 'GE-FP-2', Products: [product({ Quantity: '8' })] })).expect(200);
    expect(res.body.Success).toBe(true);
    expect(adapter.calls).toHaveLength(1);
    expect(adapter.calls[0].input.Products).toHaveLength(1);
    expect(adapter.calls[0].input).not.toHaveProperty('UserId');
  });

  test('a null element inside an array is dropped and reported like a null field', async () => {
    const { options, adapter } = testOptions();
    const body = order({ Products: [null, product({ Sku: 'B' })], Discounts: [null] });
    const res = await request(mount(options)).post('/cb/SendOrderToMerchant').send(body);
    expect(res.status).toBe(200);
    const { input, context } = adapter.calls[0];
    expect([input.Products.map((p: any) => p.Sku), input.Discounts]).toEqual([['B'], []]);
    expect(context.specDeviations).toEqual([
      { pointer: '/Products/0', rule: 'is null (read as absent)' },
      { pointer: '/Discounts/0', rule: 'is null (read as absent)' },
    ]);
  });
});
