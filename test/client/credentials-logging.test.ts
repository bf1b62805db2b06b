import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure, fixture, GUID, TOKEN } from './setup.js';

let svc: FakeService;
beforeEach(async () => { svc = await fakeService(() => ({ status: 200, body: fixture('shipment-information') })); });
afterEach(() => svc.close());

describe('credentials and logging', () => {
  test('one log line per attempt: method, path, status and duration only — no body, query, token or MerchantGUID', async () => {
    const { client, log } = clientFor(svc);
    await client.getShipmentInformation('1Z999AA10123456784');
    expect(log.lines).toHaveLength(1);
    const [line] = log.lines;
    expect(line.level).toBe('info');
    expect(Object.keys(line.obj).sort()).toEqual(['attempt', 'component', 'durationMs', 'method', 'operation', 'path', 'status']);
    expect(line.obj).toMatchObject({ method: 'GET', path: '/api/shipments/1Z999AA10123456784', status: 200, operation: 'getShipmentInformation' });
    expect(typeof line.obj.durationMs).toBe('number');
    const text = log.text();
    for (const leaked of [GUID, TOKEN, 'Nordwear', 'GB123456789000', 'merchantGUID']) expect(text).not.toContain(leaked);
  });

  test('an error message never carries the token or the MerchantGUID, even when the service echoes them', async () => {
    svc.answer(() => ({ status: 401, body: { Code: 'UNAUTHORIZED', Error: `token ${TOKEN} is not valid for merchant ${GUID}` } }));
    const { client, log } = clientFor(svc);
    const err = await failure(client.getShipmentInformation('T1'));
    expect(err.code).toBe('UNAUTHORIZED');
    for (const text of [err.message, err.description, JSON.stringify(err), log.text()]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(GUID);
    }
    expect(err.description).toContain('[REDACTED]');
  });

  test('a token function is called for every request, so tokens can rotate; its tokens are masked too', async () => {
    let n = 0;
    svc.answer((r) => (r.headers.authorization === 'Bearer rotating-token-1'
      ? { status: 500, body: { Code: 'INTERNAL_ERROR', Error: 'rotating-token-1 expired' } }
      : { status: 200, body: fixture('shipment-information') }));
    const { client } = clientFor(svc, { accessToken: async () => `rotating-token-${++n}` });
    await client.getShipmentInformation('T1');
    expect(svc.received.map((r) => r.headers.authorization)).toEqual(['Bearer rotating-token-1', 'Bearer rotating-token-2']);
    svc.answer(() => ({ status: 400, body: { Code: 'INVALID_REQUEST', Error: `bad rotating-token-${n + 1}` } }));
    const err = await failure(client.getShipmentInformation('T1'));
    expect(err.message).not.toContain(`rotating-token-${n}`);
  });

  test('a token function that throws or gives no string: ACCESS_TOKEN_UNAVAILABLE, nothing sent', async () => {
    const throwing = clientFor(svc, { accessToken: () => { throw new Error('vault down'); } }).client;
    expect(await failure(throwing.getShipmentInformation('T1'))).toMatchObject({
      code: 'ACCESS_TOKEN_UNAVAILABLE', retryable: true, attempts: 0, description: 'the accessToken function threw; nothing was sent',
    });
    for (const token of ['', 42, undefined]) {
      const empty = clientFor(svc, { accessToken: async () => token as string }).client;
      expect(await failure(empty.getShipmentInformation('T1'))).toMatchObject({
        code: 'ACCESS_TOKEN_UNAVAILABLE', retryable: true, attempts: 0, description: 'the accessToken function returned no string; nothing was sent',
      });
    }
    expect(svc.count()).toBe(0);
  });

  test('a token function that never answers is bounded by timeoutMs: ACCESS_TOKEN_UNAVAILABLE, nothing sent', async () => {
    const hanging = clientFor(svc, { accessToken: () => new Promise<string>(() => {}), timeoutMs: 100 }).client;
    const err = await failure(hanging.getShipmentInformation('T1'));
    expect(err).toMatchObject({ code: 'ACCESS_TOKEN_UNAVAILABLE', retryable: true, attempts: 0 });
    expect(err.description).toMatch(/did not answer within timeoutMs \(100 ms\)/);
    expect(svc.count()).toBe(0);
  });

  test('without accessToken no Authorization header is sent; static headers are', async () => {
    const { client } = clientFor(svc, { accessToken: undefined, headers: { 'x-client': 'shop-7' } });
    await client.getShipmentInformation('T1');
    expect(svc.received[0].headers.authorization).toBeUndefined();
    expect(svc.received[0].headers['x-client']).toBe('shop-7');
  });

  test('an injected fetch is used', async () => {
    const seen: string[] = [];
    const { client } = clientFor(svc, { fetch: async (url, init) => { seen.push(`${init.method} ${url}`); return fetch(url, init); } });
    await client.getShipmentInformation('T1');
    expect(seen).toEqual([`GET ${svc.url}/api/shipments/T1?merchantGUID=${GUID}`]);
  });

  test('a baseUrl with a path prefix keeps it', async () => {
    const { client } = clientFor(svc, { baseUrl: `${svc.url}/gateway/v1/` });
    await client.getShipmentInformation('T1');
    expect(svc.received[0].path).toBe('/gateway/v1/api/shipments/T1');
  });
});
