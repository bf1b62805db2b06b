/**
 * dispatchOrders against a recorded fake service: POST /Order/DispatchOrders with the
 * GetOrdersManifestRequest the pages document, the manifest documents decoded, every documented
 * B-code as a ServiceError with its meaning and retryable: false, and the hold guard: one held order
 * refuses the whole manifest, naming every held order.
 */
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { DISPATCH_ORDERS_CODES } from 'crossborder-merchant-kit/client';
import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure, GUID } from './setup.js';

const PATH = '/Order/DispatchOrders';
const MANIFEST = Buffer.from('%PDF-1.4\n% manifest\n%%EOF\n');
const ANSWER = {
  IsSuccess: true, ErrorText: null,
  Documents: [{ DocumentTypeCode: '3', DocumentTypeName: 'Manifest', DocumentExtension: 'PDF', DocumentData: MANIFEST.toString('base64'), URL: 'https://docs.example.com/m/1', ShippingServiceName: 'DHL Express' }],
  ShipperManifests: [{ DocumentTypeCode: '3', DocumentExtension: 'pdf', DocumentData: MANIFEST.toString('base64') }],
  ParcelsTracking: null, DeliveryAdviceInformation: [],
};

let svc: FakeService;
beforeEach(async () => { svc = await fakeService(() => ({ status: 200, body: ANSWER })); });
afterEach(() => svc.close());

describe('dispatchOrders', () => {
  test('POST {baseUrl}/Order/DispatchOrders?merchantGUID=… with { OrderIds, HubCode, OuterBoxesAmount }; the manifest decoded', async () => {
    const { client } = clientFor(svc);
    const result = await client.dispatchOrders({ OrderIds: ['GE1', 'GE2'], HubCode: 'WH-1', OuterBoxesCount: 2 });
    const r = svc.received[0];
    expect(r).toMatchObject({ method: 'POST', path: PATH, json: { OrderIds: ['GE1', 'GE2'], HubCode: 'WH-1', OuterBoxesAmount: 2 } });
    expect(r.query.get('merchantGUID')).toBe(GUID);
    expect(result.Documents[0]).toMatchObject({ DocumentType: 'ShipperManifest', DocumentExtension: 'PDF', ShippingServiceName: 'DHL Express', URL: 'https://docs.example.com/m/1' });
    expect(result.Documents[0].Content!.equals(MANIFEST)).toBe(true);
    expect(result.ShipperManifests[0].Content!.equals(MANIFEST)).toBe(true);
    expect(result.ShipperManifests[0].DocumentExtension).toBe('PDF');
    expect(result).not.toHaveProperty('ParcelsTracking');
    expect(result.DeliveryAdviceInformation).toEqual([]);
  });

  test('by merchant order ids; OuterBoxesAmount as the pages spell it', async () => {
    const { client } = clientFor(svc);
    await client.dispatchOrders({ MerchantOrderIds: ['#1001'], OuterBoxesAmount: 1 });
    expect(svc.received[0].json).toEqual({ MerchantOrderIds: ['#1001'], OuterBoxesAmount: 1 });
  });

  test.each([
    ['no ids', {}, /at least one of ParcelCodes, TrackingNumbers, OrderIds or MerchantOrderIds is required/],
    ['an empty list', { OrderIds: [] }, /OrderIds must be a non-empty array/],
    ['an empty id', { OrderIds: ['GE1', ''] }, /OrderIds\[1\] must be a non-empty string/],
    ['an id twice', { OrderIds: ['GE1', 'GE1'] }, /OrderIds names GE1 twice/],
    ['zero boxes', { OrderIds: ['GE1'], OuterBoxesAmount: 0 }, /whole number > 0/],
    ['two box counts that differ', { OrderIds: ['GE1'], OuterBoxesAmount: 1, OuterBoxesCount: 2 }, /both given with different values/],
    ['a misspelt field', { OrderId: ['GE1'] }, /did you mean "OrderIds"/],
  ])('%s is INVALID_ARGUMENT and sends nothing', async (_name, request, message) => {
    const { client } = clientFor(svc);
    const err = await failure(client.dispatchOrders(request as never));
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', operation: 'dispatchOrders', attempts: 0 });
    expect(err.description).toMatch(message);
    expect(svc.count()).toBe(0);
  });

  test.each(Object.entries(DISPATCH_ORDERS_CODES))('%s is a ServiceError with its documented meaning and retryable: false', async (code, meaning) => {
    svc.answer(() => ({ status: code === 'B400' ? 500 : 400, body: { Code: code, Error: `error ${code}`, Description: `the service's words for ${code}` } }));
    const { client } = clientFor(svc);
    const err = await failure(client.dispatchOrders({ OrderIds: ['GE1'] }));
    expect(err).toMatchObject({ name: 'ServiceError', code, retryable: false, operation: 'dispatchOrders', attempts: 1 });
    expect(err.description.startsWith(meaning)).toBe(true);
    expect(err.description).toContain(`the service's words for ${code}`);
  });

  test('a B-code in a 200 answer ({ IsSuccess: false, ErrorText }) is read the same way', async () => {
    svc.answer(() => ({ status: 200, body: { IsSuccess: false, ErrorText: 'B300 The number of outer boxes cannot be greater than the number of parcels. The total number of parcels is 1 and the number of outer boxes is 3.' } }));
    const { client } = clientFor(svc);
    const err = await failure(client.dispatchOrders({ OrderIds: ['GE1'], OuterBoxesAmount: 3 }));
    expect(err).toMatchObject({ code: 'B300', status: 200, retryable: false });
  });
});

describe('dispatchOrders and the fulfilment hold: one held order refuses the whole manifest', () => {
  const ead = { DocumentTypeCode: '11', TrackingNumber: 'TRK123' };

  test('FULFILMENT_HOLD naming every held order (as the request named it), nothing sent; forced: sent with a warning', async () => {
    const store = new MemoryStore();
    await store.placeFulfilmentHold('GE2', [ead]);
    await store.placeFulfilmentHold('GE4', [ead]);
    await store.saveMerchantOrderIds('GE4', ['M-4']);
    const { client, log } = clientFor(svc, { store });
    const err = await failure(client.dispatchOrders({ OrderIds: ['GE1', 'GE2', 'GE3'] }));
    expect(err).toMatchObject({ code: 'FULFILMENT_HOLD', operation: 'dispatchOrders', attempts: 0, heldOrderIds: ['GE2'], hold: { orderId: 'GE2' } });
    expect(err.description).toMatch(/1 of 3 order\(s\) on fulfilment hold .*GE2; nothing was sent/);
    const byMerchant = await failure(client.dispatchOrders({ MerchantOrderIds: ['M-1', 'M-4'] }));
    expect(byMerchant).toMatchObject({ code: 'FULFILMENT_HOLD', heldOrderIds: ['M-4'] });
    expect(byMerchant.description).toContain('M-4 (GE4)');
    const both = await failure(client.dispatchOrders({ OrderIds: ['GE2'], MerchantOrderIds: ['M-4'] }));
    expect(both.heldOrderIds).toEqual(['GE2', 'M-4']);
    expect(both.description).toContain('2 of 2 order(s) on fulfilment hold (additional documents awaited): GE2, M-4 (GE4); nothing was sent');
    expect(svc.count()).toBe(0);
    await client.dispatchOrders({ OrderIds: ['GE1', 'GE2'] }, { force: true });
    expect(svc.count()).toBe(1);
    expect(log.lines.filter((l) => l.level === 'warn')).toEqual([
      { level: 'warn', obj: expect.objectContaining({ operation: 'dispatchOrders', held: 1 }), msg: 'dispatching orders on fulfilment hold (force: true)' },
    ]);
    await store.recordDocuments('GE2', [ead]);
    await client.dispatchOrders({ OrderIds: ['GE1', 'GE2', 'GE3'] });
    expect(svc.count()).toBe(2);
  });

  test('a store that cannot be read fails closed (STORE_UNAVAILABLE) unless forced', async () => {
    const store = new MemoryStore();
    store.getFulfilmentHold = async () => { throw new Error('db down'); };
    const { client } = clientFor(svc, { store });
    const { client: forced, log } = clientFor(svc, { store });
    expect(await failure(client.dispatchOrders({ OrderIds: ['GE1'] }))).toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect(svc.count()).toBe(0);
    await forced.dispatchOrders({ OrderIds: ['GE1'] }, { force: true });
    expect(svc.count()).toBe(1);
    expect(log.lines.filter((l) => l.level === 'warn')).toEqual([
      { level: 'warn', obj: expect.objectContaining({ operation: 'dispatchOrders' }), msg: 'fulfilment-hold guard could not check an order; dispatching anyway (force: true)' },
    ]);
  });
});
