/**
 * The `auth` option turned into each callback's strategies (lib/auth/index.ts, options.ts, config.ts):
 * the order strategies run in, the secrets every log line masks, custom strategies checked at
 * construction, the one X-Forwarded-For warning per kit, and the header helpers. Written against
 * mutation testing (docs/safety-tests.md, area auth-options).
 */
import { KitError } from 'crossborder-merchant-kit';
import { checkName, single } from '../../lib/auth/config.js';
import { createAuthResolver } from '../../lib/auth/index.js';

const CALLBACKS = ['sendOrderToMerchant', 'updateOrderStatus'];
const custom = (name: string, secrets?: string[]) => ({ name, authenticate: () => ({ ok: true as const }), ...(secrets ? { secrets } : {}) });

function kitError(fn: () => unknown, code: string): string {
  try { fn(); } catch (err) {
    expect(err).toBeInstanceOf(KitError);
    expect((err as KitError).code).toBe(code);
    return (err as KitError).message.replace(` [${code}]`, '');
  }
  throw new Error('no error thrown');
}

describe('the strategies of each callback and the secrets masked', () => {
  test('no auth option: no strategy, no secret', () => {
    const resolver = createAuthResolver(undefined, CALLBACKS);
    expect(resolver('sendOrderToMerchant')).toEqual([]);
    expect(resolver.secrets).toEqual([]);
  });

  test('built-in strategies in their fixed order, then custom ones; a callback the kit does not know has none', () => {
    const resolver = createAuthResolver({
      strategies: [custom('vault')],
      header: { name: 'X-Callback-Secret', value: 'hdr-s3cret-value' },
      ipAllowList: ['127.0.0.1'],
    }, CALLBACKS);
    expect(resolver('sendOrderToMerchant').map((s) => s.name)).toEqual(['ipAllowList', 'header', 'vault']);
    expect(resolver('noSuchCallback')).toEqual([]);
  });

  test('every configured secret is masked, once; strategies without secrets add none; too short to mask is left out', () => {
    const resolver = createAuthResolver({
      ipAllowList: ['127.0.0.1'],
      header: { name: 'X-Callback-Secret', value: ['hdr-new-value', 'hdr-old-value'] },
      strategies: [custom('plain'), custom('vault', ['vault-t0ken', 'ab'])],
      perCallback: { updateOrderStatus: { header: { name: 'X-Callback-Secret', value: 'hdr-new-value' }, strategies: [custom('other')] } },
    }, CALLBACKS);
    expect([...resolver.secrets].sort()).toEqual(['hdr-new-value', 'hdr-old-value', 'vault-t0ken']);
  });

  test('the cart token parameter (merchantCartToken by default) cannot be the urlParameter secret', () => {
    expect(kitError(() => createAuthResolver({ urlParameter: { name: 'merchantCartToken', value: 'k-123456' } }, CALLBACKS), 'ERR_CBK_OPTION_INVALID'))
      .toMatch(/^Option auth\.urlParameter\.name must be a parameter of your own, not merchantCartToken/);
  });

  test('one X-Forwarded-For warning per kit, whichever callback and strategy list sees the header first', async () => {
    const resolver = createAuthResolver({ ipAllowList: ['127.0.0.1'], perCallback: { updateOrderStatus: { ipAllowList: ['127.0.0.1'] } } }, CALLBACKS);
    const warnings: unknown[] = [];
    const log = { warn: (obj: unknown) => warnings.push(obj), error() {}, info() {}, debug() {}, child: () => log };
    const request = { headers: { 'x-forwarded-for': '203.0.113.9' }, remoteAddress: '127.0.0.1' };
    for (const callback of CALLBACKS) {
      for (let i = 0; i < 2; i++) {
        expect(await resolver(callback)[0].authenticate(request as never, { log, callback } as never)).toMatchObject({ ok: true });
      }
    }
    expect(warnings).toEqual([{ code: 'CBK_FORWARDED_UNTRUSTED' }]);
  });
});

describe('custom strategies, checked at construction', () => {
  const build = (strategies: unknown) => () => createAuthResolver({ strategies }, CALLBACKS);

  test('not an array', () => {
    expect(kitError(build(custom('vault')), 'ERR_CBK_OPTION_INVALID'))
      .toBe('Option auth.strategies must be an array of strategies ({ name, authenticate(request, info) })');
  });

  test.each([
    ['null', null],
    ['a number as name', { name: 42, authenticate: () => ({ ok: true }) }],
    ['an empty name', { name: '', authenticate: () => ({ ok: true }) }],
    ['no authenticate', { name: 'vault' }],
  ])('%s is not a strategy', (_case, strategy) => {
    expect(kitError(build([strategy]), 'ERR_CBK_OPTION_INVALID'))
      .toBe('Option auth.strategies[0] must implement AuthStrategy: a non-empty name and an authenticate(request, info) function');
  });

  test.each([
    ['a string', 'vault-t0ken'],
    ['an array with a number', ['vault-t0ken', 42]],
  ])('secrets that is %s is refused', (_case, secrets) => {
    expect(kitError(build([{ ...custom('vault'), secrets }]), 'ERR_CBK_OPTION_INVALID'))
      .toBe('Option auth.strategies[0].secrets must be an array of strings (the values to mask in logs)');
  });

  test('two custom strategies of one name are refused; an empty secrets list is fine', () => {
    expect(kitError(build([custom('vault'), custom('vault')]), 'ERR_CBK_OPTION_INVALID')).toMatch(/^Option auth\.strategies\[1\] is named "vault", which is taken/);
    expect(build([custom('vault', [])])).not.toThrow();
  });
});

describe('header helpers', () => {
  test('single: the one value of a header, undefined when absent, null when sent more than once', () => {
    expect(single('a')).toBe('a');
    expect(single(['a'])).toBe('a');
    expect(single([])).toBeUndefined();
    expect(single(undefined)).toBeUndefined();
    expect(single(['a', 'b'])).toBeNull();
  });

  test('checkName: the name as typed, or an error naming the option', () => {
    expect(checkName('X-Secret', 'auth.header.name', /^[A-Za-z-]+$/, 'an HTTP header name')).toBe('X-Secret');
    for (const bad of ['X Secret', 42, ['X-Secret']]) {
      expect(kitError(() => checkName(bad, 'auth.header.name', /^[A-Za-z-]+$/, 'an HTTP header name'), 'ERR_CBK_OPTION_INVALID'))
        .toBe('Option auth.header.name must be an HTTP header name');
    }
  });
});
