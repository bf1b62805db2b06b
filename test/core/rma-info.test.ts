/**
 * SendRMAInfoToMerchant (a return): an optional adapter method, `receiveRmaInfo`, mounted at
 * /SendRMAInfoToMerchant on every binding; the documented example accepted; exactly once per
 * OrderId + RMANumber (a redelivery replays even when its other fields differ, a second return of
 * the same order reaches the adapter); the tracking URL decoded; the same auth as every callback.
 */
import request from 'supertest';
import { DEFAULT_PATHS } from 'crossborder-merchant-kit';
import { BINDINGS } from '../helpers/bindings.js';
import { MERCHANT_GUID } from '../helpers/orders.js';
import { recordingAdapter } from '../helpers/recording.js';
import { rmaInfo } from '../helpers/shipping-refund.js';
import { fixture } from '../fixtures/index.js';

const DOC_GUID = '7e3d5523-d86a-4c56-8f47-5a48b829e3b7';
const documented = () => fixture('real-world-3/gedocs-sendrmainfomerchant-request.json');

test('default path', () => {
  expect(DEFAULT_PATHS.receiveRmaInfo).toBe('/SendRMAInfoToMerchant');
});

describe.each(BINDINGS)('%s', (_name, mount) => {
  test('the documented example reaches the adapter as sent (nulls read as absent), answered { Success: true }', async () => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: DOC_GUID, adapter })).post('/cb/SendRMAInfoToMerchant').send(documented());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ Success: true, InternalOrderId: 'A-1' });
    expect(adapter.calls).toHaveLength(1);
    const { input, context } = adapter.calls[0];
    expect(input).toMatchObject({
      OrderId: 'GE24192321GB', MerchantOrderId: '71144', RMANumber: '223878', ReturnTrackingNumber: '857854854778',
      TrackingURL: 'www.dhl.com/Tracking?TrackingNumber=857854854778', CurrencyCode: 'EUR', ReturnShippingCost: 10,
      ReturnedProducts: [{ SKU: 'ProductD', CartItemId: '2', ReturnQuantity: 1, ReturnReasonName: 'Arrived too late' }],
    });
    expect(input.ReturnedProducts[0]).not.toHaveProperty('MerchantReturnReasonCode');
    expect(context.callback).toBe('receiveRmaInfo');
    expect(context.idempotencyKey).toEqual(expect.stringContaining('receiveRmaInfo:GE24192321GB:'));
  });

  test('exactly once per OrderId + RMANumber: a redelivery (even re-encoded) replays, a second return of the order runs', async () => {
    const adapter = recordingAdapter();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter });
    const first = await request(app).post('/cb/SendRMAInfoToMerchant').send(rmaInfo());
    const again = await request(app).post('/cb/SendRMAInfoToMerchant').send(rmaInfo({ TrackingURL: 'www.dhl.com%2fTracking%3fTrackingNumber%3d857854854778', CreatedBy: 'Agent' }));
    const numeric = await request(app).post('/cb/SendRMAInfoToMerchant').send(rmaInfo({ RMANumber: 223878 }));
    expect([first.status, again.status, numeric.status]).toEqual([200, 200, 200]);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(numeric.headers['idempotency-replayed']).toBe('true');
    expect(adapter.calls).toHaveLength(1);
    const second = await request(app).post('/cb/SendRMAInfoToMerchant').send(rmaInfo({ RMANumber: '223879' }));
    expect(second.status).toBe(200);
    expect(second.headers['idempotency-replayed']).toBeUndefined();
    const other = await request(app).post('/cb/SendRMAInfoToMerchant').send(rmaInfo({ OrderId: 'GE-OTHER-1' }));
    expect(other.headers['idempotency-replayed']).toBeUndefined();
    expect(adapter.calls.map((c) => [c.input.OrderId, c.input.RMANumber])).toEqual([
      ['GE24192321GB', '223878'], ['GE24192321GB', '223879'], ['GE-OTHER-1', '223878'],
    ]);
  });

  test('the tracking URL is URL-decoded as the service encodes it', async () => {
    const adapter = recordingAdapter();
    await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post('/cb/SendRMAInfoToMerchant')
      .send(rmaInfo({ TrackingURL: 'https%3a%2f%2fwww.dhl.com%2fTracking%3fTrackingNumber%3d857854854778' })).expect(200);
    expect(adapter.calls[0].input.TrackingURL).toBe('https://www.dhl.com/Tracking?TrackingNumber=857854854778');
  });

  test.each([
    ['no RMANumber', { RMANumber: undefined }, /RMANumber/],
    ['a null RMANumber', { RMANumber: null }, /RMANumber/],
    ['an empty RMANumber', { RMANumber: '  ' }, /RMANumber/],
    ['an object RMANumber', { RMANumber: { n: 1 } }, /RMANumber/],
    ['no OrderId', { OrderId: undefined }, /OrderId/],
    ['no ReturnedProducts', { ReturnedProducts: undefined }, /ReturnedProducts/],
  ])('%s: refused (400) before the adapter, twice', async (_what, change, described) => {
    const adapter = recordingAdapter();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter });
    for (let i = 0; i < 2; i++) {
      const res = await request(app).post('/cb/SendRMAInfoToMerchant').send(JSON.parse(JSON.stringify(rmaInfo(change))));
      expect(res.status).toBe(400);
      expect(res.body.Description).toMatch(described);
    }
    expect(adapter.calls).toEqual([]);
  });

  test('a wrong MerchantGUID is refused (401), the adapter never called', async () => {
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter })).post('/cb/SendRMAInfoToMerchant').send(documented());
    expect(res.status).toBe(401);
    expect(JSON.stringify(res.body)).not.toContain(DOC_GUID);
    expect(adapter.calls).toEqual([]);
  });

  test('optional: not mounted without the method (404); the path is configurable', async () => {
    const { receiveRmaInfo: _r, ...rest } = recordingAdapter();
    expect((await request(mount({ merchantGuid: MERCHANT_GUID, adapter: rest as never })).post('/cb/SendRMAInfoToMerchant').send(rmaInfo())).status).toBe(404);
    const adapter = recordingAdapter();
    await request(mount({ merchantGuid: MERCHANT_GUID, adapter, paths: { receiveRmaInfo: '/returns' } })).post('/cb/returns').send(rmaInfo()).expect(200);
    expect(adapter.calls.map((c) => c.method)).toEqual(['receiveRmaInfo']);
  });
});
