/**
 * dispatchOrders by parcel against the sandbox (round 4): parcels dispatched by ParcelCodes and
 * TrackingNumbers, each on a manifest, the order dispatched once all its parcels are; B401, B402,
 * B403 and B404 (`test/fixtures/real-world-4/gedocs-getordersmanifestrequest-error-codes.json`).
 */
import { readFileSync } from 'node:fs';
import { createServiceClient } from 'crossborder-merchant-kit/client';
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { createSandbox, SANDBOX_MERCHANT_GUID, type Sandbox } from '../../lib/tools/sandbox/index.js';
import { failure } from './setup.js';

const ROWS = JSON.parse(readFileSync(new URL('../fixtures/real-world-4/gedocs-getordersmanifestrequest-error-codes.json', import.meta.url), 'utf8')).rows as Array<{ ErrorCode: string; ErrorText: string }>;
const B404 = ROWS.find((r) => r.ErrorCode === 'B404')!.ErrorText;

describe('dispatch by parcel against the sandbox', () => {
  let sandbox: Sandbox;
  let url: string;
  const start = async (data?: object) => {
    sandbox = createSandbox({ port: 0, console: false, documentsDelayMs: 60_000, ...(data ? { data } : {}) });
    url = await sandbox.listen();
  };
  afterEach(() => sandbox.close());
  const client = (store?: MemoryStore) => createServiceClient({ baseUrl: url, merchantGuid: SANDBOX_MERCHANT_GUID, accessToken: 'any', retry: { retries: 0 }, ...(store ? { store } : {}) });
  const twoParcels = async (c: ReturnType<typeof client>) => {
    const order = sandbox.orders.get('GE100000001SB')!;
    const docs = await c.getShippingDocuments({ OrderId: order.orderId, Parcels: order.lines.slice(0, 2).map((l, i) => ({ ParcelCode: `P-${i + 1}`, Products: [{ ProductCode: l.sku, DeliveryQuantity: 1 }] })) });
    return docs.ParcelsTracking as Array<{ ParcelCode: string; TrackingNumber: string }>;
  };

  test('by ParcelCodes then by TrackingNumbers: each parcel on a manifest; the order is dispatched once all are; the store guard lets them through', async () => {
    await start();
    const c = client(new MemoryStore());
    const tracking = await twoParcels(c);
    await c.dispatchOrders({ ParcelCodes: ['P-1'] });
    let order = sandbox.orders.get('GE100000001SB')!;
    expect([order.parcels.map((p) => p.manifested === true), order.manifested]).toEqual([[true, false], false]);
    await c.dispatchOrders({ TrackingNumbers: [tracking[1].TrackingNumber] });
    order = sandbox.orders.get('GE100000001SB')!;
    expect([order.parcels.map((p) => p.manifested === true), order.manifested]).toEqual([[true, true], true]);
    expect(await failure(c.dispatchOrders({ ParcelCodes: ['P-1'] }))).toMatchObject({ code: 'B002' });
  });

  test('B401 unknown parcel code, B402 unknown tracking number, B404 nothing named (a raw request)', async () => {
    await start();
    const c = client();
    await twoParcels(c);
    expect(await failure(c.dispatchOrders({ ParcelCodes: ['P-1', 'NOPE'] }))).toMatchObject({ code: 'B401', description: expect.stringContaining('NOPE') });
    expect(await failure(c.dispatchOrders({ TrackingNumbers: ['SB0000000000'] }))).toMatchObject({ code: 'B402' });
    const raw = await fetch(`${url}/Order/DispatchOrders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ HubCode: 'WH-1' }) });
    expect(await raw.json()).toMatchObject({ IsSuccess: false, Code: 'B404', ErrorText: B404 });
    expect(sandbox.orders.get('GE100000001SB')!.parcels.some((p) => p.manifested)).toBe(false);
  });

  test('B403 for a merchant without parcel-level dispatch (seed parcelDispatch: false); by order still works', async () => {
    await start({ merchants: [{ id: 'default', guid: SANDBOX_MERCHANT_GUID, parcelDispatch: false }] });
    const c = client();
    await twoParcels(c);
    expect(await failure(c.dispatchOrders({ ParcelCodes: ['P-1'] }))).toMatchObject({ code: 'B403' });
    await c.dispatchOrders({ OrderIds: ['GE100000001SB'] });
    expect(sandbox.orders.get('GE100000001SB')!.manifested).toBe(true);
  });
});
