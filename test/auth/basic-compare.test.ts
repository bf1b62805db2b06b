/**
 * The Basic strategy compares with express-basic-auth's `safeCompare` (the constant-time compare its
 * own `users` option uses), and compares every user name and every password of every entry: no
 * early exit, no `===`, whichever entry matches.
 */
import { jest } from '@jest/globals';
import { basicAuthHeader } from 'crossborder-merchant-kit/testing';

const real = (await import('express-basic-auth')).default;
const compared: Array<[string, string]> = [];
const spy = (input: string, secret: string) => { compared.push([input, secret]); return real.safeCompare(input, secret); };
jest.unstable_mockModule('express-basic-auth', () => ({ default: Object.assign(() => {}, { safeCompare: spy }), safeCompare: spy }));
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
])('%s: every name and every password compared with express-basic-auth safeCompare', async (_case, user, password, ok) => {
  const outcome = await authenticate(user, password);
  expect(outcome.ok).toBe(ok);
  expect(compared.filter(([input]) => input === user).map(([, secret]) => secret).sort()).toEqual(['auditor', 'ops', 'service']);
  expect(compared.filter(([input]) => input === password).map(([, secret]) => secret).sort())
    .toEqual(['0ld-Passw0rd!', 'aud1t-Passw0rd', 'n3w-Passw0rd!', 'op5-Passw0rd']);
});
