import { ServiceError } from 'crossborder-merchant-kit/client';
import { fakeService, refusingUrl, type FakeService } from './fake-service.js';
import { clientFor, failure, fixture, GUID, TOKEN } from './setup.js';

let svc: FakeService;
beforeEach(async () => { svc = await fakeService(() => ({ status: 200, body: fixture('shipment-information'), headers: { 'cache-control': 'no-store' } })); });
afterEach(() => svc.close());

const PATH = '/api/shipments/1Z999AA10123456784';

describe('getShipmentInformation', () => {
  test('GET {baseUrl}/api/shipments/{trackingNumber} with the MerchantGUID as header and query parameter and the bearer token', async () => {
    const { client } = clientFor(svc);
    const info = await client.getShipmentInformation('1Z999AA10123456784');
    expect(info).toEqual(fixture('shipment-information'));
    expect(svc.received).toHaveLength(1);
    const r = svc.received[0];
    expect(r).toMatchObject({ method: 'GET', path: PATH, body: '' });
    expect(r.query.get('merchantGUID')).toBe(GUID);
    expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(r.headers.accept).toBe('application/json');
    expect(r.headers.merchantguid).toBe(GUID);
  });

  test('the tracking number is one percent-encoded path segment', async () => {
    const { client } = clientFor(svc);
    await client.getShipmentInformation('A/B ?#%ä');
    expect(svc.received[0].path).toBe('/api/shipments/A%2FB%20%3F%23%25%C3%A4');
  });

  test('never cached: two calls make two requests', async () => {
    const { client } = clientFor(svc);
    await client.getShipmentInformation('1Z999AA10123456784');
    await client.getShipmentInformation('1Z999AA10123456784');
    expect(svc.count(PATH)).toBe(2);
  });

  test.each([
    ['empty', ''], ['blank', '   '], ['51 characters', 'X'.repeat(51)], ['not a string', 42 as never],
  ])('a tracking number that is %s is INVALID_ARGUMENT and sends nothing', async (_name, tn) => {
    const { client } = clientFor(svc);
    const err = await failure(client.getShipmentInformation(tn));
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({ name: 'ServiceError', code: 'INVALID_ARGUMENT', status: undefined, retryable: false, operation: 'getShipmentInformation', attempts: 0 });
    expect(svc.count()).toBe(0);
  });

  test('50 characters are fine', async () => {
    const { client } = clientFor(svc);
    await client.getShipmentInformation('X'.repeat(50));
    expect(svc.count()).toBe(1);
  });

  test.each([
    ['a810', 400, 'A810', false, 1],
    ['invalid-request', 400, 'INVALID_REQUEST', false, 1],
    ['unauthorized', 401, 'UNAUTHORIZED', false, 1],
    ['forbidden', 403, 'FORBIDDEN', false, 1],
    ['shipment-configuration-incomplete', 409, 'SHIPMENT_CONFIGURATION_INCOMPLETE', false, 1],
    ['internal-error', 500, 'INTERNAL_ERROR', true, 3],
  ])('error %s: HTTP %i gives code %s, retryable %s, after %i request(s) counted by the service', async (file, status, code, retryable, requests) => {
    const body = fixture(`errors/${file}`);
    svc.answer(() => ({ status, body }));
    const { client } = clientFor(svc);
    const err = await failure(client.getShipmentInformation('1Z999AA10123456784'));
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({ code, status, retryable, operation: 'getShipmentInformation', attempts: requests });
    expect(err.description).toContain(body.Description ?? body.Error);
    expect(svc.count(PATH)).toBe(requests);
  });

  test('409 says it is a permanent configuration gap and is never retried', async () => {
    svc.answer(() => ({ status: 409, body: fixture('errors/shipment-configuration-incomplete') }));
    const { client } = clientFor(svc, { retry: { retries: 5, minDelayMs: 1, maxDelayMs: 5 } });
    const err = await failure(client.getShipmentInformation('1Z999AA10123456784'));
    expect(err.description).toMatch(/permanent configuration gap: do not retry, contact the service operator/);
    expect(svc.count()).toBe(1);
  });

  test('a 500 followed by a 200 succeeds on the retry', async () => {
    svc.answer((_r, nth) => (nth === 1 ? { status: 500, body: fixture('errors/internal-error') } : { status: 200, body: fixture('shipment-information') }));
    const { client } = clientFor(svc);
    expect((await client.getShipmentInformation('1Z999AA10123456784')).shipment.trackingNumber).toBe('1Z999AA10123456784');
    expect(svc.count(PATH)).toBe(2);
  });

  test('retries: 0 sends once', async () => {
    svc.answer(() => ({ status: 500, body: fixture('errors/internal-error') }));
    const { client } = clientFor(svc, { retry: { retries: 0 } });
    expect(await failure(client.getShipmentInformation('T1'))).toMatchObject({ code: 'INTERNAL_ERROR', attempts: 1 });
    expect(svc.count()).toBe(1);
  });

  test('an error body that is not JSON still gives a ServiceError: HTTP_<status>', async () => {
    svc.answer(() => ({ status: 502, body: '<html>Bad gateway</html>', headers: { 'content-type': 'text/html' } }));
    const { client } = clientFor(svc);
    const err = await failure(client.getShipmentInformation('T1'));
    expect(err).toMatchObject({ code: 'HTTP_502', status: 502, retryable: true, attempts: 3 });
    svc.answer(() => ({ status: 404, body: '' }));
    expect(await failure(client.getShipmentInformation('T1'))).toMatchObject({ code: 'HTTP_404', status: 404, retryable: false });
  });

  test('a 200 without exportDeclaration is INVALID_RESPONSE: never partial declaration data', async () => {
    const { exportDeclaration: _, ...partial } = fixture('shipment-information');
    svc.answer(() => ({ status: 200, body: partial }));
    const { client } = clientFor(svc);
    const err = await failure(client.getShipmentInformation('T1'));
    expect(err).toMatchObject({ code: 'INVALID_RESPONSE', status: 200, retryable: false });
    expect(err.description).toMatch(/exportDeclaration/);
    expect(svc.count()).toBe(1);
  });

  test('a 200 that breaks the schema deeper down, or is not JSON, is INVALID_RESPONSE without echoing values', async () => {
    const bad = fixture('shipment-information');
    bad.shipment.parcels[0].products[0].quantity = 0;
    bad.exportDeclaration.exporter.name = 'Secret Exporter GmbH';
    svc.answer(() => ({ status: 200, body: bad }));
    const { client } = clientFor(svc);
    const err = await failure(client.getShipmentInformation('T1'));
    expect(err.code).toBe('INVALID_RESPONSE');
    expect(err.description).toContain('/shipment/parcels/0/products/0/quantity');
    expect(err.message).not.toContain('Secret Exporter');
    svc.answer(() => ({ status: 200, body: 'not json' }));
    expect(await failure(client.getShipmentInformation('T1'))).toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  test('a timeout per attempt is TIMEOUT (retryable); a read is retried after one', async () => {
    svc.answer(() => ({ status: 200, body: fixture('shipment-information'), delayMs: 1000 }));
    const { client } = clientFor(svc, { timeoutMs: 50, retry: { retries: 1, minDelayMs: 1, maxDelayMs: 5 } });
    const err = await failure(client.getShipmentInformation('T1'));
    expect(err).toMatchObject({ code: 'TIMEOUT', status: undefined, retryable: true, attempts: 2 });
    expect(svc.count()).toBe(2);
  });

  test('a slow answer followed by a fast one succeeds', async () => {
    svc.answer((_r, nth) => ({ status: 200, body: fixture('shipment-information'), delayMs: nth === 1 ? 1000 : 0 }));
    const { client } = clientFor(svc, { timeoutMs: 100 });
    await client.getShipmentInformation('T1');
    expect(svc.count()).toBe(2);
  });

  test('Retry-After is honoured: the retry waits at least as long as the service asked', async () => {
    svc.answer((_r, nth) => (nth === 1 ? { status: 503, body: '', headers: { 'retry-after': '1' } } : { status: 200, body: fixture('shipment-information') }));
    const { client } = clientFor(svc, { retry: { retries: 2, minDelayMs: 1, maxDelayMs: 2000 } });
    await client.getShipmentInformation('T1');
    expect(svc.count()).toBe(2);
    expect(svc.received[1].at - svc.received[0].at).toBeGreaterThanOrEqual(990);
  });

  test('a Retry-After longer than retry.maxDelayMs ends the retries; the error carries it', async () => {
    svc.answer(() => ({ status: 429, body: '', headers: { 'retry-after': '120' } }));
    const { client } = clientFor(svc);
    const err = await failure(client.getShipmentInformation('T1'));
    expect(err).toMatchObject({ code: 'HTTP_429', retryable: true, retryAfterMs: 120_000, attempts: 1 });
    expect(svc.count()).toBe(1);
    svc.answer(() => ({ status: 503, body: '', headers: { 'retry-after': new Date(Date.now() + 3_600_000).toUTCString() } }));
    const dated = await failure(client.getShipmentInformation('T1'));
    expect(dated.retryAfterMs).toBeGreaterThan(3_000_000);
    expect(svc.count()).toBe(2);
  });

  test('a refused connection is NETWORK (retryable) and is retried', async () => {
    const { client, log } = clientFor({ url: await refusingUrl() } as FakeService);
    const err = await failure(client.getShipmentInformation('T1'));
    expect(err).toMatchObject({ code: 'NETWORK', status: undefined, retryable: true, attempts: 3 });
    expect(err.description).toMatch(/ECONNREFUSED/);
    expect(log.lines.filter((l) => l.msg === 'service call failed')).toHaveLength(3);
  });

  test('a dropped connection is NETWORK; a read is retried (counted by the service)', async () => {
    svc.answer(() => ({ destroy: true }));
    const { client } = clientFor(svc);
    expect(await failure(client.getShipmentInformation('T1'))).toMatchObject({ code: 'NETWORK', attempts: 3 });
    expect(svc.count()).toBe(3);
  });
});
