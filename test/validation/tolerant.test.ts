/**
 * The tolerant form of the schemas (lib/validation/tolerant.ts): derived from schemas/, it relaxes
 * `required` except what the kit relies on, and null means absent. Types follow the tolerant form.
 */
import fs from 'node:fs';
import request from 'supertest';
import { createCallbackRouter } from 'crossborder-merchant-kit/express';
import { tolerantSchema, withoutNulls } from '../../lib/validation/tolerant.js';
import { CALLBACK_SCHEMAS } from '../../lib/core/registry.js';
import { BINDINGS } from '../helpers/bindings.js';
import { MERCHANT_GUID, order, paymentOrder, statusUpdate } from '../helpers/orders.js';
import { testOptions } from '../helpers/kit.js';
import { recordingAdapter } from '../helpers/recording.js';

describe('tolerantSchema', () => {
  const base = 'https://schemas.crossborder-merchant-kit.invalid/';
  test('drops required, patterns, formats and limits below a callback schema; keeps types and enums', () => {
    const schema = {
      $id: `${base}callbacks/x.schema.json`, type: 'object', required: ['A'],
      properties: {
        A: { type: 'string', pattern: '^[A-Z]$', maxLength: 3 },
        B: { type: 'object', required: ['C'], properties: { C: { enum: [1, 2] }, D: { type: 'number', minimum: 0 } } },
        E: { $ref: '../common.schema.json#/$defs/Date', description: 'd' },
        F: { $ref: '../common.schema.json#/$defs/Id' },
      },
    };
    expect(tolerantSchema(schema)).toEqual({
      $id: schema.$id, type: 'object',
      properties: {
        A: { type: 'string' },
        B: { type: 'object', properties: { C: { enum: [1, 2] }, D: { type: 'number' } } },
        E: { type: 'string', description: 'd' },
        F: { $ref: '../common.schema.json#/$defs/Id' },
      },
    });
    expect(schema.required).toEqual(['A']); // the input is not changed
  });
  test('a property named "required" is a property, not the keyword', () => {
    const schema = { $id: `${base}callbacks/x.schema.json`, type: 'object', properties: { required: { type: 'boolean' } } };
    expect(tolerantSchema(schema)).toEqual(schema);
  });
  test('the top-level required of the roots given (the registry\'s request schemas) is kept, of no other', () => {
    const roots = Object.values(CALLBACK_SCHEMAS).map((s) => s.request);
    for (const rel of roots) {
      const schema = JSON.parse(fs.readFileSync(new URL(`../../schemas/${rel}`, import.meta.url), 'utf8'));
      expect([rel, tolerantSchema(schema, rel, roots).required]).toEqual([rel, schema.required]);
      if (schema.required) expect([rel, tolerantSchema(schema, rel).required]).toEqual([rel, undefined]);
    }
  });
  test('service resources (what the merchant sends) have no tolerant form', () => {
    const schema = { $id: `${base}service/x.schema.json`, type: 'object', required: ['A'] };
    expect(tolerantSchema(schema)).toBe(schema);
  });
});

describe('withoutNulls', () => {
  test('removes null properties at any depth and returns their pointers; null array elements stay', () => {
    const value = { a: null, b: { 'c/d': null, e: 1 }, f: [{ g: null }, null] };
    expect(withoutNulls(value)).toEqual(['/a', '/b/c~1d', '/f/0/g']);
    expect(value).toEqual({ b: { e: 1 }, f: [{}, null] });
  });
  test('each pointer names the path of its own null (siblings visited before it do not leak into it)', () => {
    const value = {
      a: { b: { c: 1 }, d: [1, { e: 2 }] },
      n1: null,
      list: [{ f: 1 }, [{ g: null }], { h: { i: null } }],
      'x~y': { 'p/q': null, r: { s: 1 } },
      after: { t: null },
      shifted: { gone: null, k: 1, alsoGone: null, deeper: { u: null, w: [{ v: null }] } },
    };
    expect(withoutNulls(value)).toEqual([
      '/n1', '/list/1/0/g', '/list/2/h/i', '/x~0y/p~1q', '/after/t',
      '/shifted/gone', '/shifted/alsoGone', '/shifted/deeper/u', '/shifted/deeper/w/0/v',
    ]);
    expect(value).toEqual({ a: { b: { c: 1 }, d: [1, { e: 2 }] }, list: [{ f: 1 }, [{}], { h: {} }], 'x~y': { r: { s: 1 } }, after: {}, shifted: { k: 1, deeper: { w: [{}] } } });
  });
  test('pointers start at the given pointer; a payload without nulls is left untouched', () => {
    expect(withoutNulls({ a: [{ b: null }] }, '/order')).toEqual(['/order/a/0/b']);
    const clean = { a: [{ b: 1 }], c: 'x' };
    expect(withoutNulls(clean)).toEqual([]);
    expect(clean).toEqual({ a: [{ b: 1 }], c: 'x' });
    expect(withoutNulls(null)).toEqual([]);
  });
  test('nulls nested deeper than 64 levels are left as they are', () => {
    const deep = (levels: number) => {
      let v: Record<string, unknown> = { z: null };
      for (let i = 0; i < levels; i++) v = { n: v };
      return v;
    };
    expect(withoutNulls(deep(64))).toHaveLength(1);
    expect(withoutNulls(deep(65))).toEqual([]);
  });
  test('only own keys: an inherited null (also on a polluted Object.prototype) is neither removed nor reported; null-prototype objects are walked', () => {
    const proto = { inheritedNull: null, shadowed: null };
    const child = Object.assign(Object.create(proto) as Record<string, unknown>, { own: null, shadowed: 1, keep: { n: null } });
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { x: null, y: { z: null } });
    expect(withoutNulls({ child, bare })).toEqual(['/child/own', '/child/keep/n', '/bare/x', '/bare/y/z']);
    expect(Object.keys(child)).toEqual(['shadowed', 'keep']);
    expect(proto).toEqual({ inheritedNull: null, shadowed: null });
    Object.defineProperty(Object.prototype, 'polluted', { value: null, enumerable: true, configurable: true, writable: true });
    try {
      expect(withoutNulls({ a: { b: null, c: 1 }, d: null })).toEqual(['/a/b', '/d']);
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
  });
});

describe('generated types follow the tolerant form', () => {
  const types = fs.readFileSync(new URL('../../lib/generated/types.ts', import.meta.url), 'utf8');
  const block = (name: string) => new RegExp(`export interface ${name} \\{[\\s\\S]*?\\n\\}`).exec(types)![0];
  test('fields the service omits are optional in what it sends', () => {
    expect(block('MerchantProduct')).toMatch(/\n  CustomerVATRate\?: number;/);
    expect(block('MerchantDiscount')).toMatch(/\n  DiscountSource\?:/);
    expect(block('MerchantInternationalDetails')).toMatch(/\n  ShippingVATRate\?: number;/);
    expect(block('MerchantPaymentDetails')).toMatch(/\n  CardNumber\?: string;/);
    expect(block('MerchantCustomerDetails')).toMatch(/\n  StateOrProvince\?: string;/);
    expect(block('MerchantPaymentDetails')).toMatch(/\n  StateOrProvince\?: string;/);
  });
  test('what the kit relies on and what the merchant returns stay required', () => {
    expect(block('PerformOrderPaymentRequest')).toMatch(/\n  PaymentDetails: MerchantPaymentDetails;/);
    expect(block('UpdateOrderStatusRequest')).toMatch(/\n  StatusCode: string;/);
    expect(block('CheckoutCartInfo')).toMatch(/\n  productsList: CartProduct\[\];/);
  });
});

describe.each(BINDINGS)('%s: what the kit relies on is still refused when null or missing', (_name, mount) => {
  test.each([
    ['OrderId null', '/cb/SendOrderToMerchant', order({ OrderId: null }), '/OrderId: is required'],
    ['OrderId an object', '/cb/SendOrderToMerchant', order({ OrderId: { id: 1 } }), '/OrderId: must be string or number'],
    ['PaymentDetails null on PerformOrderPayment', '/cb/PerformOrderPayment', paymentOrder({ PaymentDetails: null }), '/PaymentDetails: is required'],
    ['PaymentDetails a string on PerformOrderPayment', '/cb/PerformOrderPayment', paymentOrder({ PaymentDetails: 'x' }), '/PaymentDetails: must be object'],
    ['StatusCode null', '/cb/UpdateOrderStatus', statusUpdate('canceled', { StatusCode: null }), '/StatusCode: is required'],
    ['a present field of the wrong type', '/cb/SendOrderToMerchant', order({ Products: [{ Sku: 'A', Price: '12.50 EUR' }] }), '/Products/0/Price: must be number'],
  ])('%s → 400', async (_n, path, body, description) => {
    const { options, adapter } = testOptions();
    const res = await request(mount(options)).post(path).send(body);
    expect({ status: res.status, description: res.body.Description }).toEqual({ status: 400, description });
    expect(adapter.calls).toEqual([]);
  });
});

describe.each(BINDINGS)('%s: nulls the schemas as written allow (no deviation) still reach the adapter absent', (_name, mount) => {
  test('a nullable field, an unknown member and an unknown list\'s null element are removed; a payload without null arrives as sent', async () => {
    const { options, adapter } = testOptions();
    const app = mount(options);
    await request(app).post('/cb/SendOrderToMerchant')
      .send(order({ ExporterDetails: { DestinationRegistrationNumber: null, LocalRegistrationClearance: true }, Extra: null, ExtraList: [1, null, { n: null }] }))
      .expect(200);
    await request(app).post('/cb/SendOrderToMerchant').send(order({ OrderId: 'GE1002CH', ExtraList: [1, { n: 2 }] })).expect(200);
    await request(app).post('/cb/SendOrderToMerchant').send(order({ OrderId: 'GE1003CH', ExtraList: [[null], 2] })).expect(200);
    const [withNulls, without, elementOnly] = adapter.calls;
    expect(withNulls.context.specDeviations).toEqual([]);
    expect([withNulls.input.ExporterDetails, 'Extra' in withNulls.input, withNulls.input.ExtraList])
      .toEqual([{ LocalRegistrationClearance: true }, false, [1, {}]]);
    expect(without.input).toEqual(expect.objectContaining({ OrderId: 'GE1002CH', ExtraList: [1, { n: 2 }] }));
    expect(elementOnly.input.ExtraList).toEqual([[], 2]);
  });
});

describe.each(BINDINGS)('%s: a pattern or format the value breaks is reported, not refused', (_name, mount) => {
  test('a date-time ExpirationDate and a padded CurrencyCode reach the adapter as sent', async () => {
    const { options, adapter } = testOptions();
    const body = paymentOrder({ CurrencyCode: ' EUR' });
    (body.PaymentDetails as Record<string, unknown>).ExpirationDate = '2027-06-30T00:00:00';
    await request(mount(options)).post('/cb/PerformOrderPayment').send(body).expect(200);
    const { input, context } = adapter.calls[0];
    expect([input.CurrencyCode, input.PaymentDetails.ExpirationDate]).toEqual([' EUR', '2027-06-30T00:00:00']);
    expect(context.specDeviations).toEqual(expect.arrayContaining([
      { pointer: '/CurrencyCode', rule: 'must match ^[A-Z]{3}$' },
      { pointer: '/PaymentDetails/ExpirationDate', rule: 'must be a date (YYYY-MM-DD)' },
    ]));
  });
  test("validation: 'strict' refuses it", async () => {
    const { options } = testOptions({ validation: 'strict' });
    const res = await request(mount(options)).post('/cb/SendOrderToMerchant').send(order({ CurrencyCode: 'eur' }));
    expect(res.status).toBe(400);
  });
});

test('option validation is checked when the router is built', () => {
  expect(() => createCallbackRouter({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), validation: 'strikt' as never }))
    .toThrow(/validation must be 'tolerant' or 'strict'; did you mean 'strict'\?/);
});

/** withoutNulls written plainly (a pointer string per nested value), to compare the fast one with. */
function referenceWithoutNulls(value: unknown, pointer = '', out: string[] = [], depth = 0, elements = false): string[] {
  if (value === null || typeof value !== 'object' || depth > 64) return out;
  const token = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
  if (Array.isArray(value)) {
    const kept: unknown[] = [];
    value.forEach((v, i) => {
      if (v === null && elements) out.push(`${pointer}/${i}`);
      else kept.push(v);
      if (v !== null && typeof v === 'object') referenceWithoutNulls(v, `${pointer}/${i}`, out, depth + 1, elements);
    });
    value.splice(0, value.length, ...kept);
    return out;
  }
  for (const k of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[k];
    if (v === null) {
      delete (value as Record<string, unknown>)[k];
      out.push(`${pointer}/${token(k)}`);
    } else if (typeof v === 'object') referenceWithoutNulls(v, `${pointer}/${token(k)}`, out, depth + 1, elements);
  }
  return out;
}

test('withoutNulls gives the plain definition\'s pointers and result on 500 random payloads full of nulls (replies and requests)', () => {
  const KEYS = ['a', 'b', 'x/y', 'm~n', '0', '10', 'Name', 'Sub', 'é', ''];
  for (let seed = 1; seed <= 500; seed++) {
    let s = seed;
    const rnd = () => { s = (s * 1103515245 + 12345) % 2 ** 31; return s / 2 ** 31; };
    const make = (depth: number): unknown => {
      const r = rnd();
      if (depth > 5 || r < 0.3) return r < 0.15 ? null : Math.floor(r * 100);
      if (r < 0.5) return Array.from({ length: Math.floor(rnd() * 4) }, () => make(depth + 1));
      const o: Record<string, unknown> = {};
      for (let i = Math.floor(rnd() * 6); i > 0; i--) o[KEYS[Math.floor(rnd() * KEYS.length)]] = make(depth + 1);
      return o;
    };
    const payload = { OrderId: `O-${seed}`, body: make(0), tail: null };
    const request = JSON.parse(JSON.stringify(payload));
    const copy = JSON.parse(JSON.stringify(payload));
    expect(withoutNulls(payload, '/p')).toEqual(referenceWithoutNulls(copy, '/p'));
    expect(payload).toEqual(copy);
    // A request's null list elements are dropped too, reported at their index as received.
    const requestCopy = JSON.parse(JSON.stringify(request));
    expect(withoutNulls(request, '/p', [], { elements: true })).toEqual(referenceWithoutNulls(requestCopy, '/p', [], 0, true));
    expect(request).toEqual(requestCopy);
  }
});
