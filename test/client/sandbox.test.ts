/**
 * The service client against the kit's own sandbox of the service (lib/tools/sandbox), on loopback:
 * every operation, the spec's error codes as the sandbox produces them, and the export-declaration
 * decision on its seed shipments.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { createServiceClient, ServiceError, type ServiceClient } from 'crossborder-merchant-kit/client';
import { exportDeclarationForShipment } from 'crossborder-merchant-kit/customs';
import { createCallbackHandler } from 'crossborder-merchant-kit/node';
import { order } from '../helpers/orders.js';
import { recordingAdapter } from '../helpers/recording.js';
import { createSandbox, SANDBOX_MERCHANT_GUID, SEED_TOKENS, SEED_TRACKING_NUMBERS, type Sandbox } from '../../lib/tools/sandbox/index.js';
import { failure } from './setup.js';

const TOKEN = 'sandbox-test-token-7731';
let sandbox: Sandbox;
let url: string;
const client = (accessToken = TOKEN): ServiceClient => createServiceClient({
  baseUrl: url, merchantGuid: SANDBOX_MERCHANT_GUID, accessToken, retry: { retries: 1, minDelayMs: 1, maxDelayMs: 10 },
});

beforeAll(async () => {
  sandbox = createSandbox({ port: 0, accessToken: TOKEN, documentsDelayMs: 60_000 });
  url = await sandbox.listen();
});
afterAll(() => sandbox.close());

const T = SEED_TRACKING_NUMBERS;

describe('the service client against the sandbox', () => {
  test('getShipmentInformation gives a valid ShipmentInformation the customs helper can decide on', async () => {
    const info = await client().getShipmentInformation(T.ok);
    expect(info.shipment.trackingNumber).toBe(T.ok);
    const decision = exportDeclarationForShipment(info, { eurExchangeRate: info.exportDeclaration.currencyCode === 'EUR' ? undefined : 1 });
    expect(typeof decision.required).toBe('boolean');
    expect(decision.lines.length).toBeGreaterThan(0);
    expect(decision.warnings).toEqual([]);
  });

  test.each([
    ['another merchant\'s tracking number', T.otherMerchant, 'A810', 400],
    ['a missing EORI number', T.missingEori, 'SHIPMENT_CONFIGURATION_INCOMPLETE', 409],
    ['a missing commodity code', T.missingCommodityCode, 'SHIPMENT_CONFIGURATION_INCOMPLETE', 409],
    ['mixed currencies', T.mixedCurrencies, 'SHIPMENT_CONFIGURATION_INCOMPLETE', 409],
    ['an internal error', T.internalError, 'INTERNAL_ERROR', 500],
    ['a malformed number', 'bad number!', 'INVALID_REQUEST', 400],
  ])('%s: %s', async (_name, trackingNumber, code, status) => {
    const err = await failure(client().getShipmentInformation(trackingNumber));
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({ code, status });
  });

  test('a wrong token is UNAUTHORIZED; an account without the API is FORBIDDEN', async () => {
    expect(await failure(client('wrong-token').getShipmentInformation(T.ok))).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(await failure(client(SEED_TOKENS.apiDisabled).getShipmentInformation(T.ok))).toMatchObject({ code: 'FORBIDDEN', status: 403 });
  });

  test('dispatch V2 (by merchant order id, with tracking) and V1 are accepted and change the order', async () => {
    const order = sandbox.orders.get('GE100000001SB')!;
    const line = order.lines[0];
    const parcel = { ParcelCode: 'P-1', Products: [{ ProductCode: line.sku, CartItemId: line.cartItemId, DeliveryQuantity: 1 }] };
    const v2 = await client().updateOrderDispatchV2({
      MerchantOrderID: 'M-1001', IsCompleted: false, Parcels: [{ ...parcel, TrackingDetails: { TrackingNumber: T.ok } }],
      TrackingDetails: { TrackingNumber: T.ok, ShipperName: 'UPS' },
    });
    expect(v2.Success).toBe(true);
    expect(sandbox.orders.get('GE100000001SB')!.parcels.length).toBeGreaterThan(0);
    const v1 = await client().updateOrderDispatch({ OrderId: 'GE100000001SB', Parcels: [{ ...parcel, ParcelCode: 'P-2' }] });
    expect(v1.Success).toBe(true);
  });

  test('a dispatch the sandbox rejects is DISPATCH_REJECTED with its Reason', async () => {
    const err = await failure(client().updateOrderDispatchV2({ OrderId: 'GE000000000XX', Exceptions: [{ ExceptionType: 1, Quantity: 1, ProductCode: 'X' }] }));
    expect(err).toMatchObject({ code: 'DISPATCH_REJECTED', reason: expect.stringContaining('Order not found') });
  });

  test('additional documents: accepted for a known order, B001 for an unknown one', async () => {
    expect(await client().requestAdditionalRequiredDocuments([{ OrderId: 'GE100000002SB', TrackingNumbers: [T.okHighValue] }])).toMatchObject({ Success: true });
    expect(await failure(client().requestAdditionalRequiredDocuments([{ OrderId: 'GE000000000XX', TrackingNumbers: ['X'] }])))
      .toMatchObject({ code: 'B001' });
  });

  test('the active hub', async () => {
    expect(await client().getActiveHubDetails()).toMatchObject({ HubId: 2, HubName: 'Sandbox Hub Frankfurt' });
  });
});

describe('the whole loop: router, client and sandbox share one store', () => {
  test('an order announced with an EAD is held; the client requests the documents; the sandbox delivers them to the router; the hold is released and the dispatch goes out', async () => {
    const store = new MemoryStore();
    const handler = createCallbackHandler({ merchantGuid: SANDBOX_MERCHANT_GUID, adapter: recordingAdapter(), store });
    const merchant = createServer(handler);
    await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve));
    const merchantUrl = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}`;
    const service = createSandbox({ port: 0, merchantUrl, documentsDelayMs: 0 });
    try {
      const serviceUrl = await service.listen();
      const created = await fetch(`${merchantUrl}/SendOrderToMerchant`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify(order({
          MerchantGUID: SANDBOX_MERCHANT_GUID, OrderId: 'GE100000001SB',
          AdditionalRequiredDocuments: [{ DocumentTypeCode: '11', DocumentTypeName: 'EAD', DocumentExtension: 'PDF', URL: '', TrackingNumber: T.ok }],
        })),
      });
      expect(await created.json()).toMatchObject({ Success: true, InternalOrderId: 'A-1' });

      const c = createServiceClient({ baseUrl: serviceUrl, merchantGuid: SANDBOX_MERCHANT_GUID, accessToken: 'any', store });
      const order1 = service.orders.get('GE100000001SB')!;
      const parcel = { ParcelCode: 'P-9', Products: [{ ProductCode: order1.lines[0].sku, DeliveryQuantity: 1 }] };
      expect(await failure(c.updateOrderDispatchV2({ MerchantOrderID: 'A-1', Parcels: [parcel] }))).toMatchObject({ code: 'FULFILMENT_HOLD' });

      await c.requestAdditionalRequiredDocuments([{ OrderId: 'GE100000001SB', TrackingNumbers: [T.ok] }]);
      for (let i = 0; i < 100 && (await store.getFulfilmentHold('GE100000001SB')) !== null; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await store.getFulfilmentHold('GE100000001SB')).toBeNull();
      expect(await c.updateOrderDispatchV2({ OrderId: 'GE100000001SB', Parcels: [parcel] })).toMatchObject({ Success: true });
    } finally {
      await service.close();
      merchant.closeAllConnections();
      await new Promise<void>((resolve) => merchant.close(() => resolve()));
    }
  });
});
