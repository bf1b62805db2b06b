/**
 * The Basic strategy compares with the kit's constant-time compare (both sides hashed, then
 * `timingSafeEqual`), and compares every user name and every password of every entry: no early
 * exit, no `===`, whichever entry matches. It does not use express-basic-auth's `safeCompare`, whose
 * `Buffer.alloc(n, 0, 'utf8')` Cloudflare Workers' node:buffer refuses.
 */
import { jest } from '@jest/globals';
import { basicAuthHeader } from 'crossborder-merchant-kit/testing';

const real = await import('../../lib/shared/compare.js');
const compared: Array<[string, string]> = [];
const spy = (input: unknown, secret: string) => { compared.push([input as string, secret]); return real.safeEqual(input, secret); };
jest.unstable_mockModule('../../lib/shared/compare.js', () => ({ ...real, safeEqual: spy }));
const { createBasicStrategy } = await import('../../lib/auth/basic.js');

const USERS = { service: ['n3w-Passw0rd!', '0ld-Passw0rd!'], auditor: 'aud1t-Passw0rd', ops: 'op5-Passw0rd' };
const log = { child: () => log, error: () => {}, warn: () => {}, info: () => {}, debug: () => {} } as any;
const authenticate = (user: string, password: string) => {
  compared.length = 0;
  return createBasicStrategy({ users: USERS }).authenticate({ headers: { authorization: basicAuthHeader(user, password) } } as any, { log, callback: 'SendOrderToMerchant' });
};

test.each([
  ['the first user, current password', 'service', 'n3w-Passw0rd!', true],
  ['the first user, previous password', 'service', '0ld-Passw0rd!', true],
  ['the last user', 'ops', 'op5-Passw0rd', true],
  ['a wrong password', 'auditor', 'aud1t-Passw0rD', false],
  ['an unknown user', 'nobody', 'op5-Passw0rd', false],
])('%s: every name and every password compared in constant time', async (_case, user, password, ok) => {
  const outcome = await authenticate(user, password);
  expect(outcome.ok).toBe(ok);
  expect(compared.filter(([input]) => input === user).map(([, secret]) => secret).sort()).toEqual(['auditor', 'ops', 'service']);
  expect(compared.filter(([input]) => input === password).map(([, secret]) => secret).sort())
    .toEqual(['0ld-Passw0rd!', 'aud1t-Passw0rd', 'n3w-Passw0rd!', 'op5-Passw0rd']);
});

describe('on a node:buffer whose Buffer.alloc refuses an encoding after a numeric fill (Cloudflare Workers)', () => {
  const alloc = Buffer.alloc;
  beforeEach(() => {
    // workerd's Buffer.alloc(size, 0, 'utf8') throws "The "start" argument must be of type number".
    jest.spyOn(Buffer, 'alloc').mockImplementation(((size: number, fill?: unknown, encoding?: unknown) => {
      if (typeof fill === 'number' && encoding !== undefined) throw new TypeError('The "start" argument must be of type number');
      return alloc(size, fill as any, encoding as any);
    }) as typeof Buffer.alloc);
  });
  afterEach(() => jest.restoreAllMocks());

  test.each([
    ['right credentials are accepted', 'service', 'n3w-Passw0rd!', true],
    ['a wrong password is refused 401, not a crash', 'service', 'wrong-Passw0rd', false],
  ])('%s', async (_case, user, password, ok) => {
    const outcome = await authenticate(user, password);
    expect(outcome.ok).toBe(ok);
    if (!ok) expect(outcome).toMatchObject({ status: 401 });
  });
});
