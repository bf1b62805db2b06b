import request from 'supertest';
import type { AuthStrategy } from 'crossborder-merchant-kit';
import { basicAuthHeader, buildCartInfoQuery, buildOrder, signTestJwt } from 'crossborder-merchant-kit/testing';
import { BINDINGS } from '../helpers/bindings.js';
import { HS_PREVIOUS, HS_SECRET, expectAccepted, expectRefused, refusalReason, setup } from './fixtures.js';

const signatureHeader: AuthStrategy = {
  name: 'signature',
  authenticate: (req) => (req.headers['x-signature'] === 'sig-ok' ? { ok: true, data: { keyId: 'k1' } } : { ok: false, reason: 'bad signature' }),
};
const ALL = {
  ipAllowList: ['127.0.0.0/8', '::1'],
  urlParameter: { name: 'key', value: 'par-current-8Lw3' },
  header: { name: 'X-Callback-Secret', value: 'hdr-current-7Qz9' },
  jwt: { secret: [HS_SECRET, HS_PREVIOUS], algorithms: ['HS256'], issuer: 'crossborder' },
  strategies: [signatureHeader],
};

describe.each(BINDINGS)('%s: strategies combined (all must pass)', (_name, mount) => {
  const send = async (app: any, drop?: string) => {
    const token = await signTestJwt({ iss: 'crossborder', sub: 'svc' }, { secret: HS_PREVIOUS });
    const headers: Record<string, string> = { 'X-Callback-Secret': 'hdr-current-7Qz9', Authorization: `Bearer ${token}`, 'X-Signature': 'sig-ok' };
    const query: Record<string, string> = { key: 'par-current-8Lw3' };
    if (drop === 'urlParameter') delete query.key;
    if (drop === 'header') delete headers['X-Callback-Secret'];
    if (drop === 'jwt') delete headers.Authorization;
    if (drop === 'signature') delete headers['X-Signature'];
    return request(app).post('/cb/SendOrderToMerchant').query(query).set(headers).send({ order: buildOrder() });
  };

  test('every credential present: accepted; the adapter sees each strategy result under its name', async () => {
    const s = setup(ALL);
    expectAccepted(await send(mount(s.options)), s);
    expect(s.adapter.calls[0].context.auth).toEqual({ jwt: expect.objectContaining({ iss: 'crossborder', sub: 'svc' }), signature: { keyId: 'k1' } });
  });

  test('any one credential missing: refused with the same generic reply, the log names the strategy', async () => {
    const bodies: unknown[] = [];
    for (const drop of ['urlParameter', 'header', 'jwt', 'signature']) {
      const s = setup(ALL);
      const res = await send(mount(s.options), drop);
      expectRefused(res, s, 401);
      bodies.push(res.body);
      expect(refusalReason(s)).toMatch(new RegExp(`^auth strategy ${drop} refused: `));
      expect(s.logger.text()).not.toMatch(/hdr-current-7Qz9|par-current-8Lw3|current-hs256-secret/);
    }
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
  });

  test('an address outside the allow-list is refused 403 even with every credential', async () => {
    const s = setup({ ...ALL, ipAllowList: ['192.0.2.0/24'] });
    expectRefused(await send(mount(s.options)), s, 403);
  });

  test('a redelivery of an accepted order is authenticated again, not replayed to a caller without credentials', async () => {
    const s = setup({ header: { name: 'X-Callback-Secret', value: 'hdr-current-7Qz9' } });
    const app = mount(s.options);
    const order = buildOrder();
    const first = await request(app).post('/cb/SendOrderToMerchant').set('X-Callback-Secret', 'hdr-current-7Qz9').send(order);
    expect(first.status).toBe(200);
    const replayAttempt = await request(app).post('/cb/SendOrderToMerchant').set('X-Callback-Secret', 'hdr-current-7Qz8').send(order);
    expect(replayAttempt.status).toBe(401);
    expect(replayAttempt.body).toEqual({ Success: false, Message: 'Unauthorized', ErrorCode: 'UNAUTHORIZED' });
    expect(s.adapter.calls).toHaveLength(1);
  });

  test('a custom strategy can refuse with 403 and its own headers; one that throws never lets the request through', async () => {
    const geo: AuthStrategy = { name: 'geo', authenticate: async () => ({ ok: false, status: 403, reason: 'region closed', headers: { 'x-region': 'closed' } }) };
    const s = setup({ strategies: [geo] });
    const res = await request(mount(s.options)).post('/cb/SendOrderToMerchant').send(buildOrder());
    expectRefused(res, s, 403);
    expect(res.headers['x-region']).toBe('closed');
    expect(refusalReason(s)).toBe('auth strategy geo refused: region closed');

    const broken: AuthStrategy = { name: 'broken', authenticate: () => { throw new Error('kaput'); } };
    const t = setup({ strategies: [broken] });
    const failed = await request(mount(t.options)).post('/cb/SendOrderToMerchant').send(buildOrder());
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ Success: false, Message: 'Internal error', ErrorCode: 'INTERNAL_ERROR' });
    expect(t.adapter.calls).toHaveLength(0);
  });

  test('HTTP Basic with a custom header', async () => {
    const s = setup({ basic: { users: { svc: 'b4sic-pass' } }, header: { name: 'X-Callback-Secret', value: 'hdr-current-7Qz9' } });
    const app = mount(s.options);
    const ok = await request(app).post('/cb/SendOrderToMerchant').set('Authorization', basicAuthHeader('svc', 'b4sic-pass'))
      .set('X-Callback-Secret', 'hdr-current-7Qz9').send(buildOrder());
    expectAccepted(ok, s);
    const noHeader = await request(app).post('/cb/SendOrderToMerchant').set('Authorization', basicAuthHeader('svc', 'b4sic-pass')).send(buildOrder());
    expect(noHeader.status).toBe(401);
    expect(s.adapter.calls).toHaveLength(1);
  });
});

describe.each(BINDINGS)('%s: auth.perCallback', (_name, mount) => {
  const auth = {
    jwt: { secret: HS_SECRET, algorithms: ['HS256'] },
    perCallback: {
      getCheckoutCartInfo: { jwt: false as const, urlParameter: { name: 'key', value: 'par-current-8Lw3' } },
      updateOrderStatus: { jwt: false as const, basic: { users: { svc: 'b4sic-pass' } } },
    },
  };

  test('cart info uses its URL parameter instead of the JWT', async () => {
    const s = setup(auth);
    const app = mount(s.options);
    expectAccepted(await request(app).get('/cb/GetCheckoutCartInfo').query({ ...buildCartInfoQuery(), key: 'par-current-8Lw3' }), s);
    expect((await request(app).get('/cb/GetCheckoutCartInfo').query(buildCartInfoQuery())).status).toBe(401);
    expect(s.adapter.calls).toHaveLength(1);
  });

  test('order callbacks keep the top-level JWT; updateOrderStatus uses Basic', async () => {
    const s = setup(auth);
    const app = mount(s.options);
    expect((await request(app).post('/cb/SendOrderToMerchant').send(buildOrder())).status).toBe(401);
    expect((await request(app).post('/cb/SendOrderToMerchant').set('Authorization', `Bearer ${await signTestJwt({}, { secret: HS_SECRET })}`).send(buildOrder())).status).toBe(200);
    const status = buildOrder({ StatusCode: 'canceled' });
    expect((await request(app).post('/cb/UpdateOrderStatus').set('Authorization', `Bearer ${await signTestJwt({}, { secret: HS_SECRET })}`).send(status)).status).toBe(401);
    expect((await request(app).post('/cb/UpdateOrderStatus').set('Authorization', basicAuthHeader('svc', 'b4sic-pass')).send(status)).status).toBe(200);
    expect(s.adapter.calls.map((c) => c.method)).toEqual(['sendOrderToMerchant', 'updateOrderStatus']);
  });

  test('a refusal is logged with the strategy name and reason, never the credential', async () => {
    const s = setup(auth);
    const token = await signTestJwt({ exp: Math.floor(Date.now() / 1000) - 10 }, { secret: HS_SECRET });
    expectRefused(await request(mount(s.options)).post('/cb/SendOrderToMerchant').set('Authorization', `Bearer ${token}`).send(buildOrder()), s);
    expect(refusalReason(s)).toMatch(/^auth strategy jwt refused: ERR_JWT_EXPIRED/);
    expect(s.logger.text()).not.toContain(token);
    expect(s.logger.text()).not.toContain(HS_SECRET);
  });
});
