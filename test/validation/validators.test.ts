/** createValidators(): compiled once (never per request), the request/result contract of lib/callbacks. */
import { jest } from '@jest/globals';
import request from 'supertest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createCallbackRouter } from 'crossborder-merchant-kit/express';
import express from 'express';
import { CALLBACK_SCHEMAS } from '../../lib/callbacks/registry.js';
import { createValidators, toIssue } from '../../lib/validation/index.js';
import { schemaValidator } from '../../lib/validation/ajv.js';
import { fixture, MERCHANT_GUID } from '../fixtures/index.js';

afterEach(() => jest.restoreAllMocks());

test('schemas compile when the router is created; requests never compile or look up a schema', async () => {
  const app = express();
  app.use('/cb', createCallbackRouter({
    merchantGuid: MERCHANT_GUID,
    adapter: { async sendOrderToMerchant() { return { OrderId: '1' }; }, async updateOrderStatus() {} },
  }));
  const getSchema = jest.spyOn(Ajv2020.prototype, 'getSchema');
  const compile = jest.spyOn(Ajv2020.prototype, 'compile');
  const addSchema = jest.spyOn(Ajv2020.prototype, 'addSchema');
  const order = fixture('callbacks/update-order-status.json');
  for (let i = 0; i < 3; i++) {
    expect((await request(app).post('/cb/UpdateOrderStatus').send(order)).status).toBe(200);
    expect((await request(app).post('/cb/UpdateOrderStatus').send({ ...order, StatusCode: undefined })).status).toBe(400);
  }
  expect(getSchema).not.toHaveBeenCalled();
  expect(compile).not.toHaveBeenCalled();
  expect(addSchema).not.toHaveBeenCalled();
});

test('a second router reuses the compiled validators of the process', () => {
  createValidators(CALLBACK_SCHEMAS);
  const getSchema = jest.spyOn(Ajv2020.prototype, 'getSchema');
  createValidators(CALLBACK_SCHEMAS);
  const ids = new Set(getSchema.mock.results.map((r) => r.value));
  expect(getSchema).toHaveBeenCalled();
  for (const path of Object.values(CALLBACK_SCHEMAS).flatMap((s) => [s.request, s.result])) expect(ids.has(schemaValidator(path))).toBe(true);
  expect(schemaValidator(CALLBACK_SCHEMAS.updateOrderStatus.request)).toBe(schemaValidator(CALLBACK_SCHEMAS.updateOrderStatus.request));
});

describe('request()', () => {
  const v = createValidators(CALLBACK_SCHEMAS);

  test('the cart-info request as lib/callbacks builds it', () => {
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
