/**
 * Issue 34 item 4 (docs/compatibility.md row R3-4): "The MerchantGUID … should be specified in the API
 * Header. Never add the merchantGUID as a path parameter in the URL" (GD merchantguid-authentication);
 * older pages (the ActiveHubDetails sample URL) and every integration seen use `?merchantGUID=`. By
 * default every {base_url} operation sends both; `merchantGuidIn: 'header' | 'query'` chooses one; the
 * additional-documents operation keeps its header. Never in a path; masked in errors and logs.
 */
import { createServiceClient } from 'crossborder-merchant-kit/client';
import { fakeService, type FakeService, type Received } from './fake-service.js';
import { clientFor, failure, fixture, GUID, TOKEN } from './setup.js';
import { fixture as fixtureFile } from '../fixtures/index.js';

let svc: FakeService;
beforeEach(async () => {
  svc = await fakeService((r) => ({
    status: 200,
    body: r.path.startsWith('/api/shipments/') ? fixture('shipment-information')
      : r.path === '/Browsing/ActiveHubDetails' ? fixture('hub-details')
        : r.path.startsWith('/Order/') ? { Success: true, Reason: 'Received' } : { Success: true },
  }));
});
afterEach(() => svc.close());

const parcel = { ParcelCode: 'P1', Products: [{ ProductCode: 'SKU0', DeliveryQuantity: 1 }] };
type Client = ReturnType<typeof createServiceClient>;
/** Every {base_url} operation, by name. */
const BASE_OPERATIONS: Array<[string, (c: Client) => Promise<unknown>]> = [
  ['getShipmentInformation', (c) => c.getShipmentInformation('T1')],
  ['updateOrderDispatchV2', (c) => c.updateOrderDispatchV2({ OrderId: 'GE1', Parcels: [parcel] })],
  ['updateOrderDispatch', (c) => c.updateOrderDispatch({ OrderId: 'GE1' })],
  ['getActiveHubDetails', (c) => c.getActiveHubDetails()],
];
const noGuidInPath = (r: Received) => expect(decodeURIComponent(r.path).toLowerCase()).not.toContain(GUID.toLowerCase());

describe.each(BASE_OPERATIONS)('%s', (_name, call) => {
  test('by default: the MerchantGUID header and the merchantGUID query parameter, never in the path', async () => {
    await call(clientFor(svc).client);
    const [r] = svc.received;
    expect(r.headers.merchantguid).toBe(GUID);
    expect(r.query.getAll('merchantGUID')).toEqual([GUID]);
    noGuidInPath(r);
  });

  test("merchantGuidIn: 'header': the header only", async () => {
    await call(clientFor(svc, { merchantGuidIn: 'header' }).client);
    const [r] = svc.received;
    expect(r.headers.merchantguid).toBe(GUID);
    expect([...r.query.keys()]).toEqual([]);
    noGuidInPath(r);
  });

  test("merchantGuidIn: 'query': the query parameter only", async () => {
    await call(clientFor(svc, { merchantGuidIn: 'query' }).client);
    const [r] = svc.received;
    expect(r.headers.merchantguid).toBeUndefined();
    expect(r.query.getAll('merchantGUID')).toEqual([GUID]);
  });
});

test('additional documents: the MerchantGUID header whatever merchantGuidIn says, no query parameter', async () => {
  for (const merchantGuidIn of ['both', 'header', 'query'] as const) {
    await clientFor(svc, { merchantGuidIn, merchantApiBaseUrl: svc.url }).client
      .requestAdditionalRequiredDocuments(fixtureFile('real-world-3/gedocs-createadditionalrequireddocuments-request.json').Orders);
  }
  expect(svc.received.map((r) => [r.path, r.headers.merchantguid, [...r.query.keys()]])).toEqual(
    Array.from({ length: 3 }, () => ['/additional-required-documents', GUID, []]));
});

test("the page's ActiveHubDetails sample and its header form are both what the default sends", async () => {
  const sample = fixtureFile('real-world-3/gedocs-activehubdetails-request.json')._request;
  const header = fixtureFile('real-world-3/gedocs-merchantguid-header-request.json')._request;
  const guid = sample.query.merchantGUID;
  await clientFor(svc, { merchantGuid: guid }).client.getActiveHubDetails();
  const [r] = svc.received;
  expect({ method: r.method, path: r.path, query: Object.fromEntries(r.query), body: r.body }).toEqual({ method: sample.method, path: sample.path, query: sample.query, body: '' });
  expect(Object.keys(header.headers)).toContain('MerchantGUID');
  expect(r.headers.merchantguid).toBe(guid);
});

test('the header is masked like the parameter: an answer echoing it never reaches an error or a log line', async () => {
  svc.answer((r) => ({ status: 401, body: { Code: 'UNAUTHORIZED', Error: `header ${String(r.headers.merchantguid)} refused` } }));
  const { client, log } = clientFor(svc, { merchantGuidIn: 'header' });
  const err = await failure(client.getShipmentInformation('T1'));
  for (const text of [err.message, err.description, JSON.stringify(err), log.text()]) expect(text).not.toContain(GUID);
  expect(err.description).toContain('[REDACTED]');
  expect(log.text()).not.toContain(TOKEN);
});

test.each([
  ['an unknown placement', { merchantGuidIn: 'path' }, /merchantGuidIn must be one of 'both', 'header', 'query'/],
  ['a MerchantGUID entry in headers', { headers: { MerchantGUID: 'x' } }, /set by the client.*merchantGuidIn/],
])('%s is refused at construction', (_what, extra, message) => {
  expect(() => createServiceClient({ baseUrl: 'https://api.example.com', merchantGuid: GUID, ...extra } as never)).toThrow(message);
});
