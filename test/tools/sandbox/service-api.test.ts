/**
 * The sandbox's merchant → service API: getShipmentInformation, additional documents, dispatch V2/V1
 * and the active hub, with the spec's error semantics, and every call in the exchange log.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { validatePayload } from '../../../lib/validation/index.js';
import { createSandbox, SEED_TOKENS, SEED_TRACKING_NUMBERS as TN, type Sandbox, type SandboxEvent } from '../../../lib/tools/sandbox/index.js';

const TOKEN = 'sandbox-test-token';
const auth = (token = TOKEN) => ({ authorization: `Bearer ${token}` });

let sandbox: Sandbox;
let base: string;

async function call(method: string, path: string, options: { headers?: Record<string, string>; body?: unknown } = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(options.headers ?? {}) },
    body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  sandbox = createSandbox({ port: 0, accessToken: TOKEN, documentsDelayMs: 0 });
  base = await sandbox.listen();
});
afterAll(async () => { await sandbox.close(); });

describe('GET /api/shipments/{trackingNumber}', () => {
  test('answers a known shipment with ShipmentInformation (schema-valid) and Cache-Control: no-store', async () => {
    const r = await call('GET', `/api/shipments/${TN.ok}`, { headers: auth() });
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(validatePayload('ShipmentInformation', r.body)).toBeNull();
    expect(r.body.shipment.trackingNumber).toBe(TN.ok);
    expect(r.body.shipment.parcels[0].orderId).toBe('GE100000001SB');
    // totals are the sums of the lines, 2 decimals: 2 x 29.95 + 12.5
    expect(r.body.exportDeclaration.commercialInvoice.totalValue).toBe(72.4);
    expect(r.body.shipment.totalWeight).toBe(r.body.shipment.parcels[0].parcelWeight);
  });

  test('gives the same A810 body for an unknown number and for another merchant\'s number', async () => {
    const unknown = await call('GET', '/api/shipments/SBX0000000000', { headers: auth() });
    const other = await call('GET', `/api/shipments/${TN.otherMerchant}`, { headers: auth() });
    expect(unknown.status).toBe(400);
    expect(unknown.body.Code).toBe('A810');
    expect(unknown.body.Error).toBe('TrackingNumberNotFound');
    expect(other.status).toBe(400);
    expect(other.body).toEqual(unknown.body);
    expect(validatePayload('ErrorResponse', unknown.body)).toBeNull();
    // the owner does see it
    const owner = await call('GET', `/api/shipments/${TN.otherMerchant}`, { headers: auth(SEED_TOKENS.otherMerchant) });
    expect(owner.status).toBe(200);
  });

  test.each([
    ['too long', 'A'.repeat(51)],
    ['bad characters', 'SBX%20100%3B'],
    ['a bad escape', '%E2%82'],
  ])('answers 400 INVALID_REQUEST for a malformed number (%s)', async (_name, raw) => {
    const r = await call('GET', `/api/shipments/${raw}`, { headers: auth() });
    expect(r.status).toBe(400);
    expect(r.body.Code).toBe('INVALID_REQUEST');
  });

  test('answers 401 without a credential and with a wrong one, before looking the shipment up', async () => {
    for (const headers of [{}, auth('wrong-token'), { authorization: TOKEN }, { authorization: `Basic ${TOKEN}` }]) {
      const r = await call('GET', `/api/shipments/${TN.ok}`, { headers });
      expect(r.status).toBe(401);
      expect(r.body.Code).toBe('UNAUTHORIZED');
      expect(r.body.shipment).toBeUndefined();
    }
  });

  test('answers 403 FORBIDDEN for a merchant whose API is not enabled', async () => {
    const r = await call('GET', `/api/shipments/${TN.ok}`, { headers: auth(SEED_TOKENS.apiDisabled) });
    expect(r.status).toBe(403);
    expect(r.body.Code).toBe('FORBIDDEN');
  });

  test.each([
    ['a missing EORI', TN.missingEori, /EORI/],
    ['a missing commodity code', TN.missingCommodityCode, /commodity code/],
    ['a missing line value', TN.missingLineValue, /customs value/],
    ['more than one currency', TN.mixedCurrencies, /single clearance currency/],
  ])('answers 409 SHIPMENT_CONFIGURATION_INCOMPLETE for %s, with no declaration data', async (_name, tn, reason) => {
    const r = await call('GET', `/api/shipments/${tn}`, { headers: auth() });
    expect(r.status).toBe(409);
    expect(r.body.Code).toBe('SHIPMENT_CONFIGURATION_INCOMPLETE');
    expect(r.body.Description).toMatch(reason);
    expect(Object.keys(r.body).sort()).toEqual(['Code', 'Description', 'Error']);
  });

  test('answers 500 INTERNAL_ERROR on demand', async () => {
    const r = await call('GET', `/api/shipments/${TN.internalError}`, { headers: auth() });
    expect(r.status).toBe(500);
    expect(r.body.Code).toBe('INTERNAL_ERROR');
  });
});

describe('POST /Order/UpdateOrderDispatchV2 and /Order/UpdateOrderDispatch', () => {
  const v2 = (body: unknown, token = TOKEN) => call('POST', '/Order/UpdateOrderDispatchV2', { headers: auth(token), body });
  const v1 = (body: unknown) => call('POST', '/Order/UpdateOrderDispatch', { headers: auth(), body });
  const parcel = (code: string, sku: string, qty: number) => ({ ParcelCode: code, Products: [{ ProductCode: sku, DeliveryQuantity: qty }] });

  test.each([
    ['an unknown order', { OrderId: 'GE000000000XX', Parcels: [parcel('P', 'MUG-LOGO', 1)] }, /not found/],
    ['another merchant\'s order', { OrderId: 'GE900000001SB', Parcels: [parcel('P', 'MUG-LOGO', 1)] }, /not found/],
    ['no id at all', { Parcels: [parcel('P', 'MUG-LOGO', 1)] }, /OrderId or MerchantOrderID/],
    ['neither Parcels nor Exceptions', { OrderId: 'GE100000002SB', IsCompleted: true }, /Parcels or Exceptions/],
    ['empty Parcels and null Exceptions', { OrderId: 'GE100000002SB', Parcels: [], Exceptions: null }, /Parcels or Exceptions/],
    ['a SKU not on the order', { OrderId: 'GE100000002SB', Parcels: [parcel('P', 'NOT-ON-ORDER', 1)] }, /not on order/],
    ['more than ordered', { OrderId: 'GE100000002SB', Parcels: [parcel('P', 'JKT-ALPINE-M', 2)] }, /More of JKT-ALPINE-M/],
  ])('V2 answers HTTP 200 with Success false for %s', async (_name, body, reason) => {
    const r = await v2(body);
    expect(r.status).toBe(200);
    expect(r.body.Success).toBe(false);
    expect(r.body.Reason).toMatch(reason);
  });

  test('repeated dispatches add up, by OrderId or merchant order id (both V2 spellings), until more than ordered is refused', async () => {
    // GE100000001SB: TSHIRT-BLUE-M x2, MUG-LOGO x1
    const first = await v2({ OrderId: 'GE100000001SB', Parcels: [parcel('P1', 'TSHIRT-BLUE-M', 1)], IsCompleted: false });
    expect(first.body).toEqual({ Success: true, Reason: expect.stringMatching(/Dispatch received/) });
    expect(validatePayload('DispatchResponse', first.body)).toBeNull();
    const second = await v2({ MerchantOrderID: 'M-1001', Parcels: [parcel('P2', 'TSHIRT-BLUE-M', 1)] });
    expect(second.body.Success).toBe(true);
    const third = await v2({ MerchantOrderId: 'M-1001', Parcels: [parcel('P3', 'TSHIRT-BLUE-M', 1)] });
    expect(third.body).toEqual({ Success: false, Reason: expect.stringMatching(/2 already dispatched, 1 more, 2 ordered/) });
    const order = sandbox.orders.get('GE100000001SB')!;
    expect(order.lines.find((l) => l.sku === 'TSHIRT-BLUE-M')!.dispatched).toBe(2);
    expect(order.parcels.map((p) => p.parcelCode)).toEqual(['P1', 'P2']);
    // completing closes the order to further dispatches
    const done = await v2({ OrderId: 'GE100000001SB', Parcels: [parcel('P3', 'MUG-LOGO', 1)], IsCompleted: true });
    expect(done.body.Success).toBe(true);
    expect(sandbox.orders.get('GE100000001SB')!.completed).toBe(true);
    const after = await v2({ OrderId: 'GE100000001SB', Exceptions: [{ ProductCode: 'MUG-LOGO', ExceptionType: 1, Quantity: 1 }] });
    expect(after.body).toEqual({ Success: false, Reason: expect.stringMatching(/already completed/) });
  });

  test('V1 takes MerchantOrderId, allows empty Parcels and null Exceptions, and does not read the V2 spelling', async () => {
    const ok = await v1({ MerchantOrderId: 'M-1003', Parcels: [], Exceptions: null, IsCompleted: false });
    expect(ok.body.Success).toBe(true);
    const v2Spelling = await v1({ MerchantOrderID: 'M-1003', Parcels: [] });
    expect(v2Spelling.body).toEqual({ Success: false, Reason: 'One of OrderId or MerchantOrderId is required' });
  });

  test('exceptions are checked: type 1 needs a Quantity, type 2 a date', async () => {
    const noQty = await v2({ OrderId: 'GE100000004SB', Exceptions: [{ ProductCode: 'MUG-LOGO', ExceptionType: 1 }] });
    expect(noQty.body.Reason).toMatch(/Quantity/);
    const noDate = await v2({ OrderId: 'GE100000004SB', Exceptions: [{ ProductCode: 'MUG-LOGO', ExceptionType: 2 }] });
    expect(noDate.body.Reason).toMatch(/ExpectedFulfilmentDate/);
    const ok = await v2({ OrderId: 'GE100000004SB', Exceptions: [{ ProductCode: 'MUG-LOGO', ExceptionType: 2, ExpectedFulfilmentDate: '2026-12-24' }] });
    expect(ok.body.Success).toBe(true);
  });

  test('answers 401 with a wrong token and 400 (Success false) for a body that is not JSON', async () => {
    const wrong = await v2({ OrderId: 'GE100000002SB' }, 'nope');
    expect(wrong.status).toBe(401);
    expect(wrong.body.Success).toBe(false);
    const broken = await call('POST', '/Order/UpdateOrderDispatchV2', { headers: { ...auth(), 'content-type': 'application/json' }, body: '{"OrderId":' });
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ Success: false, Reason: 'The request body is not valid JSON' });
  });
});

describe('POST /additional-required-documents', () => {
  test('answers B001 for an unknown order', async () => {
    const r = await call('POST', '/additional-required-documents', { headers: auth(), body: { Orders: [{ OrderId: 'GE000000000XX', TrackingNumbers: ['X'] }] } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ Code: 'B001', Message: 'Order not found', Description: 'The order id provided does not exist: GE000000000XX' });
  });

  test('refuses a body without Orders, and a wrong token', async () => {
    expect((await call('POST', '/additional-required-documents', { headers: auth(), body: {} })).body.Code).toBe('INVALID_REQUEST');
    expect((await call('POST', '/additional-required-documents', { headers: auth('bad'), body: { Orders: [] } })).status).toBe(401);
  });

  test('accepts a known order and marks it requested; without a merchant URL nothing is delivered', async () => {
    const events: SandboxEvent[] = [];
    const stop = sandbox.log.subscribe((e) => events.push(e));
    const r = await call('POST', '/additional-required-documents', { headers: { ...auth(), MerchantGUID: sandbox.options.merchantGuid }, body: { Orders: [{ OrderId: 'GE100000002SB', TrackingNumbers: [TN.okHighValue] }] } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ Success: true });
    for (let i = 0; i < 100 && !sandbox.orders.get('GE100000002SB')!.timeline.some((t) => t.event === 'documents-not-delivered'); i++) {
      await new Promise((res) => setTimeout(res, 10));
    }
    stop();
    const order = sandbox.orders.get('GE100000002SB')!;
    expect(order.documentsRequested).toBe(true);
    expect(order.documentsDelivered).toBe(false);
    expect(order.timeline.map((t) => t.event)).toEqual(expect.arrayContaining(['documents-requested', 'documents-not-delivered']));
    expect(events.some((e) => e.type === 'order' && e.order.orderId === 'GE100000002SB')).toBe(true);
  });
});

test('POST /Browsing/ActiveHubDetails answers HubDetails', async () => {
  const r = await call('POST', '/Browsing/ActiveHubDetails', { headers: auth() });
  expect(r.status).toBe(200);
  expect(validatePayload('HubDetails', r.body)).toBeNull();
  expect(typeof r.body.HubId).toBe('number');
});

test('an unknown path is a JSON 404, and every call is in the exchange log with the credential masked', async () => {
  const r = await call('GET', '/nope', { headers: auth() });
  expect(r.status).toBe(404);
  const logged = sandbox.log.list().filter((e) => e.direction === 'from-merchant');
  expect(logged.length).toBeGreaterThan(10);
  expect(logged.every((e) => ['Bearer ***', '***', 'Basic ***', undefined].includes(e.request.headers.authorization))).toBe(true);
  expect(JSON.stringify(sandbox.log.list())).not.toContain(TOKEN);
  const shipmentRead = logged.find((e) => e.kind === 'getShipmentInformation' && e.response?.status === 200)!;
  expect(shipmentRead.orderId).toBe('GE100000001SB');
});

describe('without --access-token', () => {
  let open: Sandbox;
  let openBase: string;
  beforeAll(async () => { open = createSandbox({ port: 0 }); openBase = await open.listen(); });
  afterAll(async () => { await open.close(); });

  test('any Bearer token is the sandbox merchant; no credential is still 401 on shipments', async () => {
    expect((await fetch(`${openBase}/api/shipments/${TN.ok}`, { headers: auth('anything') })).status).toBe(200);
    expect((await fetch(`${openBase}/api/shipments/${TN.ok}`)).status).toBe(401);
    // dispatch does not require a credential when none is configured (the spec does not say it needs one)
    const res = await fetch(`${openBase}/Order/UpdateOrderDispatchV2`, { method: 'POST', body: JSON.stringify({ OrderId: 'GE100000002SB', Parcels: [{ ParcelCode: 'P', Products: [{ ProductCode: 'JKT-ALPINE-M', DeliveryQuantity: 1 }] }] }) });
    expect(await res.json()).toEqual({ Success: true, Reason: expect.any(String) });
  });
});

describe('document delivery to the merchant webhook', () => {
  let merchant: Server;
  let received: Array<{ url: string; body: Record<string, unknown> }>;
  let withMerchant: Sandbox;
  let url: string;

  beforeAll(async () => {
    received = [];
    merchant = createServer((req, res) => {
      let text = '';
      req.on('data', (c) => { text += c; });
      req.on('end', () => {
        received.push({ url: req.url ?? '', body: JSON.parse(text) });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ Success: true, InternalOrderId: 'X-1' }));
      });
    });
    await new Promise<void>((r) => merchant.listen(0, '127.0.0.1', () => r()));
    withMerchant = createSandbox({ port: 0, documentsDelayMs: 5, merchantUrl: `http://127.0.0.1:${(merchant.address() as AddressInfo).port}/shop`, merchantGuid: 'guid-1' });
    url = await withMerchant.listen();
  });
  afterAll(async () => {
    await withMerchant.close();
    await new Promise((r) => merchant.close(r));
  });

  test('delivers an EAD with an MRN and base64 data after the request, and records the delivery', async () => {
    const r = await fetch(`${url}/additional-required-documents`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth('t') }, body: JSON.stringify({ Orders: [{ OrderId: 'GE100000002SB', TrackingNumbers: [TN.okHighValue] }] }) });
    expect(r.status).toBe(200);
    for (let i = 0; i < 200 && !withMerchant.orders.get('GE100000002SB')!.documentsDelivered; i++) await new Promise((res) => setTimeout(res, 10));
    expect(withMerchant.orders.get('GE100000002SB')!.documentsDelivered).toBe(true);
    expect(received).toHaveLength(1);
    expect(received[0].url).toBe('/shop/SendAdditionalRequiredDocumentsToMerchant');
    expect(validatePayload('AdditionalDocumentsDelivery', received[0].body)).toBeNull();
    const doc = (received[0].body.Documents as Array<Record<string, string>>)[0];
    expect(received[0].body.MerchantGUID).toBe('guid-1');
    expect(doc.DocumentTypeCode).toBe('11');
    expect(doc.DocumentReference).toMatch(/^\d{2}DE[0-9A-Z]{14}$/);
    expect(Buffer.from(doc.DocumentData, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    expect(doc.TrackingNumber).toBe(TN.okHighValue);
    // the document's URL is served by the sandbox
    const pdf = await fetch(doc.URL);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const delivery = withMerchant.log.list().find((e) => e.kind === 'receiveAdditionalRequiredDocuments')!;
    expect(delivery.direction).toBe('to-merchant');
    expect(delivery.responseInfo).toEqual({ Success: true, InternalOrderId: 'X-1' });
  });
});
