/**
 * The warehouse flow against the kit's sandbox, on loopback: JWT from GetAuthenticationToken,
 * getShippingDocuments (a real PDF and a ZPL label per parcel, deterministic), dispatchOrders (the
 * orders move to dispatched; the documented B-codes on their conditions), getOrdersDetails from the
 * sandbox's state, a short-lived token refreshed, and a held order that gets neither label nor manifest.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { createCallbackHandler } from 'crossborder-merchant-kit/node';
import { recordingAdapter } from '../helpers/recording.js';
import { createServiceClient, type ServiceClientOptions } from 'crossborder-merchant-kit/client';
import { createSandbox, SANDBOX_JWT_PASSWORD, SANDBOX_JWT_USER, SANDBOX_MERCHANT_GUID, type Sandbox } from '../../lib/tools/sandbox/index.js';
import { failure } from './setup.js';

let sandbox: Sandbox;
let url: string;
const jwt = { userName: SANDBOX_JWT_USER, password: SANDBOX_JWT_PASSWORD };
const client = (extra: Partial<ServiceClientOptions> = {}) => createServiceClient({
  baseUrl: url, merchantGuid: SANDBOX_MERCHANT_GUID, jwt, retry: { retries: 0 }, ...extra,
});
const lineOf = (orderId: string, i = 0) => sandbox.orders.get(orderId)!.lines[i];
const parcel = (orderId: string, code: string, i = 0) => ({ ParcelCode: code, Products: [{ ProductCode: lineOf(orderId, i).sku, DeliveryQuantity: 1 }] });

beforeEach(async () => {
  sandbox = createSandbox({ port: 0, accessToken: 'a-token-the-client-does-not-have', documentsDelayMs: 60_000, console: false });
  url = await sandbox.listen();
});
afterEach(() => sandbox.close());

describe('the warehouse flow against the sandbox (JWT)', () => {
  test('documents -> print -> dispatch -> manifest; the orders are dispatched; GetOrdersDetails reads the state', async () => {
    const c = client();
    const docs = await c.getShippingDocuments({ MerchantOrderId: 'M-1001', IsCompleted: true, Parcels: [parcel('GE100000001SB', 'P-1', 0), parcel('GE100000001SB', 'P-2', 1)] });
    expect(docs.Documents.map((d) => [d.ParcelCode, d.DocumentType, d.DocumentExtension])).toEqual([
      ['P-1', 'Label', 'ZPL'], ['P-1', 'CommercialInvoice', 'PDF'], ['P-2', 'Label', 'ZPL'], ['P-2', 'CommercialInvoice', 'PDF'],
    ]);
    const [label, invoice] = docs.Documents;
    expect(label.Content!.toString('latin1')).toMatch(/^\^XA[\s\S]*\^FDOrder GE100000001SB\^FS[\s\S]*\^XZ\s*$/);
    const pdf = invoice.Content!.toString('latin1');
    expect(pdf.startsWith('%PDF-1.4')).toBe(true);
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
    // the xref offsets are exact: object 1 starts where the table says
    const offset = Number(/xref\n0 6\n0000000000 65535 f \n(\d{10})/.exec(pdf)![1]);
    expect(pdf.slice(offset, offset + 7)).toBe('1 0 obj');
    expect(label.TrackingNumber).toMatch(/^SB[0-9A-F]{10}$/);
    expect(docs.ParcelsTracking).toEqual([{ ParcelCode: 'P-1', TrackingNumber: label.TrackingNumber }, { ParcelCode: 'P-2', TrackingNumber: docs.Documents[2].TrackingNumber }]);

    // print: the URL downloads the same bytes
    const download = await fetch(label.URL!);
    expect(download.headers.get('content-disposition')).toContain('P-1-label.zpl');
    expect(Buffer.from(await download.arrayBuffer()).equals(label.Content!)).toBe(true);

    const manifest = await c.dispatchOrders({ OrderIds: ['GE100000001SB'], OuterBoxesAmount: 1 });
    expect(manifest.Documents[0]).toMatchObject({ DocumentType: 'ShipperManifest', DocumentExtension: 'PDF' });
    expect(manifest.Documents[0].Content!.toString('latin1')).toContain('GE100000001SB: P-1, P-2');
    const state = sandbox.orders.get('GE100000001SB')!;
    expect(state.manifested).toBe(true);
    expect(state.timeline.map((t) => t.event)).toEqual(expect.arrayContaining(['shipping-documents', 'manifested']));
    expect(state.timeline.find((t) => t.event === 'shipping-documents')!.links!.map((l) => l.label)).toEqual(['P-1-label.zpl', 'P-1-invoice.pdf', 'P-2-label.zpl', 'P-2-invoice.pdf']);

    const [details] = await c.getOrdersDetails(['GE100000001SB']);
    expect(details).toMatchObject({ OrderId: 'GE100000001SB', MerchantOrderId: 'M-1001' });
    expect(details.Parcels?.map((p) => p.Code)).toEqual(['P-1', 'P-2']);
    expect(details.OrderDocuments).toHaveLength(5);
  });

  test('a parcel voided (VoidParcel) loses its documents and can be declared again; a manifested one cannot be voided (C101), an unknown one is C104', async () => {
    const c = client();
    const first = await c.getShippingDocuments({ OrderId: 'GE100000001SB', Parcels: [parcel('GE100000001SB', 'V-1')] });
    expect(await c.voidParcel({ OrderId: 'GE100000001SB', ParcelCode: 'V-1' })).toEqual({ IsSuccess: true, Errors: [] });
    expect(sandbox.orders.get('GE100000001SB')!.shippingDocuments).toEqual([]);
    expect((await fetch(first.Documents[0].URL!)).status).toBe(404);
    expect(await failure(c.voidParcel({ OrderId: 'GE100000001SB', ParcelCode: 'V-1' }))).toMatchObject({ code: 'C104' });
    await c.getShippingDocuments({ OrderId: 'GE100000001SB', Parcels: [parcel('GE100000001SB', 'V-1')] });
    await c.dispatchOrders({ OrderIds: ['GE100000001SB'] });
    expect(await failure(c.voidParcel({ MerchantOrderId: 'M-1001', ParcelCode: 'V-1' }))).toMatchObject({ code: 'C101' });
  });

  test('the same parcel gives the same bytes (deterministic documents)', async () => {
    const first = await client().getShippingDocuments({ OrderId: 'GE100000001SB', Parcels: [parcel('GE100000001SB', 'P-9')] });
    await sandbox.close();
    sandbox = createSandbox({ port: 0, documentsDelayMs: 60_000, console: false });
    url = await sandbox.listen();
    const second = await client().getShippingDocuments({ OrderId: 'GE100000001SB', Parcels: [parcel('GE100000001SB', 'P-9')] });
    expect(second.Documents.map((d) => d.Content!.toString('base64'))).toEqual(first.Documents.map((d) => d.Content!.toString('base64')));
  });

  test('the documented codes on their conditions', async () => {
    const c = client();
    expect(await failure(c.dispatchOrders({ OrderIds: ['GE000000000XX'] }))).toMatchObject({ code: 'B001', retryable: false });
    expect(await failure(c.dispatchOrders({ OrderIds: ['GE100000002SB'] }))).toMatchObject({ code: 'B002', description: expect.stringContaining('GetShippingDocuments') });
    expect(await failure(c.dispatchOrders({ OrderIds: ['GE000000000XX', 'GE000000001XX'] }))).toMatchObject({ code: 'B100' });
    await c.getShippingDocuments({ OrderId: 'GE100000002SB', Parcels: [parcel('GE100000002SB', 'J-1')] });
    expect(await failure(c.dispatchOrders({ OrderIds: ['GE100000002SB'], OuterBoxesAmount: 2 }))).toMatchObject({ code: 'B300', description: expect.stringContaining('number of parcels is 1') });
    await c.dispatchOrders({ OrderIds: ['GE100000002SB'] });
    expect(await failure(c.dispatchOrders({ OrderIds: ['GE100000002SB'] }))).toMatchObject({ code: 'B002', description: expect.stringContaining('already dispatched') });
    expect(await failure(c.getShippingDocuments({ OrderId: 'GE000000000XX', Parcels: [{ ParcelCode: 'X', Products: [{ ProductCode: 'X', DeliveryQuantity: 1 }] }] }))).toMatchObject({ code: 'A200' });
    expect(await failure(c.getShippingDocuments({ OrderId: 'GE100000003SB', Parcels: [{ ParcelCode: 'X', Products: [{ ProductCode: 'NOT-ORDERED', DeliveryQuantity: 1 }] }] }))).toMatchObject({ code: 'A300' });
    sandbox.orders.update('GE100000004SB', 'cancelled', (o) => { o.cancelled = true; });
    expect(await failure(c.getShippingDocuments({ OrderId: 'GE100000004SB', Parcels: [parcel('GE100000004SB', 'C-1')] }))).toMatchObject({ code: 'A019' });
  });

  test('tokens expire (jwtTtlMs): an expired token is refused 401; the client refreshes once, resends once, then reports the 401', async () => {
    await sandbox.close();
    sandbox = createSandbox({ port: 0, documentsDelayMs: 60_000, console: false, jwtTtlMs: 1 });
    url = await sandbox.listen();
    const err = await failure(client().getOrdersDetails(['GE100000001SB']));
    expect(err).toMatchObject({ code: 'UNAUTHORIZED', status: 401, attempts: 2 });
    const kinds = sandbox.log.list().map((e) => `${e.kind} ${e.response?.status}`);
    expect(kinds).toEqual(['getAuthenticationToken 200', 'getOrdersDetails 401', 'getAuthenticationToken 200', 'getOrdersDetails 401']);
    expect(JSON.stringify(sandbox.log.list())).toContain('The token has expired');
  });

  test('an expired or foreign token is 401; the client refreshes once and resends', async () => {
    const c = client({ retry: { retries: 1, minDelayMs: 1, maxDelayMs: 5 } });
    await c.getOrdersDetails(['GE100000001SB']);
    // the sandbox restarts: the tokens it signed before are no longer valid
    await sandbox.close();
    sandbox = createSandbox({ port: Number(new URL(url).port), documentsDelayMs: 60_000, console: false });
    await sandbox.listen();
    expect(await c.getOrdersDetails(['GE100000001SB'])).toHaveLength(1);
    const statuses = sandbox.log.list().filter((e) => e.kind === 'getOrdersDetails').map((e) => e.response?.status);
    expect(statuses).toEqual([401, 200]);
  });

  test('wrong credentials: AUTHENTICATION_FAILED, nothing else sent; the password and token are never in the exchange log', async () => {
    const bad = client({ jwt: { userName: SANDBOX_JWT_USER, password: 'wrong-password' } });
    expect(await failure(bad.getOrdersDetails(['GE100000001SB']))).toMatchObject({ code: 'AUTHENTICATION_FAILED', status: 401 });
    await client().getOrdersDetails(['GE100000001SB']);
    const text = JSON.stringify(sandbox.log.list());
    expect(text).not.toContain('wrong-password');
    expect(text).not.toContain(SANDBOX_JWT_PASSWORD);
    expect(text).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
    expect(sandbox.log.list().filter((e) => e.kind === 'getOrdersDetails')).toHaveLength(1);
  });
});

describe('a held order gets neither a label nor a manifest (client guard, sandbox service)', () => {
  test('FULFILMENT_HOLD before anything reaches the sandbox', async () => {
    const store = new MemoryStore();
    await store.placeFulfilmentHold('GE100000001SB', [{ DocumentTypeCode: '11', TrackingNumber: 'SBX1000000001' }]);
    await store.saveMerchantOrderIds('GE100000001SB', ['M-1001']);
    const c = client({ store });
    expect(await failure(c.getShippingDocuments({ MerchantOrderId: 'M-1001', Parcels: [parcel('GE100000001SB', 'P-1')] }))).toMatchObject({ code: 'FULFILMENT_HOLD' });
    expect(await failure(c.dispatchOrders({ OrderIds: ['GE100000002SB', 'GE100000001SB'] }))).toMatchObject({ code: 'FULFILMENT_HOLD', heldOrderIds: ['GE100000001SB'] });
    expect(sandbox.log.list().filter((e) => e.kind === 'getShippingDocuments' || e.kind === 'dispatchOrders')).toEqual([]);
    expect(sandbox.orders.get('GE100000001SB')!.shippingDocuments).toEqual([]);
  });
});

describe('the merchant hears of the shipment', () => {
  test('after DispatchOrders the sandbox sends UpdateOrderShippingInfo with the parcel\'s tracking number to the merchant\'s router', async () => {
    const adapter = recordingAdapter();
    const merchant = createServer(createCallbackHandler({ merchantGuid: SANDBOX_MERCHANT_GUID, adapter, store: new MemoryStore() }));
    await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve));
    const merchantUrl = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}`;
    await sandbox.close();
    sandbox = createSandbox({ port: 0, merchantUrl, documentsDelayMs: 60_000, console: false });
    url = await sandbox.listen();
    try {
      const c = client();
      const docs = await c.getShippingDocuments({ OrderId: 'GE100000001SB', Parcels: [parcel('GE100000001SB', 'S-1')] });
      await c.dispatchOrders({ OrderIds: ['GE100000001SB'] });
      for (let i = 0; i < 100 && !sandbox.orders.get('GE100000001SB')!.timeline.some((t) => t.event.startsWith('shipping-info')); i++) await new Promise((r) => setTimeout(r, 50));
      const call = adapter.calls.find((x) => x.method === 'updateOrderShippingInfo');
      expect(call?.input).toMatchObject({ OrderId: 'GE100000001SB', InternationalDetails: { OrderTrackingNumber: docs.Documents[0].TrackingNumber } });
      expect(sandbox.orders.get('GE100000001SB')!.timeline.map((t) => t.event)).toContain('shipping-info-sent');
    } finally {
      await sandbox.close();
      merchant.closeAllConnections();
      await new Promise<void>((resolve) => merchant.close(() => resolve()));
    }
  });
});
