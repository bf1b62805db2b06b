import { generateKeyPairSync } from 'node:crypto';
import { exportJWK } from 'jose';
import { createCallbackKit, KitError, type CallbackKitOptions } from 'crossborder-merchant-kit';
import { TEST_MERCHANT_GUID } from 'crossborder-merchant-kit/testing';
import { HS_SECRET } from './fixtures.js';
import { rsa, rsaPublicPem } from './rsa-keys.js';

const adapter = { async sendOrderToMerchant() { return {}; }, async updateOrderStatus() {} };
const build = (auth: unknown, extra: object = {}) => () => createCallbackKit({ merchantGuid: TEST_MERCHANT_GUID, adapter, auth, ...extra } as CallbackKitOptions);
const expectKitError = (fn: () => unknown, code: string, message: RegExp) => {
  let caught: unknown;
  try { fn(); } catch (err) { caught = err; }
  expect(caught).toBeInstanceOf(KitError);
  expect((caught as KitError).code).toBe(code);
  expect((caught as KitError).message).toMatch(message);
};
const RS = { publicKey: rsaPublicPem, algorithms: ['RS256'] };

describe('auth option, checked at construction', () => {
  test('a valid configuration of every strategy builds', () => {
    expect(build({
      ipAllowList: ['203.0.113.0/24', '2001:db8::/32', '198.51.100.7'],
      urlParameter: { name: 'key', value: 'k-123456' },
      header: { name: 'X-Callback-Secret', value: ['new-value', 'old-value'] },
      jwt: { ...RS, issuer: 'https://service.example.com', audience: ['a', 'b'], clockTolerance: '30s', maxTokenAge: 600, requiredClaims: ['exp'] },
      perCallback: { getCheckoutCartInfo: { jwt: false, basic: { users: { svc: 'p4ss-word' } } } },
    })).not.toThrow();
  });

  test.each([
    [{ jwks: {} }, /Unknown option auth\.jwks; did you mean "auth\.jwt"\?/],
    [{ ipAllowlist: ['1.2.3.4'] }, /did you mean "auth\.ipAllowList"/],
    [{ jwt: { ...RS, algorithm: ['RS256'] } }, /did you mean "auth\.jwt\.algorithms"/],
    [{ jwt: { ...RS, audiance: 'x' } }, /did you mean "auth\.jwt\.audience"/],
    [{ basic: { user: { a: 'b' } } }, /did you mean "auth\.basic\.users"/],
    [{ perCallback: { getCheckoutCart: {} } }, /did you mean "auth\.perCallback\.getCheckoutCartInfo"/],
    [{ perCallback: { sendOrderToMerchant: { headers: {} } } }, /did you mean "auth\.perCallback\.sendOrderToMerchant\.header"/],
  ])('unknown key %j → did-you-mean', (auth, message) => {
    expectKitError(build(auth), 'ERR_CBK_OPTION_UNKNOWN', message);
  });

  test('a misspelt top-level auth key gets a suggestion', () => {
    expectKitError(build(undefined, { auht: {} }), 'ERR_CBK_OPTION_UNKNOWN', /did you mean "auth"/);
  });

  test('basic and jwt on the same callback are refused; turning one off per callback is allowed', () => {
    const basic = { users: { svc: 'p4ss-word' } };
    expectKitError(build({ basic, jwt: RS }), 'ERR_CBK_OPTION_INVALID', /Option auth sets both basic and jwt .*Authorization header/);
    expectKitError(build({ jwt: RS, perCallback: { updateOrderStatus: { basic } } }), 'ERR_CBK_OPTION_INVALID', /auth\.perCallback\.updateOrderStatus sets both basic and jwt for updateOrderStatus/);
    expect(build({ jwt: RS, perCallback: { updateOrderStatus: { basic, jwt: false } } })).not.toThrow();
  });

  test.each([
    ['algorithms missing', { publicKey: rsaPublicPem }, 'ERR_CBK_OPTION_REQUIRED', /algorithms is required/],
    ["'none' among the algorithms", { publicKey: rsaPublicPem, algorithms: ['RS256', 'none'] }, 'ERR_CBK_OPTION_INVALID', /must not contain 'none'/],
    ['an HS algorithm with a public key', { publicKey: rsaPublicPem, algorithms: ['HS256'] }, 'ERR_CBK_OPTION_INVALID', /"HS256", which does not fit publicKey/],
    ['an RS algorithm with a secret', { secret: HS_SECRET, algorithms: ['RS256'] }, 'ERR_CBK_OPTION_INVALID', /"RS256", which does not fit secret/],
    ['a short secret', { secret: 'short', algorithms: ['HS256'] }, 'ERR_CBK_OPTION_INVALID', /at least 32 bytes/],
    ['a short previous secret', { secret: [HS_SECRET, 'short'], algorithms: ['HS256'] }, 'ERR_CBK_OPTION_INVALID', /at least 32 bytes/],
    ['two key sources', { secret: HS_SECRET, publicKey: rsaPublicPem, algorithms: ['HS256'] }, 'ERR_CBK_OPTION_REQUIRED', /exactly one of .* got secret and publicKey/],
    ['no key source', { algorithms: ['RS256'] }, 'ERR_CBK_OPTION_REQUIRED', /exactly one of secret/],
    ['jwksUrl over plain http to a remote host', { jwksUrl: 'http://keys.example.com/jwks.json', algorithms: ['RS256'] }, 'ERR_CBK_OPTION_INVALID', /must use https/],
    ['an unreadable PEM', { publicKey: '-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----', algorithms: ['RS256'] }, 'ERR_CBK_OPTION_INVALID', /not a readable public key/],
    ['a key that fits none of the algorithms', { publicKey: generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey, algorithms: ['RS256'] }, 'ERR_CBK_OPTION_INVALID', /ec key, which none of algorithms \[RS256\] uses/],
    ['a bad clockTolerance', { ...RS, clockTolerance: 'soon' }, 'ERR_CBK_OPTION_INVALID', /clockTolerance must be a number of seconds/],
  ])('jwt: %s', (_case, jwt, code, message) => {
    expectKitError(build({ jwt }), code, message);
  });

  test('jwt: a private JWK given as publicKey is refused', async () => {
    const jwk = await exportJWK(rsa.privateKey);
    expectKitError(build({ jwt: { publicKey: jwk, algorithms: ['RS256'] } }), 'ERR_CBK_OPTION_INVALID', /private or secret JWK/);
  });

  test.each([
    [[], /non-empty array/],
    [['not-an-ip'], /ipAllowList\[0\] is not a valid IP address/],
    [['1.2.3'], /is not a valid IP address/],
    [['10.0.0.1/8'], /host bits set: "10\.0\.0\.1\/8"; did you mean "10\.0\.0\.0\/8"/],
    [['2001:db8::/129'], /not a valid CIDR range/],
    ['10.0.0.0/8', /non-empty array/],
  ])('ipAllowList %j is refused', (ipAllowList, message) => {
    expectKitError(build({ ipAllowList }), 'ERR_CBK_OPTION_INVALID', message);
  });

  test.each([
    ['header', { name: 'X Secret', value: 'v' }, /header\.name must be an HTTP header name/],
    ['header', { name: 'X-Secret', value: '' }, /header\.value must be a non-empty string/],
    ['header', { name: 'X-Secret', value: [] }, /header\.value must be a non-empty string/],
    ['urlParameter', { name: 'merchantCartToken', value: 'v' }, /not merchantCartToken/],
    ['urlParameter', { name: 'key' }, /urlParameter\.value is required/],
    ['basic', { users: { a: 'b' }, authorizer: () => true }, /exactly one of users .* or authorizer/],
    ['basic', { users: {} }, /non-empty object/],
    ['basic', { users: { svc: '' } }, /users\.svc must be a non-empty string/],
    ['basic', { users: { 'a:b': 'pw' } }, /invalid user name "a:b"/],
    ['basic', { users: { a: 'pw' }, realm: 'say "hi"' }, /realm must be printable ASCII without quotes/],
    ['strategies', [{ name: 'x' }], /strategies\[0\] must implement AuthStrategy/],
    ['strategies', [{ name: 'jwt', authenticate: () => ({ ok: true }) }], /named "jwt", which is taken/],
  ])('%s %j is refused', (key, value, message) => {
    let caught: unknown;
    try { build({ [key]: value })(); } catch (err) { caught = err; }
    expect(caught).toBeInstanceOf(KitError);
    expect(String((caught as Error).message)).toMatch(message);
  });

  test('a custom cartTokenParameter cannot also be the urlParameter secret, at the top level or per callback', () => {
    const mine = { cartTokenParameter: 'cartToken' };
    expectKitError(build({ urlParameter: { name: 'cartToken', value: 'k-123456' } }, mine), 'ERR_CBK_OPTION_INVALID',
      /auth\.urlParameter\.name must be a parameter of your own, not cartToken/);
    expectKitError(build({ perCallback: { getCheckoutCartInfo: { urlParameter: { name: 'cartToken', value: 'k-123456' } } } }, mine),
      'ERR_CBK_OPTION_INVALID', /auth\.perCallback\.getCheckoutCartInfo\.urlParameter\.name must be a parameter of your own, not cartToken/);
    // Another name is fine with it; the name is fine when the cart token travels in another parameter.
    expect(build({ urlParameter: { name: 'key', value: 'k-123456' } }, mine)).not.toThrow();
    expect(build({ urlParameter: { name: 'cartToken', value: 'k-123456' } })).not.toThrow();
  });
});
