/**
 * The HTTP Basic strategy on its own (lib/auth/basic.ts), as the merchant sees it: the option errors
 * at construction (code, and the message naming the option), which Authorization headers are Basic
 * credentials, the refusal reason the log shows, and what an authorizer is given and what it gets
 * logged. Written against mutation testing (docs/safety-tests.md, area auth-basic).
 */
import { createBasicStrategy, KitError, type BasicAuthOptions } from 'crossborder-merchant-kit';
import { basicAuthHeader } from 'crossborder-merchant-kit/testing';

interface Line { bindings: object; secrets: unknown; obj: Record<string, unknown>; msg: string }
function recordingLog() {
  const lines: Line[] = [];
  const child = (bindings: object, secrets?: unknown) => ({
    child, error: (obj: Record<string, unknown>, msg: string) => { lines.push({ bindings, secrets, obj, msg }); },
    warn: () => {}, info: () => {}, debug: () => {},
  });
  return { lines, log: child({}) };
}

const authenticate = (options: BasicAuthOptions, authorization: string | string[] | undefined) => {
  const { log, lines } = recordingLog();
  const outcome = createBasicStrategy(options).authenticate(
    { headers: authorization === undefined ? {} : { authorization } } as never, { log, callback: 'SendOrderToMerchant' } as never);
  return { outcome, lines };
};
const USERS = { users: { svc: 'p4ss-word' } };
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** The KitError thrown; `message` without the ` [code]` the kit appends (checked here). */
function kitError(fn: () => unknown): { code: string; message: string } {
  try { fn(); } catch (err) {
    expect(err).toBeInstanceOf(KitError);
    const { code, message } = err as KitError;
    expect(message.endsWith(` [${code}]`)).toBe(true);
    return { code, message: message.slice(0, -` [${code}]`.length) };
  }
  throw new Error('no error thrown');
}

describe('options, checked when the strategy is built', () => {
  test('exactly one of users or authorizer, the option named (auth.basic by default)', () => {
    for (const o of [{}, { users: { a: 'b' }, authorizer: () => true }]) {
      const e = kitError(() => createBasicStrategy(o as never));
      expect(e.code).toBe('ERR_CBK_OPTION_REQUIRED');
      expect(e.message).toBe('Option auth.basic needs exactly one of users ({ name: password }) or authorizer (a function)');
    }
    expect(kitError(() => createBasicStrategy({}, 'auth.perCallback.x.basic')).message).toMatch(/^Option auth\.perCallback\.x\.basic needs exactly one/);
  });

  test.each([
    ['not a string', 42],
    ['empty', ''],
    ['a quote', 'say "hi"'],
    ['a backslash', 'a\\b'],
    ['a line break (header injection)', 'shop\r\nSet-Cookie: x=1'],
    ['a non-ASCII first character', 'école'],
    ['a non-ASCII last character', 'café'],
  ])('a realm with %s is refused', (_case, realm) => {
    const e = kitError(() => createBasicStrategy({ ...USERS, realm } as never));
    expect(e.code).toBe('ERR_CBK_OPTION_INVALID');
    expect(e.message).toBe('Option auth.basic.realm must be printable ASCII without quotes or backslashes');
  });

  test.each([
    ['an array', ['svc:pw'], 'Option auth.basic.users must be a non-empty object { name: password }'],
    ['a string', 'svc:pw', 'Option auth.basic.users must be a non-empty object { name: password }'],
    ['empty', {}, 'Option auth.basic.users must be a non-empty object { name: password }'],
    ['an empty user name', { '': 'pw' }, 'Option auth.basic.users has an invalid user name "" (non-empty, no colon)'],
    ['a user name with a colon', { 'a:b': 'pw' }, 'Option auth.basic.users has an invalid user name "a:b" (non-empty, no colon)'],
  ])('users that is %s is refused, the message naming it', (_case, users, message) => {
    const e = kitError(() => createBasicStrategy({ users } as never));
    expect(e.code).toBe('ERR_CBK_OPTION_INVALID');
    expect(e.message).toBe(message);
  });

  test('an empty password names the user it belongs to', () => {
    expect(kitError(() => createBasicStrategy({ users: { svc: '' } })).message).toMatch(/^Option auth\.basic\.users\.svc must be a non-empty string/);
  });

  test('an authorizer that is not a function is refused', () => {
    const e = kitError(() => createBasicStrategy({ authorizer: 'yes' } as never));
    expect(e.code).toBe('ERR_CBK_OPTION_INVALID');
    expect(e.message).toBe('Option auth.basic.authorizer must be a function (user, password) => boolean | Promise<boolean>');
  });
});

describe('which Authorization headers are Basic credentials', () => {
  test.each([
    ['the scheme in any case', `bAsIc ${b64('svc:p4ss-word')}`],
    ['several spaces around the credentials', `  Basic   ${b64('svc:p4ss-word')}  `],
  ])('accepted: %s', async (_case, header) => {
    expect((await authenticate(USERS, header).outcome)).toEqual({ ok: true, data: { user: 'svc' } });
  });

  test.each([
    ['a word before the scheme', `XBasic ${b64('svc:p4ss-word')}`],
    ['text after the credentials', `Basic ${b64('svc:p4ss-word')} extra`],
    ['no colon in the credentials', `Basic ${b64('svcp4ss-word')}`],
    ['the header sent twice', [basicAuthHeader('svc', 'p4ss-word'), basicAuthHeader('svc', 'p4ss-word')]],
  ])('refused as not Basic credentials: %s', async (_case, header) => {
    expect(await authenticate(USERS, header).outcome).toMatchObject({ ok: false, status: 401, reason: 'Authorization header is not Basic credentials' });
  });

  test('a missing header is named so', async () => {
    expect(await authenticate(USERS, undefined).outcome).toMatchObject({ ok: false, status: 401, reason: 'Authorization header missing' });
  });

  test.each([
    ['an empty user', ':p4ss-word'],
    ['an empty password', 'svc:'],
  ])('%s is refused before any compare', async (_case, pair) => {
    expect(await authenticate(USERS, `Basic ${b64(pair)}`).outcome).toMatchObject({ ok: false, reason: 'empty user or password' });
  });

  test('a password that does not match is named so; a password may contain colons', async () => {
    expect(await authenticate(USERS, basicAuthHeader('svc', 'wrong')).outcome).toMatchObject({ ok: false, reason: 'user or password does not match' });
    expect(await authenticate({ users: { svc: 'a:b:c' } }, `Basic ${b64('svc:a:b:c')}`).outcome).toEqual({ ok: true, data: { user: 'svc' } });
  });
});

describe('an authorizer', () => {
  test('is given the user, the password and the callback; its true accepts the user', async () => {
    const seen: unknown[] = [];
    const { outcome } = authenticate({ authorizer: (...args) => { seen.push(args); return true; } }, basicAuthHeader('svc', 'vault-pw'));
    expect(await outcome).toEqual({ ok: true, data: { user: 'svc' } });
    expect(seen).toEqual([['svc', 'vault-pw', { callback: 'SendOrderToMerchant' }]]);
  });

  test('is not asked about an empty user or password', async () => {
    let asked = 0;
    const authorizer = () => { asked++; return true; };
    expect(await authenticate({ authorizer }, `Basic ${b64(':vault-pw')}`).outcome).toMatchObject({ ok: false, reason: 'empty user or password' });
    expect(await authenticate({ authorizer }, `Basic ${b64('svc:')}`).outcome).toMatchObject({ ok: false, reason: 'empty user or password' });
    expect(asked).toBe(0);
  });

  test('its false refuses, named so', async () => {
    expect(await authenticate({ authorizer: async () => false }, basicAuthHeader('svc', 'vault-pw')).outcome)
      .toMatchObject({ ok: false, status: 401, reason: 'authorizer refused the credentials' });
  });

  test('one that throws refuses; the error is logged with the user and password given to the log to mask', async () => {
    const failure = new Error('vault down');
    const { outcome, lines } = authenticate({ authorizer: () => { throw failure; } }, basicAuthHeader('svc', 'vault-pw'));
    expect(await outcome).toMatchObject({ ok: false, status: 401, reason: 'authorizer threw' });
    expect(lines).toEqual([{ bindings: {}, secrets: ['vault-pw', 'svc'], obj: { err: failure }, msg: 'basic auth authorizer threw; the request is refused' }]);
  });
});
