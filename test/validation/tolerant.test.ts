/**
 * The tolerant form of the schemas (lib/validation/tolerant.ts): derived from schemas/, it relaxes
 * `required` except what the kit relies on, and null means absent. Types follow the tolerant form.
 */
import fs from 'node:fs';
import request from 'supertest';
import { createCallbackRouter } from 'crossborder-merchant-kit/express';
import { REQUEST_ROOTS, tolerantSchema, withoutNulls } from '../../lib/validation/tolerant.js';
import { CALLBACK_SCHEMAS } from '../../lib/callbacks/registry.js';
import { BINDINGS } from '../helpers/bindings.js';
import { MERCHANT_GUID, order, paymentOrder, statusUpdate } from '../helpers/orders.js';
import { recordingAdapter } from '../helpers/recording.js';

describe('tolerantSchema', () => {
  const base = 'https://schemas.crossborder-merchant-kit.invalid/';
  test('drops required everywhere below a callback schema, keeps types, enums and patterns', () => {
    const schema = {
      $id: `${base}callbacks/x.schema.json`, type: 'object', required: ['A'],
      properties: { A: { type: 'string', pattern: '^[A-Z]$' }, B: { type: 'object', required: ['C'], properties: { C: { enum: [1, 2] } } } },
    };
    expect(tolerantSchema(schema)).toEqual({
      $id: schema.$id, type: 'object',
      properties: { A: { type: 'string', pattern: '^[A-Z]$' }, B: { type: 'object', properties: { C: { enum: [1, 2] } } } },
    });
    expect(schema.required).toEqual(['A']); // the input is not changed
  });
  test('a property named "required" is a property, not the keyword', () => {
    const schema = { $id: `${base}callbacks/x.schema.json`, type: 'object', properties: { required: { type: 'boolean' } } };
    expect(tolerantSchema(schema)).toEqual(schema);
  });
  test('the top-level required of the callback request schemas is kept (what the kit relies on)', () => {
    for (const rel of REQUEST_ROOTS) {
      if (!fs.existsSync(new URL(`../../schemas/${rel}`, import.meta.url))) continue;
      const schema = JSON.parse(fs.readFileSync(new URL(`../../schemas/${rel}`, import.meta.url), 'utf8'));
      expect([rel, tolerantSchema(schema).required]).toEqual([rel, schema.required]);
    }
  });
  test('every callback request schema of the pipeline is a request root', () => {
    for (const rel of Object.values(CALLBACK_SCHEMAS).map((s) => s.request)) expect(REQUEST_ROOTS).toContain(rel);
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
    ['a present field of the wrong type', '/cb/SendOrderToMerchant', order({ Products: [{ Sku: 'A', Price: '12.50' }] }), '/Products/0/Price: must be number'],
  ])('%s → 400', async (_n, path, body, description) => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post(path).send(body);
    expect({ status: res.status, description: res.body.Description }).toEqual({ status: 400, description });
    expect(adapter.calls).toEqual([]);
  });
});

test('option validation is checked when the router is built', () => {
  expect(() => createCallbackRouter({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), validation: 'strikt' as never }))
    .toThrow(/validation must be 'tolerant' or 'strict'; did you mean 'strict'\?/);
});
