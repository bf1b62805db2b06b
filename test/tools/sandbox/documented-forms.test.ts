/**
 * A sandbox that cannot agree with a mistake (issue 46, item 7): for the operations it serves, a
 * request recorded from the service's sources (the fixtures of rounds 2–4) and the kit's client are
 * both accepted, and a form no source shows is refused with the error the service documents for it.
 * The accepted form of each operation and its source: docs/compatibility.md, "What the sandbox accepts".
 */
import { readFileSync } from 'node:fs';
import { createServiceClient, type ServiceClient } from 'crossborder-merchant-kit/client';
import { createSandbox, SANDBOX_MERCHANT_GUID, type Sandbox } from '../../../lib/tools/sandbox/index.js';

const fixture = (path: string): any => JSON.parse(readFileSync(new URL(`../../fixtures/${path}`, import.meta.url), 'utf8'));

let sandbox: Sandbox;
let url: string;
let client: ServiceClient;
beforeEach(async () => {
  sandbox = createSandbox({ port: 0, console: false, documentsDelayMs: 60_000 });
  url = await sandbox.listen();
  client = createServiceClient({ baseUrl: url, merchantGuid: SANDBOX_MERCHANT_GUID, accessToken: 'any', retry: { retries: 0 } });
});
afterEach(() => sandbox.close());

/** A raw request as the source shows it (the query's merchantGUID added as every integration sends it). */
async function raw(method: string, path: string, body?: unknown, query: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const q = new URLSearchParams({ merchantGUID: SANDBOX_MERCHANT_GUID, ...query });
  const res = await fetch(`${url}${path}?${q}`, {
    method, headers: { 'content-type': 'application/json', authorization: 'Bearer any' }, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
const sku = (orderId: string, i = 0) => sandbox.orders.get(orderId)!.lines[i].sku;

test('UpdateOrderStatus: the page\'s orderStatus query parameter (round 3) and the client are accepted; neither query nor body is refused', async () => {
  const recorded = fixture('real-world-3/gedocs-updateorderstatus-m2ge-request.json')._request;
  const status = { ...JSON.parse(recorded.query.orderStatus), OrderId: 'GE100000001SB' };
  expect(await raw('POST', recorded.path, undefined, { orderStatus: JSON.stringify(status) })).toMatchObject({ status: 200, body: { Success: true } });
  expect(sandbox.orders.get('GE100000001SB')!.cancelled).toBe(true);
  await client.updateOrderStatus({ OrderId: 'GE100000002SB', StatusCode: 'processing' });
  expect(await raw('POST', recorded.path, undefined)).toMatchObject({ status: 400, body: { Success: false } });
  expect(await raw('POST', recorded.path, undefined, { orderStatus: 'OrderId=GE100000003SB' })).toMatchObject({ status: 400, body: { Success: false } });
});

test('CreateAdditionalRequiredDocuments: the page\'s body (round 3) and the client are accepted; another shape is INVALID_REQUEST', async () => {
  const body = fixture('real-world-3/gedocs-createadditionalrequireddocuments-request.json');
  body.Orders[0].OrderId = 'GE100000001SB';
  expect(await raw('POST', '/additional-required-documents', body)).toMatchObject({ status: 200, body: { Success: true } });
  await client.requestAdditionalRequiredDocuments([{ OrderId: 'GE100000002SB', TrackingNumbers: ['T-1'] }]);
  for (const wrong of [{ OrderId: 'GE100000001SB', TrackingNumbers: ['x'] }, { Orders: [{ OrderId: 'GE100000001SB', TrackingNumber: 'x' }] }, { Orders: [] }]) {
    expect(await raw('POST', '/additional-required-documents', wrong)).toMatchObject({ status: 400, body: { Code: 'INVALID_REQUEST' } });
  }
});

test('UpdateOrderDispatchV2: the pages\' use case (round 3) and a real integration\'s body (round 2) are accepted, the client too; no parcels nor exceptions is refused', async () => {
  const useCase = fixture('real-world-3/gedocs-updateorderdispatch-usecase-single-parcel.json');
  const first = { ...useCase, OrderId: 'GE100000001SB', Parcels: [{ ...useCase.Parcels[0], Products: [{ ProductCode: sku('GE100000001SB'), DeliveryQuantity: 1 }] }] };
  expect(await raw('POST', '/Order/UpdateOrderDispatchV2', first)).toMatchObject({ status: 200, body: { Success: true } });
  const real = fixture('real-world-2/nodeazure-UpdateOrderDispatchV2-request-1.json');
  const second = { ...real, OrderId: 'GE100000002SB', Parcels: [{ ...real.Parcels[0], Products: [{ ProductCode: sku('GE100000002SB'), DeliveryQuantity: 1 }] }] };
  expect(await raw('POST', '/Order/UpdateOrderDispatchV2', second)).toMatchObject({ status: 200, body: { Success: true } });
  await client.updateOrderDispatchV2({ OrderId: 'GE100000003SB', Parcels: [{ ParcelCode: 'C-1', Products: [{ ProductCode: sku('GE100000003SB'), DeliveryQuantity: 1 }] }] });
  expect(await raw('POST', '/Order/UpdateOrderDispatchV2', { OrderId: 'GE100000004SB', IsCompleted: true })).toMatchObject({ body: { Success: false, Reason: 'Either Parcels or Exceptions must be specified' } });
});

test('ActiveHubDetails: the page\'s request (round 3: POST, merchantGUID in the query, no body) and the client are accepted; GET is 405', async () => {
  const recorded = fixture('real-world-3/gedocs-activehubdetails-request.json')._request;
  expect(await raw(recorded.method, recorded.path)).toMatchObject({ status: 200, body: { HubId: 2 } });
  expect(await client.getActiveHubDetails()).toMatchObject({ HubId: 2 });
  expect((await raw('GET', recorded.path)).status).toBe(405);
});

test('GetShippingDocuments: the usage-1 request (round 4) and the client are accepted; parcels that are not a list are A100', async () => {
  const usage1 = fixture('real-world-4/gedocs-getshippingdocuments-usage1.json');
  await client.getShippingDocuments({ OrderId: 'GE100000001SB', Parcels: [{ ParcelCode: 'P-1', Products: [{ ProductCode: sku('GE100000001SB'), DeliveryQuantity: 1 }] }] });
  expect(await raw('POST', usage1._request.path, { ...usage1.body, OrderId: 'GE100000001SB' })).toMatchObject({ status: 200, body: { IsSuccess: true } });
  for (const wrong of [{ OrderId: 'GE100000001SB', Parcels: 'P-1' }, { OrderId: 'GE100000001SB', Exceptions: {} }, { Parcels: [] }]) {
    expect(await raw('POST', usage1._request.path, wrong)).toMatchObject({ status: 400, body: { IsSuccess: false, Code: 'A100' } });
  }
});

test('DispatchOrders: the fields of B404 (round 4) are read; a request with none of them is B404 with the documented text', async () => {
  const b404 = fixture('real-world-4/gedocs-getordersmanifestrequest-error-codes.json').rows.find((r: { ErrorCode: string }) => r.ErrorCode === 'B404');
  for (const wrong of [{}, { OrderId: 'GE100000001SB' }, { orderIds: ['GE100000001SB'] }]) {
    expect(await raw('POST', '/Order/DispatchOrders', wrong)).toMatchObject({ status: 400, body: { IsSuccess: false, Code: 'B404', ErrorText: b404.ErrorText } });
  }
});
