/**
 * The hostile-service suite (hostile-service.test.ts) for the shipping-documents flow and JWT:
 * getShippingDocuments, dispatchOrders, getOrdersDetails, voidParcel and the GetAuthenticationToken call meet a
 * gigabyte answer, a gzip bomb, a drip, a redirect to another host and a service that echoes every
 * credential back; none exhausts memory, outlives timeoutMs, sends a credential elsewhere, or puts
 * the token, the password or the MerchantGUID in an error or a log line.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createServiceClient, type ServiceClient } from 'crossborder-merchant-kit/client';
import { startHostile, type Hostile } from '../helpers/hostile-merchant.js';
import { captureLogger } from '../helpers/recording.js';
import { fakeService, type FakeService } from './fake-service.js';
import { failure, GUID, TOKEN } from './setup.js';

const USER = 'warehouse-api';
const PASSWORD = 'pw-hostile-4711-secret';
const parcel = { ParcelCode: 'P-1', Products: [{ ProductCode: 'SKU0', DeliveryQuantity: 1 }] };
const OPERATIONS: Array<[string, (c: ServiceClient) => Promise<unknown>]> = [
  ['getShippingDocuments', (c) => c.getShippingDocuments({ OrderId: 'GE1', Parcels: [parcel] })],
  ['dispatchOrders', (c) => c.dispatchOrders({ OrderIds: ['GE1'] })],
  ['getOrdersDetails', (c) => c.getOrdersDetails(['GE1'])],
  ['voidParcel', (c) => c.voidParcel({ OrderId: 'GE1', ParcelCode: 'P-1' })],
];

let hostile: Hostile | undefined;
let elsewhere: Hostile | undefined;
let svc: FakeService | undefined;
let bomb: Server | undefined;
afterEach(async () => {
  await hostile?.close(); await elsewhere?.close(); await svc?.close();
  if (bomb) await new Promise<void>((r) => { bomb!.closeAllConnections(); bomb!.close(() => r()); });
  hostile = elsewhere = svc = bomb = undefined;
});

function client(baseUrl: string, extra: object = {}) {
  const log = captureLogger();
  return { log, client: createServiceClient({ baseUrl, merchantGuid: GUID, accessToken: TOKEN, logger: log, retry: { retries: 0 }, timeoutMs: 2000, ...extra }) };
}
const jwt = { jwt: { userName: USER, password: PASSWORD } };

function expectNoSecret(err: unknown, log: ReturnType<typeof captureLogger>, more: string[] = []) {
  const e = err as Error & { description?: string; cause?: unknown };
  const shown = [e.message, e.description, JSON.stringify(e), String(e.stack), String((e.cause as Error | undefined)?.message), JSON.stringify(log.lines)].join('\n');
  for (const secret of [TOKEN, GUID, PASSWORD, ...more]) expect(shown).not.toContain(secret);
}

describe.each(OPERATIONS)('%s', (_name, run) => {
  test('a 1 GB answer: INVALID_RESPONSE at maxResponseBytes, the gigabyte never read', async () => {
    hostile = await startHostile('huge');
    const { client: c, log } = client(hostile.url, { maxResponseBytes: 256 * 1024 });
    const err = await failure(run(c));
    expect(err).toMatchObject({ code: 'INVALID_RESPONSE', attempts: 1 });
    expect(hostile.bytesSent).toBeLessThan(64 * 1024 * 1024);
    expectNoSecret(err, log);
  });

  test('a gzip bomb (100 kB that inflate to 64 MB) is stopped at maxResponseBytes of inflated bytes', async () => {
    const zipped = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    bomb = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(zipped); });
    await new Promise<void>((r) => bomb!.listen(0, '127.0.0.1', r));
    const { client: c, log } = client(`http://127.0.0.1:${(bomb.address() as AddressInfo).port}`, { maxResponseBytes: 1024 * 1024 });
    const err = await failure(run(c));
    expect(err).toMatchObject({ code: 'INVALID_RESPONSE' });
    expect(err.description).toMatch(/larger than maxResponseBytes/);
    expectNoSecret(err, log);
  });

  test('a body dripped a byte at a time ends as TIMEOUT', async () => {
    hostile = await startHostile('drip');
    const { client: c, log } = client(hostile.url, { timeoutMs: 300 });
    expect(await failure(run(c))).toMatchObject({ code: 'TIMEOUT', attempts: 1 });
    expect(log.text()).not.toContain(TOKEN);
  });

  test('a 307 to another host is HTTP_307; the other host sees nothing (neither the JWT nor the GUID)', async () => {
    elsewhere = await startHostile('stack');
    hostile = await startHostile('redirect', { redirectTo: elsewhere.url });
    const { client: c, log } = client(hostile.url);
    const err = await failure(run(c));
    expect(err).toMatchObject({ code: 'HTTP_307', status: 307, retryable: false });
    expect(elsewhere.hits).toBe(0);
    expectNoSecret(err, log);
  });

  test('a service echoing every header and body back: the JWT, password, token and GUID are masked', async () => {
    let jwtSent = '';
    svc = await fakeService((r) => {
      if (r.path === '/Authentication/GetAuthenticationToken') return { status: 200, body: { Token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ3YXJlaG91c2UtYXBpIn0.c2lnbmF0dXJlLWhvc3RpbGU' } };
      jwtSent = String(r.headers.authorization);
      return { status: 400, body: { Code: 'INVALID_REQUEST', Error: `echo ${JSON.stringify(r.headers)} ${r.query.toString()} ${r.body}` } };
    });
    const { client: c, log } = client(svc.url, jwt);
    const err = await failure(run(c));
    expect(err).toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
    expect(jwtSent).toMatch(/^eyJ/);
    expectNoSecret(err, log, [jwtSent]);
    expect(err.description).toContain('[REDACTED]');
  });
});

describe('GetAuthenticationToken (the jwt option)', () => {
  test('redirected: AUTHENTICATION_FAILED (cause HTTP_307); the password never reaches the other host', async () => {
    elsewhere = await startHostile('stack');
    hostile = await startHostile('redirect', { redirectTo: elsewhere.url });
    const { client: c, log } = client(hostile.url, jwt);
    const err = await failure(c.dispatchOrders({ OrderIds: ['GE1'] }));
    expect(err).toMatchObject({ code: 'AUTHENTICATION_FAILED', cause: { code: 'HTTP_307' } });
    expect(elsewhere.hits).toBe(0);
    expect(hostile.hits).toBe(1);
    expectNoSecret(err, log);
  });

  test('a gigabyte token answer: AUTHENTICATION_FAILED (cause INVALID_RESPONSE)', async () => {
    hostile = await startHostile('huge');
    const { client: c, log } = client(hostile.url, { ...jwt, maxResponseBytes: 64 * 1024 });
    const err = await failure(c.getOrdersDetails(['GE1']));
    expect(err).toMatchObject({ code: 'AUTHENTICATION_FAILED', cause: { code: 'INVALID_RESPONSE' } });
    expectNoSecret(err, log);
  });

  test('a token answer that never ends: AUTHENTICATION_FAILED (cause TIMEOUT), nothing else sent', async () => {
    hostile = await startHostile('drip');
    const { client: c } = client(hostile.url, { ...jwt, timeoutMs: 300 });
    expect(await failure(c.getOrdersDetails(['GE1']))).toMatchObject({ code: 'AUTHENTICATION_FAILED', cause: { code: 'TIMEOUT' } });
    expect(hostile.hits).toBe(1);
  });

  test('a service echoing the password back in its refusal: masked', async () => {
    svc = await fakeService((r) => ({ status: 401, body: { Code: 'UNAUTHORIZED', Error: `no user ${USER} with password ${JSON.parse(r.body).Password}` } }));
    const { client: c, log } = client(svc.url, jwt);
    const err = await failure(c.getOrdersDetails(['GE1']));
    expect(err).toMatchObject({ code: 'AUTHENTICATION_FAILED', status: 401 });
    expect(err.description).toContain('[REDACTED]');
    expectNoSecret(err, log);
  });
});
