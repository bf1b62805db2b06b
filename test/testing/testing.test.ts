import { execFileSync } from 'node:child_process';
import { createSecretKey, generateKeyPairSync } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import type { AdditionalDocumentsDelivery, OrderDocument, SendOrderToMerchantRequest, UpdateOrderStatusRequest } from 'crossborder-merchant-kit';
import {
  TEST_MERCHANT_GUID, basicAuthHeader, buildCartInfoPayload, buildCartInfoQuery, buildDocumentsDelivery, buildOrder, buildOrderDocument,
  buildPaymentDetails, buildUpdateOrderStatus, signTestJwt, uniqueOrderId,
} from 'crossborder-merchant-kit/testing';
import { BINDINGS } from '../helpers/bindings.js';
import { recordingAdapter } from '../helpers/recording.js';

describe('credentials', () => {
  test('basicAuthHeader encodes user:password as UTF-8 base64', () => {
    expect(basicAuthHeader('Aladdin', 'open sesame')).toBe('Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==');
    expect(Buffer.from(basicAuthHeader('zoë', 'pä:ss').slice(6), 'base64').toString('utf8')).toBe('zoë:pä:ss');
  });

  test('signTestJwt with a secret: HS256, iat now, exp in five minutes, claims kept', async () => {
    const secret = 'a-test-secret-of-at-least-32-bytes!!';
    const token = await signTestJwt({ sub: 'svc' }, { secret });
    const { payload, protectedHeader } = await jwtVerify(token, createSecretKey(Buffer.from(secret)), { algorithms: ['HS256'] });
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload.sub).toBe('svc');
    expect(payload.exp! - payload.iat!).toBe(300);
    expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(5);
  });

  test('signTestJwt with a private key: algorithm from the key, kid, and undefined drops a claim', async () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    const token = await signTestJwt({ exp: undefined, aud: 'x' }, { privateKey: ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), kid: 'k1' });
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES384', typ: 'JWT', kid: 'k1' });
    const { payload } = await jwtVerify(token, ec.publicKey, { algorithms: ['ES384'] });
    expect(payload.exp).toBeUndefined();
    expect(payload.aud).toBe('x');
  });

  test('signTestJwt needs exactly one key', async () => {
    await expect(signTestJwt({}, {})).rejects.toThrow(/exactly one of/);
  });
});

describe('builders', () => {
  test('overrides deep-merge objects, replace arrays, and undefined removes a key; each call is fresh', () => {
    const a = buildOrder({ PrimaryBilling: { City: 'Basel' }, Products: [{ Sku: 'X' }], MerchantGUID: undefined });
    expect(a.PrimaryBilling).toMatchObject({ City: 'Basel', FirstName: 'Ren%C3%A9e' });
    expect(a.Products).toEqual([{ Sku: 'X' }]);
    expect('MerchantGUID' in a).toBe(false);
    const b = buildOrder();
    expect(b.MerchantGUID).toBe(TEST_MERCHANT_GUID);
    expect(b.OrderId).toMatch(/^GE\d{13,}CH$/);
    expect(buildOrder().OrderId).not.toBe(b.OrderId);
    expect(buildOrder({ OrderId: 'GE1CH' }).OrderId).toBe('GE1CH');
    (b.PrimaryBilling as any).City = 'changed';
    expect((buildOrder().PrimaryBilling as any).City).toBe('Z%C3%BCrich');
    expect(buildCartInfoQuery({ countryCode: undefined, extra: '1' })).toEqual({ currencyCode: 'CHF', merchantCartToken: 'cart-3c9d1f', extra: '1' });
  });

  test('order ids are unique per call, and per run: a second process does not restart them', () => {
    const ids = new Set([buildOrder().OrderId, buildUpdateOrderStatus().OrderId, buildDocumentsDelivery().OrderId, uniqueOrderId(), uniqueOrderId()]);
    expect(ids.size).toBe(5);
    const builders = fileURLToPath(new URL('../../lib/testing/builders.ts', import.meta.url));
    const firstIdOfARun = () => execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e',
      `const { buildOrder } = await import(${JSON.stringify(builders)}); console.log(buildOrder().OrderId);`],
    { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } }).trim();
    const [run1, run2] = [firstIdOfARun(), firstIdOfARun()];
    expect(run1).toMatch(/^GE\d{13,}CH$/);
    expect(run2).not.toBe(run1);
  });

  test('UpdateOrderStatus, documents webhook and OrderDocument builders: typed payloads, overridable', () => {
    const status: UpdateOrderStatusRequest = buildUpdateOrderStatus({ OrderId: 'GE5CH' });
    expect(status).toEqual({ MerchantGUID: TEST_MERCHANT_GUID, OrderId: 'GE5CH', StatusCode: 'canceled' });
    const doc: OrderDocument = buildOrderDocument({ DocumentTypeCode: '1', DocumentTypeName: 'CommercialInvoice' });
    expect(doc).toMatchObject({ DocumentTypeCode: '1', DocumentTypeName: 'CommercialInvoice', DocumentExtension: 'PDF', URL: expect.stringMatching(/^https:/) });
    const delivery: AdditionalDocumentsDelivery = buildDocumentsDelivery({ OrderId: 'GE5CH' });
    expect(delivery).toEqual({ MerchantGUID: TEST_MERCHANT_GUID, OrderId: 'GE5CH', Documents: [buildOrderDocument()] });
    expect(delivery.Documents[0]).toMatchObject({ DocumentTypeCode: '11', DocumentTypeName: 'EAD' });
    const order: SendOrderToMerchantRequest = buildOrder();
    expect(order.OrderDocuments![0].URL).toContain(String(order.OrderId));
  });

  test('the order carries every field the spec marks required', () => {
    const order = buildOrder();
    expect(order.Customer).toEqual({ IsEndCustomerPrimary: true, SendConfirmation: true });
    const required = ['Sku', 'Quantity', 'Price', 'ListPrice', 'VATRate', 'CustomerVATRate', 'RoundingRate', 'DiscountedPrice',
      'DiscountedPriceForCustoms', 'InternationalDiscountedPrice', 'InternationalDiscountedPriceForCustoms', 'InternationalDiscountedPriceInMerchantCurrency'];
    for (const p of order.Products as Record<string, unknown>[]) for (const k of required) expect(p[k]).toEqual(expect.anything());
    expect(order.OrderDocuments).toHaveLength(1);
    expect((order.InternationalDetails as any).ShippingVATRate).toEqual(expect.any(Number));
    for (const k of ['CardNumber', 'CVVNumber', 'ExpirationDate', 'CountryCode', 'CountryName', 'PaymentMethodCode', 'PaymentMethodName', 'PaymentMethodTypeCode']) {
      expect(buildPaymentDetails()[k]).toEqual(expect.any(String));
    }
  });
});

describe.each(BINDINGS)('%s: built requests are accepted by a router whose merchantGuid is TEST_MERCHANT_GUID', (_name, mount) => {
  test('every callback, decoded before the adapter', async () => {
    const adapter = recordingAdapter();
    const app = mount({ merchantGuid: TEST_MERCHANT_GUID, adapter });
    const q = new URLSearchParams(buildCartInfoQuery()).toString();
    expect((await request(app).get(`/cb/GetCheckoutCartInfo?${q}`)).status).toBe(200);
    expect((await request(app).post(`/cb/GetCheckoutCartInfo?${q}`).send(buildCartInfoPayload())).status).toBe(200);
    expect((await request(app).post('/cb/SendOrderToMerchant').send(buildOrder())).status).toBe(200);
    expect((await request(app).post('/cb/SendOrderToMerchant').send({ order: buildOrder({ PaymentDetails: buildPaymentDetails() }) })).status).toBe(200);
    expect((await request(app).post('/cb/UpdateOrderStatus').send(buildOrder({ StatusCode: 'canceled' }))).status).toBe(200);
    expect((await request(app).post('/cb/PerformOrderPayment').send(buildOrder({ PaymentDetails: buildPaymentDetails() }))).status).toBe(200);
    const sent = buildOrder();
    expect((await request(app).post('/cb/SendOrderToMerchant').send(sent)).status).toBe(200);
    expect((await request(app).post('/cb/UpdateOrderStatus').send(buildUpdateOrderStatus({ OrderId: sent.OrderId }))).status).toBe(200);
    expect((await request(app).post('/cb/SendAdditionalRequiredDocumentsToMerchant').send(buildDocumentsDelivery({ OrderId: sent.OrderId }))).status).toBe(200);
    expect(adapter.calls).toHaveLength(9);
    expect(adapter.calls[7].input).toMatchObject({ OrderId: sent.OrderId, StatusCode: 'canceled' });
    expect(adapter.calls[8].input).toMatchObject({ OrderId: sent.OrderId, Documents: [{ DocumentTypeCode: '11', DocumentTypeName: 'EAD' }] });
    const order = adapter.calls[2].input;
    expect(order.PrimaryBilling).toMatchObject({ FirstName: 'Renée', LastName: 'Müller', Email: 'renee.muller@example.ch', Phone1: '+41 44 123 45 67' });
    expect(adapter.calls[1].input).toMatchObject({ method: 'POST', merchantCartToken: 'cart-3c9d1f', OrderID: 'GE2718281CH' });
  });
});
