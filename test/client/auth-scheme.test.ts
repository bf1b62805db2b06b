/**
 * Bearer where the page says Bearer (issue 46, item 4): with the `jwt` option each operation sends the
 * token in its documented form — `Authorization: Bearer {JWT}` on the address change (docs.global-e.com
 * "Updating an Order's Shipping Address via API"), the token alone on the others (the service's own
 * cartridge) — and `jwt.authorizationScheme` overrides all. The page's deprecated `Merchant-Guid`
 * header goes only when no credential authenticates the call. The sandbox refuses a JWT on the
 * address change in any other form.
 */
import { SignJWT } from 'jose';
import { createServiceClient, type ServiceClientOptions } from 'crossborder-merchant-kit/client';
import { createSandbox, SANDBOX_JWT_PASSWORD, SANDBOX_JWT_USER, SANDBOX_MERCHANT_GUID, type Sandbox } from '../../lib/tools/sandbox/index.js';
import { fakeService, type FakeService } from './fake-service.js';
import { failure, GUID } from './setup.js';

const TOKEN_PATH = '/Authentication/GetAuthenticationToken';
const ADDRESS = '/api/v1/orders/shipping-address';
const HUB = '/Browsing/ActiveHubDetails';
const change = { orderId: 'GE1', primaryShipping: { city: 'Haifa' } };
const key = new TextEncoder().encode('a-test-signing-key-of-32-bytes!!');

describe('the form of each operation', () => {
  let svc: FakeService;
  let token: string;
  beforeEach(async () => {
    token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(Math.floor(Date.now() / 1000) + 3600).sign(key);
    svc = await fakeService((r) => (r.path === TOKEN_PATH ? { status: 200, body: { Token: token } } : r.path === ADDRESS ? { status: 202 } : { status: 200, body: { HubId: 1 } }));
  });
  afterEach(() => svc.close());
  const client = (jwt: Partial<NonNullable<ServiceClientOptions['jwt']>> = {}, extra: Partial<ServiceClientOptions> = {}) => createServiceClient({
    baseUrl: svc.url, merchantGuid: GUID, retry: { retries: 0 }, jwt: { userName: 'api', password: 'pw-secret-123456', ...jwt }, ...extra,
  });
  const sent = (path: string) => svc.received.find((r) => r.path === path)!.headers;

  test('by default: Bearer on the address change (its page), the token alone elsewhere (the cartridge); no Merchant-Guid with a JWT', async () => {
    const c = client();
    await c.updateShippingAddress(change);
    await c.getActiveHubDetails();
    expect(sent(ADDRESS).authorization).toBe(`Bearer ${token}`);
    expect(sent(ADDRESS)['merchant-guid']).toBeUndefined();
    expect(sent(HUB).authorization).toBe(token);
  });

  test.each<['raw' | 'Bearer', string, string]>([
    ['raw', 'the token alone', ''],
    ['Bearer', 'Bearer', 'Bearer '],
  ])('authorizationScheme %s overrides every operation (%s)', async (scheme, _what, prefix) => {
    const c = client({ authorizationScheme: scheme });
    await c.updateShippingAddress(change);
    await c.getActiveHubDetails();
    expect([sent(ADDRESS).authorization, sent(HUB).authorization]).toEqual([`${prefix}${token}`, `${prefix}${token}`]);
  });

  test('a JWT for other operations only: the address change goes with the deprecated Merchant-Guid header and no Authorization', async () => {
    await client({ operations: ['getActiveHubDetails'] }).updateShippingAddress(change);
    expect(sent(ADDRESS)['merchant-guid']).toBe(GUID);
    expect(sent(ADDRESS).authorization).toBeUndefined();
  });
});

describe('the sandbox reads the address change\'s documented form only', () => {
  let sandbox: Sandbox;
  let url: string;
  beforeEach(async () => {
    sandbox = createSandbox({ port: 0, console: false, accessToken: 'a-token-the-client-does-not-have' });
    url = await sandbox.listen();
  });
  afterEach(() => sandbox.close());
  const client = (authorizationScheme?: 'raw' | 'Bearer') => createServiceClient({
    baseUrl: url, merchantGuid: SANDBOX_MERCHANT_GUID, retry: { retries: 0 },
    jwt: { userName: SANDBOX_JWT_USER, password: SANDBOX_JWT_PASSWORD, ...(authorizationScheme ? { authorizationScheme } : {}) },
  });
  const address = { orderId: 'GE100000005SB', primaryShipping: { city: 'Haifa' } };

  test('the client\'s default (Bearer) is accepted; the raw token on the address change is refused 401, the order unchanged', async () => {
    expect(await failure(client('raw').updateShippingAddress(address))).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(sandbox.orders.get('GE100000005SB')!.shippingAddress).toBeUndefined();
    expect(await client().updateShippingAddress(address)).toMatchObject({ accepted: true, status: 202 });
    expect(sandbox.orders.get('GE100000005SB')!.shippingAddress).toMatchObject({ city: 'Haifa' });
  });

  test('the other operations keep reading the cartridge\'s raw token (and Bearer)', async () => {
    for (const scheme of [undefined, 'Bearer'] as const) expect(await client(scheme).getActiveHubDetails()).toMatchObject({ HubId: 2 });
  });
});
