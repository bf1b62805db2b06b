/**
 * UpdateParcelDispatch (the service's parcel dispatch notification, docs.global-e.com "Dispatch
 * Notifications (from Global-e)"): an optional adapter method, `receiveParcelDispatch`, mounted at
 * /UpdateParcelDispatch on every binding; the body the page's table describes accepted
 * (test/fixtures/real-world-4/gedocs-dispatchnotification-request.json); exactly once per OrderId,
 * parcel and status (a redelivery replays even when its tracking or products differ in form; another
 * parcel or another status reaches the adapter); the tracking URL decoded; the same auth as every callback.
 */
import request from 'supertest';
import { DEFAULT_PATHS } from 'crossborder-merchant-kit';
import { BINDINGS } from '../helpers/bindings.js';
import { MERCHANT_GUID } from '../helpers/orders.js';
import { recordingAdapter } from '../helpers/recording.js';
import { parcelDispatch } from '../helpers/shipping-refund.js';
import { fixture } from '../fixtures/index.js';

const DOC_GUID = 'abcdabcd-abcd-abcd-abcd-abcdabcdabcd';
const PATH = '/cb/UpdateParcelDispatch';
/** The body built from the page's table, without the fixture's note. */
const documented = () => {
  const { _note: _n, ...body } = fixture('real-world-4/gedocs-dispatchnotification-request.json');
  return body;
};

test('default path', () => {
  expect(DEFAULT_PATHS.receiveParcelDispatch).toBe('/UpdateParcelDispatch');
});

describe.each(BINDINGS)('%s', (_name, mount) => {
  test('the documented body reaches the adapter as sent, answered { Success: true }', async () => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: DOC_GUID, adapter })).post(PATH).send(documented());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ Success: true, InternalOrderId: 'A-1' });
    expect(adapter.calls).toHaveLength(1);
    const { input, context } = adapter.calls[0];
    expect(input).toEqual({
      OrderId: 'GE123874638GB', MerchantOrderId: '100018322', StatusCode: 'Dispatched', WebStoreCode: 'GlobalEStore', MerchantGUID: DOC_GUID,
      DispatchedParcel: {
        ParcelTracking: { ParcelTrackingNumber: '1Z999AA10123456784', ParcelTrackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784' },
        ParcelCode: '123454321', HubCode: 'LON-1', Code: 'DispatchedToCustomer', StatusName: 'Dispatched to Customer',
        Products: [{ SKU: '121212', CartItemId: '12365', Quantity: 1 }, { SKU: '131313', CartItemId: '12376', Quantity: 2 }],
      },
    });
    expect(context.callback).toBe('receiveParcelDispatch');
    expect(context.idempotencyKey).toEqual(expect.stringContaining('receiveParcelDispatch:GE123874638GB:'));
  });

  test('exactly once per OrderId + parcel + status: a redelivery that differs elsewhere replays; another parcel or status runs', async () => {
    const adapter = recordingAdapter();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter });
    const send = (o: Record<string, unknown> = {}, p: Record<string, unknown> = {}) => request(app).post(PATH).send(parcelDispatch(o, p));
    const first = await send();
    const replays = [
      await send({ WebStoreCode: 'Other', MerchantOrderId: 'X-9' }, { ParcelTracking: { ParcelTrackingNumber: '1Z999AA10123456784', ParcelTrackingUrl: 'https%3a%2f%2fwww.ups.com%2ftrack%3ftracknum%3d1Z999AA10123456784' } }),
      await send({}, { Products: [{ SKU: '121212', CartItemId: 12365, Quantity: '1' }], HubCode: 'LON-2' }),
      await send({}, { ParcelCode: 123454321 }),
      await send({}, { StatusName: '  Dispatched to Customer ' }),
    ];
    expect(first.status).toBe(200);
    for (const r of replays) {
      expect(r.status).toBe(200);
      expect(r.headers['idempotency-replayed']).toBe('true');
    }
    expect(adapter.calls).toHaveLength(1);
    const runs = [
      await send({}, { ParcelCode: '123454322' }),
      await send({}, { StatusName: 'Delivered' }),
      await send({}, { Code: 'Delivered' }),
      await send({ StatusCode: 'Completed' }),
      await send({ StatusCode: undefined }),
      await send({ OrderId: 'GE-OTHER-1' }),
    ];
    for (const r of runs) {
      expect(r.status).toBe(200);
      expect(r.headers['idempotency-replayed']).toBeUndefined();
    }
    expect(adapter.calls.map((c) => [c.input.OrderId, String(c.input.DispatchedParcel.ParcelCode), c.input.DispatchedParcel.Code, c.input.DispatchedParcel.StatusName, c.input.StatusCode])).toEqual([
      ['GE123874638GB', '123454321', 'DispatchedToCustomer', 'Dispatched to Customer', 'Dispatched'],
      ['GE123874638GB', '123454322', 'DispatchedToCustomer', 'Dispatched to Customer', 'Dispatched'],
      ['GE123874638GB', '123454321', 'DispatchedToCustomer', 'Delivered', 'Dispatched'],
      ['GE123874638GB', '123454321', 'Delivered', 'Dispatched to Customer', 'Dispatched'],
      ['GE123874638GB', '123454321', 'DispatchedToCustomer', 'Dispatched to Customer', 'Completed'],
      ['GE123874638GB', '123454321', 'DispatchedToCustomer', 'Dispatched to Customer', undefined],
      ['GE-OTHER-1', '123454321', 'DispatchedToCustomer', 'Dispatched to Customer', 'Dispatched'],
    ]);
  });

  test('a status left out, null or empty is one event "without it": its redeliveries replay', async () => {
    const adapter = recordingAdapter();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter });
    const bare = { Code: undefined, StatusName: undefined };
    await request(app).post(PATH).send(parcelDispatch({ StatusCode: undefined }, bare)).expect(200);
    for (const [o, p] of [[{ StatusCode: null }, { Code: null, StatusName: null }], [{ StatusCode: '' }, { Code: ' ', StatusName: '' }]] as const) {
      const again = await request(app).post(PATH).send(parcelDispatch({ ...o }, { ...p }));
      expect(again.status).toBe(200);
      expect(again.headers['idempotency-replayed']).toBe('true');
    }
    expect(adapter.calls).toHaveLength(1);
  });

  test('the tracking URL is URL-decoded as the service encodes its URLs', async () => {
    const adapter = recordingAdapter();
    await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post(PATH)
      .send(parcelDispatch({}, { ParcelTracking: { ParcelTrackingNumber: 'T1', ParcelTrackingUrl: 'https%3a%2f%2ftrack.example.com%2f%3fn%3dT1' } })).expect(200);
    expect(adapter.calls[0].input.DispatchedParcel.ParcelTracking.ParcelTrackingUrl).toBe('https://track.example.com/?n=T1');
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown> | undefined, RegExp]>([
    ['no DispatchedParcel', { DispatchedParcel: undefined }, undefined, /DispatchedParcel/],
    ['no ParcelCode', {}, { ParcelCode: undefined }, /ParcelCode/],
    ['a null ParcelCode', {}, { ParcelCode: null }, /ParcelCode/],
    ['an empty ParcelCode', {}, { ParcelCode: '  ' }, /ParcelCode/],
    ['an object ParcelCode', {}, { ParcelCode: { n: 1 } }, /ParcelCode/],
    ['an object StatusName', {}, { StatusName: { n: 1 } }, /StatusName/],
    ['a StatusCode of 201 characters', { StatusCode: 'x'.repeat(201) }, undefined, /StatusCode/],
    ['no OrderId', { OrderId: undefined }, undefined, /OrderId/],
  ])('%s: refused (400) before the adapter, twice', async (_what, change, parcel, described) => {
    const adapter = recordingAdapter();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter });
    for (let i = 0; i < 2; i++) {
      const body = parcelDispatch(change, parcel ?? {});
      if (change.DispatchedParcel === undefined && 'DispatchedParcel' in change) delete body.DispatchedParcel;
      const res = await request(app).post(PATH).send(JSON.parse(JSON.stringify(body)));
      expect(res.status).toBe(400);
      expect(res.body.Description).toMatch(described);
    }
    expect(adapter.calls).toEqual([]);
  });

  test.each([
    ['no Products', { Products: undefined }, '/DispatchedParcel/Products'],
    ['a product without Quantity', { Products: [{ SKU: 'A', CartItemId: '1' }] }, '/DispatchedParcel/Products/0/Quantity'],
  ])('%s: passed on with the deviation named (tolerant validation, the default); refused 400 under strict validation', async (_what, parcel, pointer) => {
    const adapter = recordingAdapter();
    await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post(PATH).send(parcelDispatch({}, parcel)).expect(200);
    expect(adapter.calls[0].context.specDeviations).toEqual(expect.arrayContaining([{ pointer, rule: 'is required' }]));
    const strict = recordingAdapter();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter: strict, validation: 'strict' })).post(PATH).send(parcelDispatch({}, parcel));
    expect(res.status).toBe(400);
    expect(strict.calls).toEqual([]);
  });

  test('a wrong MerchantGUID is refused (401), the adapter never called, the GUID never echoed', async () => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post(PATH).send(documented());
    expect(res.status).toBe(401);
    expect(JSON.stringify(res.body)).not.toContain(DOC_GUID);
    expect(adapter.calls).toEqual([]);
  });

  test('optional: not mounted without the method (404); the path is configurable', async () => {
    const { receiveParcelDispatch: _r, ...rest } = recordingAdapter();
    expect((await request(mount({ merchantGuid: MERCHANT_GUID, adapter: rest as never })).post(PATH).send(parcelDispatch())).status).toBe(404);
    const adapter = recordingAdapter();
    await request(mount({ merchantGuid: MERCHANT_GUID, adapter, paths: { receiveParcelDispatch: '/parcels' } })).post('/cb/parcels').send(parcelDispatch()).expect(200);
    expect(adapter.calls.map((c) => c.method)).toEqual(['receiveParcelDispatch']);
  });
});
