/**
 * The hostile-service suite for the operations of issue 50 (browsing data, catalogue, tracking
 * events, UpdateRMA, the commercial invoice, SendCartV2, AppVersion, ProductCountryS, LocationsDefaultCulturesList): each is bounded by maxResponseBytes and timeoutMs, never follows a redirect,
 * is resent only when it is a read, and no error or log line carries the token or the MerchantGUID —
 * even when the service echoes them back.
 */
import { createServiceClient, type ServiceClient } from 'crossborder-merchant-kit/client';
import { startHostile, type Hostile } from '../helpers/hostile-merchant.js';
import { captureLogger } from '../helpers/recording.js';
import { fakeService, type FakeService } from './fake-service.js';
import { failure, GUID, TOKEN } from './setup.js';

let hostile: Hostile | undefined;
let svc: FakeService | undefined;
afterEach(async () => { await hostile?.close(); await svc?.close(); hostile = svc = undefined; });

const client = (baseUrl: string, extra: object = {}) => {
  const log = captureLogger();
  return { log, client: createServiceClient({ baseUrl, merchantGuid: GUID, accessToken: TOKEN, logger: log, retry: { retries: 2, minDelayMs: 1, maxDelayMs: 20 }, timeoutMs: 2000, ...extra }) };
};
function expectNoSecret(err: unknown, log: ReturnType<typeof captureLogger>) {
  const e = err as Error & { description?: string };
  const shown = [e.message, e.description, JSON.stringify(e), String(e.stack), JSON.stringify(log.lines)].join('\n');
  expect(shown).not.toContain(TOKEN);
  expect(shown.toLowerCase()).not.toContain(GUID.toLowerCase());
}

type Op = [name: string, call: (c: ServiceClient) => Promise<unknown>, read: boolean];
const PRODUCT = { ProductCode: 'SKU-1', Name: 'Boot' };
const OPS: Op[] = [
  ['getAppSettings', (c) => c.getAppSettings(), true],
  ['getCountries', (c) => c.getCountries(), true],
  ['getCurrencies', (c) => c.getCurrencies(), true],
  ['getCurrencyRates', (c) => c.getCurrencyRates(), true],
  ['getCountryCoefficients', (c) => c.getCountryCoefficients(), true],
  ['getRoundingRules', (c) => c.getRoundingRules(), true],
  ['getLocationByIp', (c) => c.getLocationByIp('203.0.113.7'), true],
  ['getProductRestrictions', (c) => c.getProductRestrictions(), true],
  ['getDefaultCulture', (c) => c.getDefaultCulture('DE'), true],
  ['getShippingDetails', (c) => c.getShippingDetails({ currencyCode: 'USD', amount: 50 }), true],
  ['saveProductsList', (c) => c.saveProductsList([PRODUCT]).then((r) => { const b = r.batches[0]; if (!b.ok) throw b.error; return r; }), true],
  ['saveProductsBulk', (c) => c.saveProductsBulk([PRODUCT]).then((r) => { const b = r.batches[0]; if (!b.ok) throw b.error; return r; }), true],
  ['getCatalogPrices', (c) => c.getCatalogPrices({ products: [{ ProductCode: 'SKU-1', OriginalSalePrice: 10 }], countryCodes: ['DE'] }), true],
  ['getTrackingEvents', (c) => c.getTrackingEvents({ type: 'inbound', orderIds: ['GE1'] }), true],
  ['updateRma', (c) => c.updateRma({ OrderId: 'GE1' }), false],
  ['getOrdersVatInvoice', (c) => c.getOrdersVatInvoice(['GE1', 'GE2']), true],
  ['sendCartV2', (c) => c.sendCartV2({ CountryCode: 'DE', Products: [{ ProductCode: 'SKU-1' }] }), true],
  ['getAppVersion', (c) => c.getAppVersion(), true],
  ['getProductCountries', (c) => c.getProductCountries({ productCodes: ['SKU-1'], countryCode: 'DE' }), true],
  ['getDefaultCultures', (c) => c.getDefaultCultures(), true],
];

describe.each(OPS)('%s', (name, call, read) => {
  test('an endless answer is read up to maxResponseBytes: INVALID_RESPONSE, no secret shown', async () => {
    hostile = await startHostile('huge');
    const { client: c, log } = client(hostile.url, { maxResponseBytes: 64 * 1024, retry: { retries: 0 } });
    const err = await failure(call(c));
    expect(err).toMatchObject({ code: 'INVALID_RESPONSE', operation: name });
    expect(err.description).toMatch(/larger than maxResponseBytes/);
    expectNoSecret(err, log);
  });

  test('a body dripped a byte at a time ends as TIMEOUT at timeoutMs', async () => {
    hostile = await startHostile('drip');
    const { client: c, log } = client(hostile.url, { timeoutMs: 200, retry: { retries: 0 } });
    expect(await failure(call(c))).toMatchObject({ code: 'TIMEOUT', operation: name });
    expectNoSecret(await failure(call(c)), log);
  });

  test('a redirect is not followed (the token stays on the configured host)', async () => {
    svc = await fakeService(() => ({ status: 302, headers: { location: 'http://127.0.0.1:9/steal' } }));
    const { client: c } = client(svc.url, { retry: { retries: 0 } });
    expect(await failure(call(c))).toMatchObject({ code: 'HTTP_302' });
    expect(svc.count()).toBe(1);
  });

  test(read ? 'a 503 is resent (a read)' : 'a 503 is not resent (a write of unknown effect)', async () => {
    svc = await fakeService(() => ({ status: 503, body: { Code: 'UNAVAILABLE', Error: 'busy' } }));
    const { client: c } = client(svc.url);
    expect(await failure(call(c))).toMatchObject({ status: 503 });
    expect(svc.count()).toBe(read ? 3 : 1);
  });

  test('the service echoing the token and the MerchantGUID in its error: both masked', async () => {
    svc = await fakeService(() => ({ status: 400, body: { Code: `E-${TOKEN}`, Error: `bad token ${TOKEN} for merchant ${GUID.toUpperCase()}` } }));
    const { client: c, log } = client(svc.url);
    const err = await failure(call(c));
    expect(err.status).toBe(400);
    expectNoSecret(err, log);
  });
});
