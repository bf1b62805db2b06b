/** createValidators(): the validators generated at build time (never compiled at run time), the request/result contract of lib/core. */
import { jest } from '@jest/globals';
import request from 'supertest';
import { createCallbackRouter } from 'crossborder-merchant-kit/express';
import express from 'express';
import { CALLBACK_SCHEMAS } from '../../lib/core/registry.js';
import { createValidators, toIssue } from '../../lib/validation/index.js';
import { loadValidators, schemaValidator, type SchemaKind } from '../../lib/validation/ajv.js';
import { fixture, MERCHANT_GUID } from '../fixtures/index.js';
import { MODULES } from '../../lib/generated/validators/index.js';
import { VALIDATORS as STRICT_ALL } from '../../lib/generated/validators/strict-all.js';

/** The generated functions of a schema of a kind: from the module that lists it, and (strict) from strict-all. */
async function generated(path: string, kind: SchemaKind): Promise<unknown[]> {
  const module = MODULES[kind].find((m) => m.paths.includes(path));
  const own = module ? (await module.load()).VALIDATORS[path] : undefined;
  return [own, ...(kind === 'strict' ? [STRICT_ALL[path as keyof typeof STRICT_ALL]] : [])].filter((f) => f !== undefined);
}

afterEach(() => jest.restoreAllMocks());

test('no schema is compiled at run time: every validator is a generated function, the same for every router', async () => {
  const app = express();
  app.use('/cb', createCallbackRouter({
    merchantGuid: MERCHANT_GUID,
    adapter: { async sendOrderToMerchant() { return { OrderId: '1' }; }, async updateOrderStatus() {} },
  }));
  const order = fixture('callbacks/update-order-status.json');
  for (let i = 0; i < 3; i++) {
    expect((await request(app).post('/cb/UpdateOrderStatus').send(order)).status).toBe(200);
    expect((await request(app).post('/cb/UpdateOrderStatus').send({ ...order, StatusCode: undefined })).status).toBe(400);
  }
  await createValidators(CALLBACK_SCHEMAS, 'tolerant').ready();
  await createValidators(CALLBACK_SCHEMAS, 'strict').ready();
  for (const path of Object.values(CALLBACK_SCHEMAS).flatMap((s) => [s.request, s.result])) {
    expect(await generated(path, 'strict')).toContain(schemaValidator(path));
  }
  for (const path of Object.values(CALLBACK_SCHEMAS).map((s) => s.request)) {
    expect(await generated(path, 'tolerant')).toEqual([schemaValidator(path, 'tolerant')]);
    expect(await generated(path, 'report')).toEqual([schemaValidator(path, 'report')]);
  }
  // Built once: a second call gives the same function (not a new one compiled each time).
  const first = schemaValidator(CALLBACK_SCHEMAS.updateOrderStatus.request);
  expect(schemaValidator(CALLBACK_SCHEMAS.updateOrderStatus.request)).toBe(first);
});

test('a validator carries its schema, as AJV\'s did (the client reads a response schema\'s properties)', async () => {
  await loadValidators('tolerant', ['callbacks/product.schema.json', CALLBACK_SCHEMAS.updateOrderStatus.request]);
  expect(schemaValidator('service/hub-details.schema.json').schema).toMatchObject({ title: 'HubDetails', properties: { HubId: expect.anything() } });
  // The tolerant form: the registry's request schemas keep their top-level required, nothing below does.
  expect(schemaValidator(CALLBACK_SCHEMAS.updateOrderStatus.request, 'tolerant').schema).toMatchObject({ required: ['OrderId', 'StatusCode'] });
  expect(schemaValidator('callbacks/product.schema.json', 'tolerant').schema).not.toHaveProperty('required');
  expect(() => schemaValidator('callbacks/nothing.schema.json')).toThrow(/no schema/);
  expect(() => schemaValidator('service/hub-details.schema.json', 'tolerant')).toThrow(/no schema/);
});

test('tolerant validators exist only for the roots they were generated for; roots that read the same are fine', async () => {
  await loadValidators('tolerant', ['callbacks/merchant-order.schema.json']);
  const roots = Object.values(CALLBACK_SCHEMAS).map((s) => s.request);
  // merchant-order.schema.json has no top-level required: as a root or not, its tolerant form is the same.
  expect(schemaValidator('callbacks/merchant-order.schema.json', 'tolerant', [...roots, 'callbacks/merchant-order.schema.json'])).toBe((await generated('callbacks/merchant-order.schema.json', 'tolerant'))[0]);
  // Without UpdateOrderStatus among the roots its StatusCode would not be required: not what was generated.
  expect(() => schemaValidator(CALLBACK_SCHEMAS.updateOrderStatus.request, 'tolerant', roots.filter((r) => r !== CALLBACK_SCHEMAS.updateOrderStatus.request)))
    .toThrow(/npm run generate/);
  expect(() => schemaValidator('callbacks/product.schema.json', 'tolerant', [...roots, 'callbacks/product.schema.json'])).toThrow(/npm run generate/);
});

describe('request()', () => {
  const v = createValidators(CALLBACK_SCHEMAS);
  beforeAll(() => v.ready());

  test('the cart-info request as lib/core builds it', () => {
    const built = { method: 'GET', merchantCartToken: 'c7d1', countryCode: 'DE', currencyCode: 'EUR', params: { merchantCartToken: 'c7d1', extra: ['a', 'b'] } };
    expect(v.request('getCheckoutCartInfo', built)).toBeNull();
    expect(v.request('getCheckoutCartInfo', { ...built, method: 'POST', OrderID: 'GE1', payload: { OrderID: 12345, MerchantGUID: 'g' } })).toBeNull();
    expect(v.request('getCheckoutCartInfo', { ...built, merchantCartToken: '' })).toEqual([{ pointer: '/merchantCartToken', rule: 'must have at least 1 characters' }]);
    expect(v.request('getCheckoutCartInfo', { ...built, params: { extra: 3 } })).toEqual([{ pointer: '/params/extra', rule: 'must be string or array' }]);
  });

  test('one issue per request (allErrors is off), the first failing location', () => {
    expect(v.request('updateOrderStatus', {})).toEqual([{ pointer: '/OrderId', rule: 'is required' }]);
  });
});

describe('result()', () => {
  const v = createValidators(CALLBACK_SCHEMAS);
  beforeAll(() => v.ready());

  test('ResponseInfo fields are checked without Success (the kit sets it)', () => {
    expect(v.result('sendOrderToMerchant', {})).toBeNull();
    expect(v.result('sendOrderToMerchant', { InternalOrderId: 'INT-1', PaymentAmount: '10.00', PaymentCurrencyCode: 'EUR' })).toBeNull();
    expect(v.result('performOrderPayment', { PaymentAmount: '10.00', PaymentCurrencyCode: 'Euro' })).toBe('/PaymentCurrencyCode');
    expect(v.result('updateOrderStatus', { Description: 42 })).toBe('/Description');
  });

  test('CheckoutCartInfo is checked whole', () => {
    expect(v.result('getCheckoutCartInfo', fixture('callbacks/checkout-cart-info.json'))).toBeNull();
    expect(v.result('getCheckoutCartInfo', {})).toBe('/productsList');
  });
});

test('toIssue escapes a missing property name into a JSON pointer token', () => {
  expect(toIssue([{ keyword: 'required', instancePath: '/a', schemaPath: '#', params: { missingProperty: 'x/y~z' } }]))
    .toEqual({ pointer: '/a/x~1y~0z', rule: 'is required' });
});
