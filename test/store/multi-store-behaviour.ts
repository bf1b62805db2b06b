/**
 * Several shops, one app (docs/multi-store.md): two routers under /eu and /us with their own
 * MerchantGUID and their own shop (the example app's Shop and adapter), sharing ONE store through
 * namespacedStore. Run over the Express and node:http bindings, by test/store/multi-store.test.ts (MemoryStore) and
 * multi-store.pg.test.ts (PostgresStore).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import type { CallbackKitOptions, MerchantAdapter } from 'crossborder-merchant-kit';
// store and client names from lib/ directly: they move to the /store and /client entry points (issue 27), the file stays valid either way
import { createServiceClient } from '../../lib/client/index.js';
import { namespacedStore } from '../../lib/store/namespace.js';
import type { Store } from '../../lib/store/types.js';
import { createCallbackRouter } from 'crossborder-merchant-kit/express';
import { createCallbackHandler } from 'crossborder-merchant-kit/node';
import { createShopAdapter } from '../../examples/basic-merchant/adapter.js';
import { Shop } from '../../examples/basic-merchant/shop.js';
import { runConformance } from '../../lib/tools/conformance/index.js';
import { fakeService } from '../client/fake-service.js';
import { order, paymentDetails, statusUpdate } from '../helpers/orders.js';

export const EU_GUID = '0e6f2a8c-3b1d-4c5e-9f70-a1b2c3d4e5f6';
export const US_GUID = '7c1d9e3f-5a2b-4e6d-8c90-f1e2d3c4b5a6';
const REGIONS = ['eu', 'us'] as const;
type Region = typeof REGIONS[number];
const GUIDS: Record<Region, string> = { eu: EU_GUID, us: US_GUID };

interface ShopSetup { shop: Shop; calls: Array<[string, unknown]>; store: Store; options: CallbackKitOptions }

/** The example shop's adapter, recording each call (method, OrderId) and tagging InternalOrderId with the region. */
function recordingAdapter(region: Region, shop: Shop, calls: ShopSetup['calls']): MerchantAdapter {
  const inner = createShopAdapter(shop) as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  return Object.fromEntries(Object.entries(inner).map(([name, method]) => [name, async (input: any, context: unknown) => {
    calls.push([name, input?.OrderId ?? input?.merchantCartToken]);
    const result = await method(input, context) as Record<string, unknown>;
    return typeof result?.InternalOrderId === 'string' ? { ...result, InternalOrderId: `${region.toUpperCase()}-${result.InternalOrderId}` } : result;
  }])) as unknown as MerchantAdapter;
}

/** The recipe: one store, one namespaced view and one router per shop. */
function shops(shared: Store): Record<Region, ShopSetup> {
  const out = {} as Record<Region, ShopSetup>;
  for (const region of REGIONS) {
    const shop = new Shop();
    const calls: ShopSetup['calls'] = [];
    const store = namespacedStore(shared, region);
    out[region] = { shop, calls, store, options: { merchantGuid: GUIDS[region], adapter: recordingAdapter(region, shop, calls), store, logger: false } };
  }
  return out;
}

export type TwoShopMount = (s: Record<Region, ShopSetup>) => http.Server | express.Express;

export const TWO_SHOP_BINDINGS: Array<[string, TwoShopMount]> = [
  ['express', (s) => {
    const app = express();
    for (const region of REGIONS) app.use(`/${region}`, createCallbackRouter(s[region].options));
    return app;
  }],
  ['node:http', (s) => {
    const eu = createCallbackHandler({ ...s.eu.options, basePath: '/eu' });
    const us = createCallbackHandler({ ...s.us.options, basePath: '/us' });
    return http.createServer((req, res) => eu(req, res, () => us(req, res)));
  }],
];

export function multiStoreSuite(storeName: string, newStore: () => Promise<Store>): void {
  describe.each(TWO_SHOP_BINDINGS)(`two shops sharing one ${storeName} (%s)`, (_binding, mount) => {
    let s: Record<Region, ShopSetup>;
    let app: http.Server | express.Express;
    beforeEach(async () => {
      s = shops(await newStore());
      app = mount(s);
    });
    const post = (region: Region, path: string, body: unknown) => request(app).post(`/${region}${path}`).send(body as object);

    test('the same OrderId in both shops reaches each shop\'s adapter once, and each gets its own reply; a redelivery replays its own', async () => {
      const eu = await post('eu', '/SendOrderToMerchant', order({ MerchantGUID: EU_GUID, OrderId: 'GE-SAME' }));
      const us = await post('us', '/SendOrderToMerchant', order({ MerchantGUID: US_GUID, OrderId: 'GE-SAME' }));
      expect([eu.status, us.status]).toEqual([200, 200]);
      expect(eu.body.InternalOrderId).toMatch(/^EU-/);
      expect(us.body.InternalOrderId).toMatch(/^US-/);
      expect(s.eu.calls).toEqual([['sendOrderToMerchant', 'GE-SAME']]);
      expect(s.us.calls).toEqual([['sendOrderToMerchant', 'GE-SAME']]);
      expect(s.us.shop.order('GE-SAME')).toBeDefined();

      const again = await post('us', '/SendOrderToMerchant', order({ MerchantGUID: US_GUID, OrderId: 'GE-SAME' }));
      expect(again.body).toEqual(us.body);
      expect(s.us.calls).toHaveLength(1);
    });

    test('a payment and a cancel of the same OrderId reach each shop (never the other shop\'s stored payment or reply)', async () => {
      for (const region of REGIONS) await post(region, '/SendOrderToMerchant', order({ MerchantGUID: GUIDS[region], OrderId: 'GE-SAME' })).expect(200);
      const euPay = await post('eu', '/PerformOrderPayment', order({ MerchantGUID: EU_GUID, OrderId: 'GE-SAME', PaymentDetails: paymentDetails() }));
      const usPay = await post('us', '/PerformOrderPayment', order({ MerchantGUID: US_GUID, OrderId: 'GE-SAME', PaymentDetails: paymentDetails() }));
      expect([euPay.status, usPay.status]).toEqual([200, 200]);
      expect(s.eu.shop.isPaid('GE-SAME') && s.us.shop.isPaid('GE-SAME')).toBe(true);
      // a cancel in each shop: the second is not the first one's replay, and not refused as a re-cancel
      const euCancel = await post('eu', '/UpdateOrderStatus', statusUpdate('canceled', { MerchantGUID: EU_GUID, OrderId: 'GE-SAME' }));
      const usCancel = await post('us', '/UpdateOrderStatus', statusUpdate('canceled', { MerchantGUID: US_GUID, OrderId: 'GE-SAME' }));
      expect([euCancel.status, usCancel.status]).toEqual([200, 200]);
      expect(usCancel.body.InternalOrderId).toMatch(/^US-/);
      for (const region of REGIONS) {
        expect(s[region].calls.map(([m]) => m)).toEqual(['sendOrderToMerchant', 'performOrderPayment', 'updateOrderStatus']);
        expect(s[region].shop.order('GE-SAME').status).toMatch(/cancel/i);
      }
    });

    test('an order sent to one shop\'s path with the other shop\'s MerchantGUID is refused and reaches no adapter', async () => {
      const wrong = await post('eu', '/SendOrderToMerchant', order({ MerchantGUID: US_GUID, OrderId: 'GE-X' }));
      expect(wrong.status).toBeGreaterThanOrEqual(400);
      expect(wrong.status).toBeLessThan(500);
      expect(wrong.body.Success).toBe(false);
      expect([...s.eu.calls, ...s.us.calls]).toEqual([]);
    });

    test('the conformance check passes against each path', async () => {
      const server = app instanceof http.Server ? app : http.createServer(app);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        for (const region of REGIONS) {
          const report = await runConformance({ merchantUrl: `${base}/${region}`, merchantGuid: GUIDS[region], cartToken: 'demo-cart' });
          expect({ region, failed: report.checks.filter((c) => c.status !== 'pass') }).toEqual({ region, failed: [] });
        }
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    }, 60_000);

    test('one service client per MerchantGUID, each with its shop\'s store view: a hold in one shop stops only that shop\'s dispatch', async () => {
      const held = order({
        MerchantGUID: EU_GUID, OrderId: 'GE-HOLD',
        AdditionalRequiredDocuments: [{ DocumentTypeCode: '11', DocumentTypeName: 'EAD', TrackingNumber: 'TRK123' }],
      });
      await post('eu', '/SendOrderToMerchant', held).expect(200);
      await post('us', '/SendOrderToMerchant', { ...held, MerchantGUID: US_GUID, AdditionalRequiredDocuments: undefined }).expect(200);
      const svc = await fakeService(() => ({ status: 200, body: { Success: true } }));
      try {
        const client = (region: Region) => createServiceClient({ baseUrl: svc.url, merchantGuid: GUIDS[region], accessToken: 'tok-123456', store: s[region].store, retry: { retries: 0 } });
        const dispatch = { OrderId: 'GE-HOLD', IsCompleted: true, Parcels: [{ ParcelCode: 'P1', Products: [{ CartItemId: 'ci-1', ProductCode: 'TSHIRT-BLUE-M', DeliveryQuantity: 2 }] }] };
        await expect(client('eu').updateOrderDispatchV2(dispatch)).rejects.toMatchObject({ code: 'FULFILMENT_HOLD' });
        await expect(client('us').updateOrderDispatchV2(dispatch)).resolves.toMatchObject({ Success: true });
        expect(svc.received.map((r) => r.query.get('merchantGUID'))).toEqual([US_GUID]);
      } finally {
        await svc.close();
      }
    });
  });
}
