/**
 * getShippingDocuments against a recorded fake service: the request line, headers and body as the
 * pages document them (POST /Order/GetShippingDocuments, an UpdateOrderDispatchRequest), the answer
 * decoded (bytes as a Buffer, the print URL, the format), the documented A-codes, and the hold guard.
 */
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure, GUID, TOKEN } from './setup.js';

const PATH = '/Order/GetShippingDocuments';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\n%%EOF\n');
const ZPL = Buffer.from('^XA^FO50,50^A0N,40,40^FDGE100000001SB P-1^FS^XZ');
const parcel = { ParcelCode: 'P-1', Products: [{ ProductCode: 'SKU0', CartItemId: 'ci-1', DeliveryQuantity: 1 }] };
const DOCUMENTS_ANSWER = {
  IsSuccess: true,
  ErrorText: null,
  Documents: [
    { DocumentTypeCode: '4', DocumentTypeName: 'AWB', DocumentExtension: 'zpl', DocumentData: ZPL.toString('base64'), URL: 'https://docs.example.com/l/1', ParcelCode: 'P-1', TrackingNumber: '1Z999', ErrorMessage: null },
    { DocumentTypeCode: 1, DocumentTypeName: 'CommercialInvoiceAndPackingList', DocumentExtension: '.PDF', DocumentData: PDF.toString('base64'), URL: 'https://docs.example.com/ci/1' },
    { DocumentTypeCode: '6', DocumentExtension: 'PDF', DocumentData: null, URL: 'https://docs.example.com/dg/1' },
  ],
  ParcelsTracking: [{ ParcelCode: 'P-1', TrackingNumber: '1Z999' }],
};

let svc: FakeService;
beforeEach(async () => { svc = await fakeService(() => ({ status: 200, body: DOCUMENTS_ANSWER })); });
afterEach(() => svc.close());

describe('getShippingDocuments', () => {
  test('POST {baseUrl}/Order/GetShippingDocuments?merchantGUID=… with the UpdateOrderDispatchRequest as JSON; documents decoded', async () => {
    const { client } = clientFor(svc);
    const result = await client.getShippingDocuments({ OrderId: 'GE1', IsCompleted: true, Parcels: [parcel], HubCode: 'WH-1' });
    const r = svc.received[0];
    expect(r).toMatchObject({ method: 'POST', path: PATH, json: { OrderId: 'GE1', IsCompleted: true, Parcels: [parcel], HubCode: 'WH-1' } });
    expect(r.query.get('merchantGUID')).toBe(GUID);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);

    expect(result.Documents).toHaveLength(3);
    const [label, invoice, dg] = result.Documents;
    expect(label).toMatchObject({ DocumentTypeCode: '4', DocumentType: 'Label', DocumentTypeName: 'AWB', DocumentExtension: 'ZPL', URL: 'https://docs.example.com/l/1', ParcelCode: 'P-1', TrackingNumber: '1Z999' });
    expect(Buffer.isBuffer(label.Content)).toBe(true);
    expect(label.Content!.equals(ZPL)).toBe(true);
    expect(label).not.toHaveProperty('DocumentData');
    expect(label).not.toHaveProperty('ErrorMessage');
    expect(invoice).toMatchObject({ DocumentTypeCode: '1', DocumentType: 'CommercialInvoice', DocumentExtension: 'PDF' });
    expect(invoice.Content!.equals(PDF)).toBe(true);
    expect(dg).toMatchObject({ DocumentType: 'DangerousGoodDeclarationLink', URL: 'https://docs.example.com/dg/1' });
    expect(dg.Content).toBeUndefined();
    expect(result.ShipperManifests).toEqual([]);
    expect(result.ParcelsTracking).toEqual([{ ParcelCode: 'P-1', TrackingNumber: '1Z999' }]);
    expect(result).not.toHaveProperty('ErrorText');
  });

  test('the merchant order id is sent as the pages spell it (MerchantOrderId), whichever spelling is given', async () => {
    const { client } = clientFor(svc);
    await client.getShippingDocuments({ MerchantOrderID: '100018322', Parcels: [parcel] });
    await client.getShippingDocuments({ MerchantOrderId: '100018323', Exceptions: [{ ProductCode: 'SKU1', ExceptionType: 1, Quantity: 1 }], ShippingAdditionalInformation: 'ITN X20260101' });
    expect(svc.received.map((r) => r.json)).toEqual([
      { MerchantOrderId: '100018322', Parcels: [parcel] },
      { MerchantOrderId: '100018323', Exceptions: [{ ProductCode: 'SKU1', ExceptionType: 1, Quantity: 1 }], ShippingAdditionalInformation: 'ITN X20260101' },
    ]);
  });

  test.each([
    ['no id', { Parcels: [parcel] }, /one of OrderId or/],
    ['a HubCode without parcels (usage 1 takes none)', { OrderId: 'GE1', Parcels: [], HubCode: 'HUB-1' }, /give Parcels \(or Exceptions\) with it/],
    ['an empty HubCode', { OrderId: 'GE1', Parcels: [parcel], HubCode: ' ' }, /HubCode must be a non-empty string/],
    ['a misspelt field', { OrderId: 'GE1', Parcel: [parcel] }, /did you mean Parcels/],
  ])('%s is INVALID_ARGUMENT and sends nothing', async (_name, request, message) => {
    const { client } = clientFor(svc);
    const err = await failure(client.getShippingDocuments(request as never));
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', operation: 'getShippingDocuments', attempts: 0 });
    expect(err.description).toMatch(message);
    expect(svc.count()).toBe(0);
  });

  test.each([
    [200, { IsSuccess: false, Code: 'A200', ErrorText: 'Order GE1 has the wrong status' }],
    [400, { Code: 'A019', Error: 'Order cancelled', Description: 'The order was cancelled' }],
    [200, { IsSuccess: false, ErrorText: 'A300 SKU X was not ordered' }],
  ])('a documented A-code (HTTP %s) is a ServiceError with its documented meaning, not retryable', async (status, body) => {
    svc.answer(() => ({ status, body }));
    const { client } = clientFor(svc);
    const err = await failure(client.getShippingDocuments({ OrderId: 'GE1', Parcels: [parcel] }, { retry: true }));
    const code = (body as { Code?: string }).Code ?? 'A300';
    expect(err).toMatchObject({ name: 'ServiceError', code, status, retryable: false, operation: 'getShippingDocuments' });
    expect(err.description).toContain({ A200: 'wrong status or partial information', A019: 'cancelled and cannot be shipped', A300: 'not part of the original order' }[code]);
    expect(svc.count()).toBe(1);
  });

  test('IsSuccess: false without a code is SERVICE_ERROR with the ErrorText; malformed base64 is INVALID_RESPONSE', async () => {
    svc.answer(() => ({ status: 200, body: { IsSuccess: false, ErrorText: 'something failed' } }));
    const { client } = clientFor(svc);
    const err = await failure(client.getShippingDocuments({ OrderId: 'GE1', Parcels: [parcel] }));
    expect(err).toMatchObject({ code: 'SERVICE_ERROR', retryable: false, description: expect.stringContaining('something failed') });
    svc.answer(() => ({ status: 200, body: { IsSuccess: true, Documents: [{ DocumentTypeCode: '4', DocumentData: 'not base64!!' }] } }));
    const bad = await failure(client.getShippingDocuments({ OrderId: 'GE1', Parcels: [parcel] }));
    expect(bad).toMatchObject({ code: 'INVALID_RESPONSE', description: expect.stringContaining('/Documents/0/DocumentData') });
    expect(bad.description).not.toContain('not base64');
  });

  test('not resent after it may have reached the service (it declares parcels), unless { retry: true }', async () => {
    svc.answer(() => ({ status: 503, body: 'busy' }));
    const { client } = clientFor(svc);
    expect(await failure(client.getShippingDocuments({ OrderId: 'GE1', Parcels: [parcel] }))).toMatchObject({ code: 'HTTP_503', attempts: 1 });
    expect(svc.count()).toBe(1);
    await failure(client.getShippingDocuments({ OrderId: 'GE1', Parcels: [parcel] }, { retry: true }));
    expect(svc.count()).toBe(4);
  });
});

describe('getShippingDocuments and the fulfilment hold: an order awaiting its customs documents gets no label', () => {
  const ead = { DocumentTypeCode: '11', TrackingNumber: 'TRK123' };

  test('held by OrderId or by a merchant order id: FULFILMENT_HOLD, nothing sent; released: sent; forced: sent with a warning', async () => {
    const store = new MemoryStore();
    await store.placeFulfilmentHold('GE1001CH', [ead]);
    await store.saveMerchantOrderIds('GE1001CH', ['A-1']);
    const { client, log } = clientFor(svc, { store });
    for (const request of [{ OrderId: 'GE1001CH', Parcels: [parcel] }, { MerchantOrderId: 'A-1', Parcels: [parcel] }, { MerchantOrderID: 'A-1', Parcels: [parcel] }]) {
      const err = await failure(client.getShippingDocuments(request));
      expect(err).toMatchObject({ code: 'FULFILMENT_HOLD', operation: 'getShippingDocuments', attempts: 0, hold: { orderId: 'GE1001CH' } });
    }
    expect(svc.count()).toBe(0);
    await client.getShippingDocuments({ OrderId: 'GE1001CH', Parcels: [parcel] }, { force: true });
    expect(svc.count()).toBe(1);
    expect(log.text()).toMatch(/force: true/);
    await store.recordDocuments('GE1001CH', [ead]);
    await client.getShippingDocuments({ MerchantOrderId: 'A-1', Parcels: [parcel] });
    expect(svc.count()).toBe(2);
  });

  test('a store without findOrderId cannot rule out a merchant order number: refused (INVALID_ARGUMENT, nothing sent) unless a hold is found or forced', async () => {
    const store = new MemoryStore();
    for (const m of ['findOrderId', 'saveMerchantOrderIds']) Object.defineProperty(store, m, { value: undefined });
    await store.placeFulfilmentHold('GE1001CH', [ead]);
    const { client, log } = clientFor(svc, { store });
    const err = await failure(client.getShippingDocuments({ MerchantOrderId: 'A-1', Parcels: [parcel] }));
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', operation: 'getShippingDocuments', attempts: 0 });
    expect(err.description).toMatch(/the store has no findOrderId/);
    expect(await failure(client.getShippingDocuments({ OrderId: 'GE1001CH', Parcels: [parcel] }))).toMatchObject({ code: 'FULFILMENT_HOLD' });
    expect(svc.count()).toBe(0);
    // an OrderId may be a merchant order number too (the service accepts either): without findOrderId, refused as well
    expect(await failure(client.getShippingDocuments({ OrderId: 'GE-FREE', Parcels: [parcel] }))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(svc.count()).toBe(0);
    await client.getShippingDocuments({ MerchantOrderId: 'A-1', Parcels: [parcel] }, { force: true });
    expect(svc.count()).toBe(1);
    expect(log.lines.filter((l) => l.level === 'warn')).toEqual([
      { level: 'warn', obj: expect.objectContaining({ operation: 'getShippingDocuments' }), msg: expect.stringContaining('the store has no findOrderId') },
    ]);
  });

  test('a store that cannot be read fails closed: STORE_UNAVAILABLE, nothing sent', async () => {
    const store = new MemoryStore();
    store.getFulfilmentHold = async () => { throw new Error('db down'); };
    const { client, log } = clientFor(svc, { store });
    expect(await failure(client.getShippingDocuments({ OrderId: 'GE1', Parcels: [parcel] }))).toMatchObject({
      code: 'STORE_UNAVAILABLE', retryable: true, description: 'the fulfilment-hold guard could not read the store; nothing was sent',
    });
    expect(svc.count()).toBe(0);
    await client.getShippingDocuments({ OrderId: 'GE1', Parcels: [parcel] }, { force: true });
    expect(svc.count()).toBe(1);
    expect(log.lines.filter((l) => l.level === 'warn')).toEqual([
      { level: 'warn', obj: expect.objectContaining({ operation: 'getShippingDocuments' }), msg: 'fulfilment-hold guard could not read the store; dispatching anyway (force: true)' },
    ]);
  });
});
