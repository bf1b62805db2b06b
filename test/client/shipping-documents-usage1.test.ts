/**
 * GetShippingDocuments, usage 1 (round 4, test/fixtures/real-world-4/gedocs-getshippingdocuments-usage1.json):
 * "The request is issued with an empty list of parcels, and/or exceptions (no hubCode is provided).
 * Here all the existing shipping documents for the requested order are returned." The client sends it
 * (it refused it before, naming another operation); the fulfilment-hold guard still applies; every
 * client error of the call names getShippingDocuments; the sandbox answers it with the documents it
 * issued.
 */
import { readFileSync } from 'node:fs';
import { createServiceClient } from 'crossborder-merchant-kit/client';
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { createSandbox, SANDBOX_MERCHANT_GUID, type Sandbox } from '../../lib/tools/sandbox/index.js';
import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure } from './setup.js';

const USAGE1 = JSON.parse(readFileSync(new URL('../fixtures/real-world-4/gedocs-getshippingdocuments-usage1.json', import.meta.url), 'utf8'));
const LABEL = Buffer.from('^XA^FDlabel^FS^XZ').toString('base64');

describe('usage 1 against a recorded fake service', () => {
  let svc: FakeService;
  beforeEach(async () => {
    svc = await fakeService(() => ({
      status: 200,
      body: { IsSuccess: true, Documents: [{ DocumentTypeCode: '4', DocumentExtension: 'ZPL', DocumentData: LABEL, ParcelCode: 'P-1', TrackingNumber: 'TRK-1' }], ParcelsTracking: [{ ParcelCode: 'P-1', TrackingNumber: 'TRK-1' }] },
    }));
  });
  afterEach(() => svc.close());

  test.each<[string, Record<string, unknown>]>([
    ['the page\'s request ({ OrderId, Parcels: [] })', USAGE1.body],
    ['an OrderId alone', { OrderId: USAGE1.body.OrderId }],
    ['null parcels', { OrderId: USAGE1.body.OrderId, Parcels: null }],
  ])('%s goes out as the page\'s request and returns the documents', async (_what, request) => {
    const { client } = clientFor(svc);
    const res = await client.getShippingDocuments(request as never);
    expect(res.Documents.map((d) => [d.DocumentType, d.Content!.toString()])).toEqual([['Label', '^XA^FDlabel^FS^XZ']]);
    expect(svc.received.map((r) => [r.method, r.path, r.json])).toEqual([[USAGE1._request.method, USAGE1._request.path, USAGE1.body]]);
  });

  test('empty exceptions too ("and/or exceptions"): sent with them; a merchant order id in the pages\' spelling', async () => {
    const { client } = clientFor(svc);
    await client.getShippingDocuments({ MerchantOrderID: 'M-1', Parcels: [], Exceptions: [] });
    expect(svc.received[0].json).toEqual({ MerchantOrderId: 'M-1', Parcels: [], Exceptions: [] });
  });

  test('a held order gets no documents this way either: FULFILMENT_HOLD, nothing sent', async () => {
    const store = new MemoryStore();
    await store.placeFulfilmentHold(USAGE1.body.OrderId, [{ DocumentTypeCode: '11', TrackingNumber: 'TRK123' }]);
    const { client } = clientFor(svc, { store });
    expect(await failure(client.getShippingDocuments(USAGE1.body))).toMatchObject({ code: 'FULFILMENT_HOLD', operation: 'getShippingDocuments', attempts: 0 });
    expect(svc.count()).toBe(0);
  });

  test.each<[string, Record<string, unknown>]>([
    ['a HubCode with no parcels', { OrderId: 'GE1', HubCode: 'HUB-1' }],
    ['no id', { Parcels: [] }],
    ['two different merchant order ids', { MerchantOrderId: 'A', MerchantOrderID: 'B', Parcels: [] }],
    ['a bad parcel', { OrderId: 'GE1', Parcels: [{ ParcelCode: 5 }] }],
    ['tracking without its number', { OrderId: 'GE1', Parcels: [{ ParcelCode: 'P', TrackingDetails: { TrackingURL: 'x' } }] }],
    ['a wrong exception', { OrderId: 'GE1', Exceptions: [{ ExceptionType: 1 }] }],
  ])('%s: the error names getShippingDocuments, never another operation or version', async (_what, request) => {
    const { client } = clientFor(svc);
    const err = await failure(client.getShippingDocuments(request as never));
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', operation: 'getShippingDocuments' });
    expect(err.message).toMatch(/^getShippingDocuments failed/);
    expect(err.description).not.toMatch(/UpdateOrderDispatch|V2 field|MerchantOrderID is required|\(the V2/);
    expect(svc.count()).toBe(0);
  });
});

describe('usage 1 against the sandbox', () => {
  let sandbox: Sandbox;
  let url: string;
  beforeEach(async () => {
    sandbox = createSandbox({ port: 0, console: false, documentsDelayMs: 60_000 });
    url = await sandbox.listen();
  });
  afterEach(() => sandbox.close());
  const client = () => createServiceClient({ baseUrl: url, merchantGuid: SANDBOX_MERCHANT_GUID, accessToken: 'any', retry: { retries: 0 } });

  test('the documents it issued come back, bytes and tracking the same; the fixture\'s request, posted as is, too', async () => {
    const c = client();
    const sku = sandbox.orders.get('GE100000001SB')!.lines[0].sku;
    const first = await c.getShippingDocuments({ OrderId: 'GE100000001SB', Parcels: [{ ParcelCode: 'P-1', Products: [{ ProductCode: sku, DeliveryQuantity: 1 }] }] });
    const again = await c.getShippingDocuments({ OrderId: 'GE100000001SB', Parcels: [] });
    expect(again.Documents.map((d) => [d.ParcelCode, d.TrackingNumber, d.DocumentType, d.Content!.toString('base64')]))
      .toEqual(first.Documents.map((d) => [d.ParcelCode, d.TrackingNumber, d.DocumentType, d.Content!.toString('base64')]));
    expect(again.ParcelsTracking).toEqual(first.ParcelsTracking);
    expect(sandbox.orders.get('GE100000001SB')!.parcels).toHaveLength(1); // nothing declared again
    const raw = await fetch(`${url}${USAGE1._request.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...USAGE1.body, OrderId: 'GE100000001SB' }) });
    expect(raw.status).toBe(200);
    expect((await raw.json()).Documents).toHaveLength(first.Documents.length);
  });

  test('an order with no documents yet: A200 (could not retrieve documents)', async () => {
    expect(await failure(client().getShippingDocuments({ OrderId: 'GE100000003SB' }))).toMatchObject({ code: 'A200', operation: 'getShippingDocuments' });
  });
});
