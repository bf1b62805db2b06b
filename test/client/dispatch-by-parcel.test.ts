/**
 * dispatchOrders by parcel (round 4, test/fixtures/real-world-4/gedocs-getordersmanifestrequest-error-codes.json):
 * error B404 names the four ways to say what is dispatched — ParcelCodes, TrackingNumbers, OrderIds,
 * MerchantOrderIds — and the client accepts each. The hold guard never lets a held order's parcel into
 * a manifest: a parcel code or tracking number is mapped to its order from what the client recorded
 * (accepted dispatches and shipping documents), every id form is checked, and an id it cannot map is
 * refused (PARCEL_NOT_RECORDED, naming it) unless forced. Against the sandbox: dispatch-by-parcel-sandbox.test.ts.
 */
import { readFileSync } from 'node:fs';
import { DISPATCH_ORDERS_CODES } from 'crossborder-merchant-kit/client';
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { rememberParcels } from '../../lib/client/parcel-record.js';
import { parcelOrders } from '../../lib/store/parcel-orders.js';
import { captureLogger } from '../helpers/recording.js';
import { fakeService, type Reply, type FakeService } from './fake-service.js';
import { clientFor, failure } from './setup.js';

const ROWS = JSON.parse(readFileSync(new URL('../fixtures/real-world-4/gedocs-getordersmanifestrequest-error-codes.json', import.meta.url), 'utf8')).rows as Array<{ ErrorCode: string; ErrorText: string }>;
const B404 = ROWS.find((r) => r.ErrorCode === 'B404')!.ErrorText;
/** The four request fields, as B404's text names them. */
const FIELDS = /At least one of (.*) must be provided/.exec(B404)![1].replace(', or ', ', ').split(', ');
const MANIFEST = { IsSuccess: true, Documents: [{ DocumentTypeCode: '3', DocumentExtension: 'PDF', DocumentData: Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64') }] };
const DOCUMENTS = { IsSuccess: true, Documents: [], ParcelsTracking: [{ ParcelCode: 'P-1', TrackingNumber: 'TRK-1' }] };
const parcel = (code: string) => ({ ParcelCode: code, Products: [{ ProductCode: 'SKU1', DeliveryQuantity: 1 }] });

let svc: FakeService;
const answers = (req: { path: string }): Reply => ({
  status: 200,
  body: req.path === '/Order/DispatchOrders' ? MANIFEST : req.path === '/Order/GetShippingDocuments' ? DOCUMENTS : { Success: true, Reason: 'Received' },
});
beforeEach(async () => { svc = await fakeService(answers); });
afterEach(() => svc.close());
const manifests = () => svc.received.filter((r) => r.path === '/Order/DispatchOrders');

describe('the four id forms of B404', () => {
  test('B404 names ParcelCodes, TrackingNumbers, OrderIds and MerchantOrderIds', () => {
    expect(FIELDS).toEqual(['ParcelCodes', 'TrackingNumbers', 'OrderIds', 'MerchantOrderIds']);
  });

  test.each(FIELDS)('%s alone is sent as given (no store: no guard)', async (field) => {
    const { client } = clientFor(svc);
    await client.dispatchOrders({ [field]: ['ID-1', 'ID-2'] });
    expect(manifests().map((r) => r.json)).toEqual([{ [field]: ['ID-1', 'ID-2'] }]);
  });

  test('none of them: INVALID_ARGUMENT naming the four (the service\'s B404), nothing sent; an id twice is named', async () => {
    const { client } = clientFor(svc);
    const none = await failure(client.dispatchOrders({ HubCode: 'WH-1' } as never));
    expect(none).toMatchObject({ code: 'INVALID_ARGUMENT', operation: 'dispatchOrders' });
    for (const f of FIELDS) expect(none.description).toContain(f);
    expect((await failure(client.dispatchOrders({ ParcelCodes: ['P-1', 'P-1'] }))).description).toBe('ParcelCodes names P-1 twice');
    expect((await failure(client.dispatchOrders({ TrackingNumbers: [] }))).description).toMatch(/TrackingNumbers must be a non-empty array/);
    expect(svc.count()).toBe(0);
  });

  test.each(ROWS)('$ErrorCode answered: a ServiceError with its documented meaning, not retryable', async ({ ErrorCode, ErrorText }) => {
    svc.answer(() => ({ status: 400, body: { IsSuccess: false, Code: ErrorCode, ErrorText } }));
    const { client } = clientFor(svc);
    const err = await failure(client.dispatchOrders({ ParcelCodes: ['P-404'] }));
    expect(err).toMatchObject({ code: ErrorCode, retryable: false });
    expect(err.description.startsWith(DISPATCH_ORDERS_CODES[ErrorCode])).toBe(true);
  });
});

describe('the hold guard, every id form', () => {
  const ead = { DocumentTypeCode: '11', TrackingNumber: 'EAD-1' };
  /** A store where GE1's parcel P-1 (tracking TRK-1) went through getShippingDocuments and GE2's P-2 (TRK-2) through updateOrderDispatchV2; GE1's merchant id is M-1. */
  async function recorded(): Promise<MemoryStore> {
    const store = new MemoryStore();
    await store.saveMerchantOrderIds!('GE1', ['M-1']);
    const { client } = clientFor(svc, { store });
    await client.getShippingDocuments({ OrderId: 'GE1', Parcels: [parcel('P-1')] });
    await client.updateOrderDispatchV2({ OrderId: 'GE2', Parcels: [{ ...parcel('P-2'), TrackingDetails: { TrackingNumber: 'TRK-2' } }] });
    svc.received.length = 0;
    return store;
  }

  test.each<[string, Record<string, string[]>]>([
    ['OrderIds', { OrderIds: ['GE1'] }],
    ['MerchantOrderIds', { MerchantOrderIds: ['M-1'] }],
    ['ParcelCodes (recorded by getShippingDocuments\' request)', { ParcelCodes: ['P-1'] }],
    ['TrackingNumbers (recorded from getShippingDocuments\' answer)', { TrackingNumbers: ['TRK-1'] }],
  ])('a held order named by %s: FULFILMENT_HOLD naming it as the request did, nothing sent', async (_form, request) => {
    const store = await recorded();
    await store.placeFulfilmentHold('GE1', [ead]);
    const { client } = clientFor(svc, { store });
    const err = await failure(client.dispatchOrders({ ...request, ParcelCodes: [...(request.ParcelCodes ?? []), 'P-2'] }));
    expect(err).toMatchObject({ code: 'FULFILMENT_HOLD', operation: 'dispatchOrders', attempts: 0, heldOrderIds: Object.values(request)[0] });
    expect(err.description).toContain('GE1');
    expect(svc.count()).toBe(0);
  });

  test('parcels of orders not on hold go out; their orders are then dispatched (a cancellation is refused locally)', async () => {
    const store = await recorded();
    const { client } = clientFor(svc, { store });
    await client.dispatchOrders({ ParcelCodes: ['P-2'], TrackingNumbers: ['TRK-1'] });
    expect(manifests().map((r) => r.json)).toEqual([{ ParcelCodes: ['P-2'], TrackingNumbers: ['TRK-1'] }]);
    for (const OrderId of ['GE1', 'GE2']) {
      expect(await failure(client.updateOrderStatus({ OrderId, StatusCode: 'cancelled', OrderStatusReason: { OrderStatusReasonCode: '1' } }))).toMatchObject({ code: 'ORDER_DISPATCHED' });
    }
  });

  test('the tracking number of updateOrderDispatchV2\'s TrackingDetails maps to its order: held → refused', async () => {
    const store = await recorded();
    await store.placeFulfilmentHold('GE2', [ead]);
    const { client } = clientFor(svc, { store });
    expect(await failure(client.dispatchOrders({ TrackingNumbers: ['TRK-2'] }))).toMatchObject({ code: 'FULFILMENT_HOLD', heldOrderIds: ['TRK-2'] });
  });

  test('an id the store has no order for: PARCEL_NOT_RECORDED naming each (fail closed); force sends it with a warning', async () => {
    const store = await recorded();
    const { client, log } = clientFor(svc, { store });
    const err = await failure(client.dispatchOrders({ ParcelCodes: ['P-1', 'P-9'], TrackingNumbers: ['TRK-9'] }));
    expect(err).toMatchObject({ code: 'PARCEL_NOT_RECORDED', operation: 'dispatchOrders', attempts: 0, unrecordedIds: ['P-9', 'TRK-9'] });
    expect(err.description).toContain('ParcelCodes P-9, TrackingNumbers TRK-9');
    expect(svc.count()).toBe(0);
    await client.dispatchOrders({ ParcelCodes: ['P-9'] }, { force: true });
    expect(manifests()).toHaveLength(1);
    expect(log.lines.some((l) => l.level === 'warn' && /force: true/.test(l.msg ?? ''))).toBe(true);
  });

  test('force does not skip the check of the parcels it can map: a held one is logged, the call goes (the merchant said so)', async () => {
    const store = await recorded();
    await store.placeFulfilmentHold('GE1', [ead]);
    const { client, log } = clientFor(svc, { store });
    await client.dispatchOrders({ ParcelCodes: ['P-1'] }, { force: true });
    expect(log.lines.some((l) => l.level === 'warn' && /fulfilment hold/.test(l.msg ?? ''))).toBe(true);
  });

  test('a code recorded with two orders (reused): both are checked, the held one refuses', async () => {
    const store = await recorded();
    const { client } = clientFor(svc, { store });
    await client.getShippingDocuments({ OrderId: 'GE3', Parcels: [parcel('P-1')] });
    await store.placeFulfilmentHold('GE3', [ead]);
    expect(await failure(client.dispatchOrders({ ParcelCodes: ['P-1'] }))).toMatchObject({ code: 'FULFILMENT_HOLD', heldOrderIds: ['P-1'] });
  });

  test('a store that cannot be read: STORE_UNAVAILABLE (retryable), nothing sent; with force it goes, logged', async () => {
    const store = await recorded();
    const broken = new Proxy(store, { get: (t, k) => (k === 'getRecord' ? () => Promise.reject(new Error('down')) : Reflect.get(t, k)) });
    const { client, log } = clientFor(svc, { store: broken });
    expect(await failure(client.dispatchOrders({ ParcelCodes: ['P-1'] }))).toMatchObject({ code: 'STORE_UNAVAILABLE', retryable: true, attempts: 0 });
    expect(svc.count()).toBe(0);
    await client.dispatchOrders({ TrackingNumbers: ['TRK-1'] }, { force: true });
    expect(manifests()).toHaveLength(1);
    expect(log.lines.filter((l) => l.level === 'warn').map((l) => l.msg)).toContain('could not read the store to find the orders of the parcels; dispatching anyway (force: true)');
  });

  test('the parcels of a documents answer are recorded from Documents too (no ParcelsTracking)', async () => {
    const store = new MemoryStore();
    svc.answer((r) => (r.path === '/Order/GetShippingDocuments'
      ? { status: 200, body: { IsSuccess: true, Documents: [{ DocumentTypeCode: '4', DocumentExtension: 'ZPL', DocumentData: 'XlhB', ParcelCode: 'P-7', TrackingNumber: 'TRK-7' }] } }
      : answers(r)));
    const { client } = clientFor(svc, { store });
    await client.getShippingDocuments({ MerchantOrderId: 'M-7', Parcels: [parcel('P-6')] });
    await store.placeFulfilmentHold('M-7', [ead]);
    for (const request of [{ ParcelCodes: ['P-6'] }, { ParcelCodes: ['P-7'] }, { TrackingNumbers: ['TRK-7'] }]) {
      expect(await failure(client.dispatchOrders(request))).toMatchObject({ code: 'FULFILMENT_HOLD' });
    }
  });

  test('a store that cannot record the parcels: the accepted call still resolves, the failure is logged; the parcel is then refused as unknown', async () => {
    const store = new MemoryStore();
    const failing = new Proxy(store, {
      get: (t, k) => (k === 'saveRecord' ? (r: { key: string }) => (r.key.startsWith('~order:parcel:') ? Promise.reject(new Error('full')) : t.saveRecord(r as never)) : Reflect.get(t, k)),
    });
    const { client, log } = clientFor(svc, { store: failing });
    await client.getShippingDocuments({ OrderId: 'GE1', Parcels: [parcel('P-1')] });
    expect(log.lines.filter((l) => l.level === 'error').map((l) => [l.obj.operation, l.msg])).toEqual([
      ['getShippingDocuments', 'the store could not record the parcels of an accepted call (a dispatch by these parcels will be refused unless forced)'],
    ]);
    expect(await failure(client.dispatchOrders({ ParcelCodes: ['P-1'] }))).toMatchObject({ code: 'PARCEL_NOT_RECORDED', unrecordedIds: ['P-1'] });
  });
});

describe('what is recorded, and what the guard says (issue 47: the client-parcel-guard area measured whole)', () => {
  const errors = (log: { lines: Array<{ level: string; msg?: string }> }) => log.lines.filter((l) => l.level === 'error').map((l) => l.msg);

  test('blank parcel codes and tracking numbers in an answer are skipped, the others recorded; nothing is logged as failed', async () => {
    const store = new MemoryStore();
    svc.answer((r) => (r.path === '/Order/GetShippingDocuments'
      ? { status: 200, body: { IsSuccess: true, Documents: [], ParcelsTracking: [{ ParcelCode: '  ', TrackingNumber: 'TRK-5' }, { ParcelCode: 'P-5', TrackingNumber: ' ' }, { ParcelCode: '', TrackingNumber: '' }] } }
      : answers(r)));
    const { client, log } = clientFor(svc, { store });
    await client.getShippingDocuments({ OrderId: 'GE5' });
    expect(errors(log)).toEqual([]);
    await store.placeFulfilmentHold('GE5', [{ DocumentTypeCode: '11', TrackingNumber: 'EAD-5' }]);
    for (const request of [{ ParcelCodes: ['P-5'] }, { TrackingNumbers: ['TRK-5'] }]) {
      expect(await failure(client.dispatchOrders(request))).toMatchObject({ code: 'FULFILMENT_HOLD' });
    }
  });

  test('updateOrderDispatchV2\'s own TrackingDetails (the request object itself, not a parcel of its list) are recorded too', async () => {
    const store = new MemoryStore();
    const { client, log } = clientFor(svc, { store });
    await client.updateOrderDispatchV2({ OrderId: 'GE4', Parcels: [parcel('P-4')], TrackingDetails: { TrackingNumber: 'TRK-4' } });
    expect(errors(log)).toEqual([]);
    await store.placeFulfilmentHold('GE4', [{ DocumentTypeCode: '11', TrackingNumber: 'EAD-4' }]);
    expect(await failure(client.dispatchOrders({ TrackingNumbers: ['TRK-4'] }))).toMatchObject({ code: 'FULFILMENT_HOLD' });
  });

  test('without a store nothing is recorded and nothing is logged', async () => {
    const { client, log } = clientFor(svc);
    await client.getShippingDocuments({ OrderId: 'GE1', Parcels: [parcel('P-1')] });
    expect(log.lines.filter((l) => l.level === 'error' || l.level === 'warn')).toEqual([]);
  });

  test('a store failing with something that is no Error: logged as "error" (the thrown value is never written)', async () => {
    const store = new MemoryStore();
    const failing = new Proxy(store, {
      get: (t, k) => (k === 'saveRecord' ? (r: { key: string }) => (r.key.startsWith('~order:parcel:') ? Promise.reject('secret-ish text') : t.saveRecord(r as never)) : Reflect.get(t, k)),
    });
    const { client, log } = clientFor(svc, { store: failing });
    await client.getShippingDocuments({ OrderId: 'GE1', Parcels: [parcel('P-1')] });
    expect(log.lines.filter((l) => l.level === 'error').map((l) => [l.obj.operation, l.obj.err])).toEqual([['getShippingDocuments', 'error']]);
  });

  test('by order ids only, with a store: the manifest names just them and each is recorded as dispatched', async () => {
    const store = new MemoryStore();
    const { client, log } = clientFor(svc, { store });
    await client.dispatchOrders({ OrderIds: ['GE1'] });
    expect(manifests().map((r) => r.json)).toEqual([{ OrderIds: ['GE1'] }]);
    expect(log.lines.filter((l) => l.level === 'error' || l.level === 'warn')).toEqual([]);
    expect(await failure(client.updateOrderStatus({ OrderId: 'GE1', StatusCode: 'cancelled', OrderStatusReason: { OrderStatusReasonCode: '1' } }))).toMatchObject({ code: 'ORDER_DISPATCHED' });
  });

  test('what the guard says: the store failure\'s description, the forced warnings with the operation and the count of unrecorded ids', async () => {
    const store = new MemoryStore();
    const broken = new Proxy(store, { get: (t, k) => (k === 'getRecord' ? () => Promise.reject(new Error('down')) : Reflect.get(t, k)) });
    const down = clientFor(svc, { store: broken });
    const err = await failure(down.client.dispatchOrders({ ParcelCodes: ['P-1'] }));
    expect(err.description).toBe('could not read the store to find the orders of the parcels named; nothing was sent');
    await down.client.dispatchOrders({ ParcelCodes: ['P-1'] }, { force: true });
    expect(down.log.lines.filter((l) => l.level === 'warn').map((l) => l.obj.operation)).toEqual(['dispatchOrders']);
    const { client, log } = clientFor(svc, { store });
    await client.dispatchOrders({ ParcelCodes: ['P-8'], TrackingNumbers: ['TRK-8'] }, { force: true });
    expect(log.lines.filter((l) => l.level === 'warn').map((l) => [l.obj.operation, l.obj.unrecorded, l.msg])).toEqual([[
      'dispatchOrders', 2, 'dispatching parcels whose orders the store does not know, unchecked for fulfilment holds (force: true)']]);
  });

  test('rememberParcels records under each order id given and skips an empty or missing one (no parcel of order \'\')', async () => {
    const store = new MemoryStore();
    const log = captureLogger();
    await rememberParcels({ store, log } as never, 'getShippingDocuments', ['', 'GE6', undefined], { parcel: ['P-6'], tracking: ['TRK-6'] });
    expect(log.lines).toEqual([]);
    expect([await parcelOrders(store, 'parcel', 'P-6'), await parcelOrders(store, 'tracking', 'TRK-6')]).toEqual([['GE6'], ['GE6']]);
  });
});
