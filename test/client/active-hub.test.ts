import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure, fixture, GUID } from './setup.js';

let svc: FakeService;
beforeEach(async () => { svc = await fakeService(() => ({ status: 200, body: fixture('hub-details') })); });
afterEach(() => svc.close());

const PATH = '/Browsing/ActiveHubDetails';
/** What the client returns for the fixture: the service's StateOrProvice also as StateOrProvince. */
const hub = () => ({ ...fixture('hub-details'), StateOrProvince: fixture('hub-details').StateOrProvice });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('getActiveHubDetails', () => {
  test('POST {baseUrl}/Browsing/ActiveHubDetails without a body; the HubDetails are returned', async () => {
    const { client } = clientFor(svc);
    expect(await client.getActiveHubDetails()).toEqual(hub());
    expect(svc.received[0]).toMatchObject({ method: 'POST', path: PATH, body: '' });
    expect(svc.received[0].query.get('merchantGUID')).toBe(GUID);
  });

  test('cached: a second call makes no request and gets its own copy', async () => {
    const { client } = clientFor(svc);
    const first = await client.getActiveHubDetails();
    first.HubName = 'changed by the caller';
    expect(await client.getActiveHubDetails()).toEqual(hub());
    expect(svc.count(PATH)).toBe(1);
  });

  test('concurrent callers share one request', async () => {
    svc.answer(() => ({ status: 200, body: fixture('hub-details'), delayMs: 100 }));
    const { client } = clientFor(svc);
    const all = await Promise.all(Array.from({ length: 8 }, () => client.getActiveHubDetails()));
    expect(all.every((h) => h.HubId === fixture('hub-details').HubId)).toBe(true);
    expect(svc.count(PATH)).toBe(1);
  });

  test('a failure is not cached: concurrent callers all get it, the next call asks again', async () => {
    svc.answer((_r, nth) => (nth === 1 ? { status: 500, body: { Code: 'INTERNAL_ERROR', Error: 'down' }, delayMs: 50 } : { status: 200, body: fixture('hub-details') }));
    const { client } = clientFor(svc, { retry: { retries: 0 } });
    const errors = await Promise.all(Array.from({ length: 3 }, () => failure(client.getActiveHubDetails())));
    expect(errors.map((e) => e.code)).toEqual(['INTERNAL_ERROR', 'INTERNAL_ERROR', 'INTERNAL_ERROR']);
    expect(svc.count(PATH)).toBe(1);
    expect((await client.getActiveHubDetails()).HubId).toBe(fixture('hub-details').HubId);
    expect(svc.count(PATH)).toBe(2);
  });

  test('a read: retried on 500 although it is a POST', async () => {
    svc.answer((_r, nth) => (nth === 1 ? { status: 500, body: '' } : { status: 200, body: fixture('hub-details') }));
    const { client } = clientFor(svc);
    await client.getActiveHubDetails();
    expect(svc.count(PATH)).toBe(2);
  });

  test('the cache lasts hubCacheTtlMs; 0 turns it off; clearActiveHubCache forgets it', async () => {
    const short = clientFor(svc, { hubCacheTtlMs: 30 }).client;
    await short.getActiveHubDetails();
    await sleep(80);
    await short.getActiveHubDetails();
    expect(svc.count(PATH)).toBe(2);
    const off = clientFor(svc, { hubCacheTtlMs: 0 }).client;
    await off.getActiveHubDetails();
    await off.getActiveHubDetails();
    expect(svc.count(PATH)).toBe(4);
    const { client } = clientFor(svc);
    await client.getActiveHubDetails();
    client.clearActiveHubCache();
    await client.getActiveHubDetails();
    expect(svc.count(PATH)).toBe(6);
  });

  test('the object wrapped as { HubDetails } is accepted; a body that breaks the schema is INVALID_RESPONSE', async () => {
    svc.answer(() => ({ status: 200, body: { HubDetails: fixture('hub-details') } }));
    expect(await clientFor(svc).client.getActiveHubDetails()).toEqual(hub());
    svc.answer(() => ({ status: 200, body: { ...fixture('hub-details'), HubId: 'seven' } }));
    expect(await failure(clientFor(svc).client.getActiveHubDetails())).toMatchObject({ code: 'INVALID_RESPONSE', operation: 'getActiveHubDetails' });
  });

  test('StateOrProvice (as the service spells it) is also StateOrProvince; the correct spelling alone fills both', async () => {
    const { client } = clientFor(svc, { hubCacheTtlMs: 0 });
    const got = await client.getActiveHubDetails();
    expect(got.StateOrProvince).toBe('Middlesex');
    expect(got.StateOrProvice).toBe('Middlesex');
    const { StateOrProvice: _, ...rest } = fixture('hub-details');
    svc.answer(() => ({ status: 200, body: { HubDetails: { ...rest, StateOrProvince: 'Kent' } } }));
    expect(await client.getActiveHubDetails()).toMatchObject({ StateOrProvince: 'Kent', StateOrProvice: 'Kent' });
    svc.answer(() => ({ status: 200, body: rest }));
    const none = await client.getActiveHubDetails();
    expect('StateOrProvince' in none || 'StateOrProvice' in none).toBe(false);
  });
});
