import request from 'supertest';
import { createIpAllowListStrategy, type CallbackRequest } from 'crossborder-merchant-kit';
import { buildOrder } from 'crossborder-merchant-kit/testing';
import { BINDINGS } from '../helpers/bindings.js';
import { createSafeLogger } from '../../lib/shared/logger.js';
import { captureLogger } from '../helpers/recording.js';
import { TRUSTING, expectAccepted, expectRefused, refusalReason, setup } from './fixtures.js';

const post = (app: any, forwardedFor?: string) => {
  const r = request(app).post('/cb/SendOrderToMerchant');
  if (forwardedFor !== undefined) r.set('X-Forwarded-For', forwardedFor);
  return r.send(buildOrder());
};
const warnings = (s: ReturnType<typeof setup>) => s.logger.lines.filter((l) => l.obj.code === 'CBK_FORWARDED_UNTRUSTED');

describe.each(BINDINGS)('%s: IP allow-list, trust proxy off (the peer is loopback)', (_name, mount) => {
  test('a loopback peer inside the list is accepted (IPv4 rule; the peer may arrive as ::ffff:127.0.0.1)', async () => {
    const s = setup({ ipAllowList: ['127.0.0.1', '::1'] });
    expectAccepted(await post(mount(s.options)), s);
    expect(s.adapter.calls[0].context.remoteAddress).toMatch(/^(::ffff:127\.0\.0\.1|127\.0\.0\.1|::1)$/);
  });

  test('a peer outside the list gets 403 and the reason goes to the log only', async () => {
    const s = setup({ ipAllowList: ['203.0.113.0/24', '2001:db8::/32'] });
    expectRefused(await post(mount(s.options)), s, 403);
    expect(refusalReason(s)).toMatch(/^auth strategy ipAllowList refused: client address .* is not in the allow-list/);
  });

  test('X-Forwarded-For spoofing an allowed address is refused, with one warning per router', async () => {
    const s = setup({ ipAllowList: ['203.0.113.0/24'] });
    const app = mount(s.options);
    expectRefused(await post(app, '203.0.113.5'), s, 403);
    expect((await post(app, '203.0.113.6')).status).toBe(403);
    // On Lambda the address is API Gateway's sourceIp (never a header) and API Gateway always adds
    // X-Forwarded-For: nothing to configure, so nothing to warn about.
    if (_name === 'lambda') return expect(warnings(s)).toHaveLength(0);
    expect(warnings(s)).toHaveLength(1);
    expect(warnings(s)[0].level).toBe('warn');
    expect(warnings(s)[0].msg).toMatch(/trust proxy is off/);
  });
});

describe.each(TRUSTING)('%s: IP allow-list, trust proxy on (client from X-Forwarded-For)', (_name, mount) => {
  test.each([
    ['the last address of a /25', '203.0.113.127', 200],
    ['the address just outside the /25', '203.0.113.128', 403],
    ['the address just before the /25', '203.0.112.255', 403],
    ['an exact single-address rule', '198.51.100.7', 200],
    ['the neighbour of a single-address rule', '198.51.100.8', 403],
    ['an IPv4-mapped IPv6 address of an IPv4 rule', '::ffff:198.51.100.7', 200],
    ['an IPv6 address inside the /32', '2001:db8:ffff::1', 200],
    ['an IPv6 address just outside the /32', '2001:db9::', 403],
    ['not an address', 'not-an-ip', 403],
  ])('%s (%s) → %d', async (_case, address, status) => {
    const s = setup({ ipAllowList: ['203.0.113.0/25', '198.51.100.7', '2001:db8::/32'] });
    const res = await post(mount(s.options), address);
    if (status === 200) expectAccepted(res, s);
    else expectRefused(res, s, 403);
    expect(warnings(s)).toHaveLength(0);
  });
});

describe('ipAllowList strategy on its own', () => {
  const check = async (rules: string[], remoteAddress: string | undefined) => {
    const strategy = createIpAllowListStrategy(rules);
    const req: CallbackRequest = { method: 'POST', path: '/', headers: {}, query: {}, remoteAddress };
    return strategy.authenticate(req, { log: createSafeLogger(captureLogger()), callback: 'sendOrderToMerchant' });
  };

  test.each([
    [['10.0.0.0/8'], '::ffff:10.200.3.4', true],
    [['::ffff:10.0.0.0/104'], '10.1.2.3', true],
    [['::ffff:10.0.0.0/104'], '11.0.0.0', false],
    [['fe80::/10'], 'fe80::1%eth0', true],
    [['0.0.0.0/0'], '::1', false],
    [['::/0'], '127.0.0.1', false],
    [['127.0.0.1'], undefined, false],
    [['127.0.0.1'], '', false],
    [['127.0.0.1'], '127.1', false],
    [['127.0.0.1'], '::ffff:127.0.0.1', true],
  ])('rules %j, client %s → %s', async (rules, address, ok) => {
    const outcome = await check(rules, address);
    expect(outcome.ok).toBe(ok);
    if (!outcome.ok) expect(outcome.status).toBe(403);
  });
});

describe('ipAllowList strategy on its own: construction, reasons and the X-Forwarded-For warning', () => {
  const request = (remoteAddress: string | undefined, headers: CallbackRequest['headers'] = {}, trustProxy?: boolean): CallbackRequest =>
    ({ method: 'POST', path: '/', headers, query: {}, remoteAddress, ...(trustProxy === undefined ? {} : { trustProxy }) });
  const run = (strategy: ReturnType<typeof createIpAllowListStrategy>, req: CallbackRequest) => {
    const logger = captureLogger();
    const outcome = strategy.authenticate(req, { log: createSafeLogger(logger), callback: 'sendOrderToMerchant' });
    return { outcome, logger };
  };

  test.each([
    [[], /^Option auth\.ipAllowList must be a non-empty array of addresses or CIDR ranges/],
    ['203.0.113.0/24', /^Option auth\.ipAllowList must be a non-empty array/],
    [['203.0.113.0/24', 'not-an-ip'], /^Option auth\.ipAllowList\[1\] is not a valid IP address/],
  ])('%j is refused when the strategy is built, naming the option', (rules, message) => {
    expect(() => createIpAllowListStrategy(rules as string[])).toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_INVALID', message: expect.stringMatching(message) }));
  });

  test('an unknown client address and an address outside the list get different, precise reasons', async () => {
    const strategy = createIpAllowListStrategy(['203.0.113.0/24']);
    expect(await run(strategy, request(undefined)).outcome).toEqual({ ok: false, status: 403, reason: 'client address unknown' });
    expect(await run(strategy, request('198.51.100.9')).outcome)
      .toEqual({ ok: false, status: 403, reason: 'client address 198.51.100.9 is not in the allow-list' });
  });

  test('X-Forwarded-For with trust proxy off: one warning that says what to do, then silence', async () => {
    const strategy = createIpAllowListStrategy(['203.0.113.0/24']);
    const first = run(strategy, request('127.0.0.1', { 'x-forwarded-for': '203.0.113.5' }));
    expect((await first.outcome).ok).toBe(false);
    expect(first.logger.lines).toHaveLength(1);
    expect(first.logger.lines[0]).toMatchObject({ level: 'warn', obj: { code: 'CBK_FORWARDED_UNTRUSTED' } });
    expect(first.logger.lines[0].msg).toMatch(/^X-Forwarded-For is set but trust proxy is off, so ipAllowList checks the address of the peer/);
    expect(first.logger.lines[0].msg).toMatch(/set the Express app's "trust proxy" \(or the node handler's trustProxy option\) to the proxies you run/);
    expect(first.logger.lines[0].msg).toMatch(/otherwise ignore the header\. Logged once\.$/);
    expect(run(strategy, request('127.0.0.1', { 'x-forwarded-for': '203.0.113.6' })).logger.lines).toHaveLength(0);
  });

  test('no warning without X-Forwarded-For, or when trust proxy is on', () => {
    expect(run(createIpAllowListStrategy(['127.0.0.1']), request('127.0.0.1')).logger.lines).toHaveLength(0);
    expect(run(createIpAllowListStrategy(['127.0.0.1']), request('127.0.0.1', { 'x-forwarded-for': '127.0.0.1' }, true)).logger.lines).toHaveLength(0);
  });
});
