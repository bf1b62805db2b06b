import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { SignJWT, exportJWK } from 'jose';
import { buildOrder, signTestJwt } from 'crossborder-merchant-kit/testing';
import { BINDINGS } from '../helpers/bindings.js';
import { HS_PREVIOUS, HS_SECRET, expectAccepted, expectRefused, refusalReason, setup } from './fixtures.js';
import { otherRsa, rsa, rsaPrivatePem, rsaPublicPem } from './rsa-keys.js';

const now = () => Math.floor(Date.now() / 1000);
const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const RS = { publicKey: rsaPublicPem, algorithms: ['RS256'], issuer: 'https://service.example.com', audience: 'merchant-callbacks' };
const GOOD_CLAIMS = { iss: 'https://service.example.com', aud: 'merchant-callbacks', sub: 'service' };
const post = (app: any, authorization?: string) => {
  const r = request(app).post('/cb/SendOrderToMerchant');
  if (authorization !== undefined) r.set('Authorization', authorization);
  return r.send({ order: buildOrder() });
};

describe.each(BINDINGS)('%s: JWT bypass attempts are refused', (_name, mount) => {
  const refuses = async (authorization: string | undefined, config: object = RS) => {
    const s = setup({ jwt: config as any });
    const res = await post(mount(s.options), authorization);
    expectRefused(res, s, 401);
    expect(refusalReason(s)).toMatch(/^auth strategy jwt refused: /);
    return s;
  };

  test('alg none', async () => {
    const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...GOOD_CLAIMS, iat: now(), exp: now() + 300 })}.`;
    await refuses(`Bearer ${token}`);
  });

  test('HS256 token signed with the RS256 public key as the secret (key confusion)', async () => {
    const token = await new SignJWT({ ...GOOD_CLAIMS }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('5m')
      .sign(new TextEncoder().encode(rsaPublicPem));
    const s = await refuses(`Bearer ${token}`);
    expect(refusalReason(s)).toContain('ERR_JOSE_ALG_NOT_ALLOWED');
  });

  test('expired token', async () => {
    const s = await refuses(`Bearer ${await signTestJwt({ ...GOOD_CLAIMS, iat: now() - 600, exp: now() - 60 }, { privateKey: rsaPrivatePem })}`);
    expect(refusalReason(s)).toContain('ERR_JWT_EXPIRED');
  });

  test('nbf in the future', async () => {
    await refuses(`Bearer ${await signTestJwt({ ...GOOD_CLAIMS, nbf: now() + 3600 }, { privateKey: rsaPrivatePem })}`);
  });

  test('wrong issuer', async () => {
    await refuses(`Bearer ${await signTestJwt({ ...GOOD_CLAIMS, iss: 'https://evil.example.com' }, { privateKey: rsaPrivatePem })}`);
  });

  test('wrong audience', async () => {
    await refuses(`Bearer ${await signTestJwt({ ...GOOD_CLAIMS, aud: 'someone-else' }, { privateKey: rsaPrivatePem })}`);
  });

  test('tampered signature', async () => {
    const [h, p, sig] = (await signTestJwt(GOOD_CLAIMS, { privateKey: rsaPrivatePem })).split('.');
    const mid = Math.floor(sig.length / 2);
    const flipped = sig.slice(0, mid) + (sig[mid] === 'A' ? 'B' : 'A') + sig.slice(mid + 1);
    await refuses(`Bearer ${h}.${p}.${flipped}`);
  });

  test('tampered payload under a valid signature', async () => {
    const [h, , sig] = (await signTestJwt(GOOD_CLAIMS, { privateKey: rsaPrivatePem })).split('.');
    await refuses(`Bearer ${h}.${b64({ ...GOOD_CLAIMS, sub: 'admin', iat: now(), exp: now() + 300 })}.${sig}`);
  });

  test('signed by another key', async () => {
    await refuses(`Bearer ${await signTestJwt(GOOD_CLAIMS, { privateKey: otherRsa.privateKey })}`);
  });

  test('missing Bearer prefix', async () => {
    await refuses(await signTestJwt(GOOD_CLAIMS, { privateKey: rsaPrivatePem }));
  });

  test('empty token', async () => {
    await refuses('Bearer ');
    await refuses('Bearer');
  });

  test('no Authorization header', async () => {
    await refuses(undefined);
  });

  test('token older than maxTokenAge, and a required claim missing', async () => {
    await refuses(`Bearer ${await signTestJwt({ ...GOOD_CLAIMS, iat: now() - 3600 }, { privateKey: rsaPrivatePem })}`, { ...RS, maxTokenAge: '10m' });
    await refuses(`Bearer ${await signTestJwt({ ...GOOD_CLAIMS, sub: undefined }, { privateKey: rsaPrivatePem })}`, { ...RS, requiredClaims: ['sub'] });
  });

  test('the token never reaches the log', async () => {
    const token = await signTestJwt({ ...GOOD_CLAIMS, exp: now() - 60 }, { privateKey: rsaPrivatePem });
    const s = await refuses(`Bearer ${token}`);
    expect(s.logger.text()).not.toContain(token);
    expect(s.logger.text()).not.toContain(token.split('.')[2]);
  });
});

describe.each(BINDINGS)('%s: JWT accepted', (_name, mount) => {
  test('RS256 with a PEM public key; the verified claims reach the adapter as context.auth.jwt', async () => {
    const s = setup({ jwt: RS });
    const res = await post(mount(s.options), `Bearer ${await signTestJwt({ ...GOOD_CLAIMS, scope: 'orders' }, { privateKey: rsaPrivatePem })}`);
    expectAccepted(res, s);
    expect(s.adapter.calls[0].context.auth.jwt).toMatchObject({ ...GOOD_CLAIMS, scope: 'orders' });
  });

  test('a public JWK, within clockTolerance of expiry', async () => {
    const s = setup({ jwt: { publicKey: await exportJWK(rsa.publicKey), algorithms: ['RS256'], clockTolerance: 30 } });
    const res = await post(mount(s.options), `Bearer ${await signTestJwt({ exp: now() - 5 }, { privateKey: rsa.privateKey })}`);
    expectAccepted(res, s);
  });

  test('HS256 rotation: current and previous secret both accepted, others not', async () => {
    const s = setup({ jwt: { secret: [HS_SECRET, HS_PREVIOUS], algorithms: ['HS256'] } });
    const app = mount(s.options);
    expect((await post(app, `Bearer ${await signTestJwt({}, { secret: HS_SECRET })}`)).status).toBe(200);
    expect((await post(app, `Bearer ${await signTestJwt({}, { secret: HS_PREVIOUS })}`)).status).toBe(200);
    expect((await post(app, `Bearer ${await signTestJwt({}, { secret: 'a-retired-secret-that-is-long-enough-0000' })}`)).status).toBe(401);
    expect(s.adapter.calls).toHaveLength(2);
  });
});

describe.each(BINDINGS)('%s: JWT from a JWKS served on 127.0.0.1', (_name, mount) => {
  let server: http.Server;
  let fetches = 0;
  let url = '';
  beforeAll(async () => {
    const jwk = { ...(await exportJWK(rsa.publicKey)), kid: 'k-2026', alg: 'RS256', use: 'sig' };
    server = http.createServer((_req, res) => {
      fetches += 1;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('accepts a token whose kid is in the set, refuses an unknown key, and caches the set', async () => {
    fetches = 0;
    const s = setup({ jwt: { jwksUrl: url, algorithms: ['RS256'] } });
    const app = mount(s.options);
    const good = await signTestJwt({ sub: 'service' }, { privateKey: rsaPrivatePem, kid: 'k-2026' });
    expect((await post(app, `Bearer ${good}`)).status).toBe(200);
    expect((await post(app, `Bearer ${good}`)).status).toBe(200);
    expect(fetches).toBe(1);
    expect(s.adapter.calls[0].context.auth.jwt.sub).toBe('service');
    const forged = await signTestJwt({ sub: 'service' }, { privateKey: otherRsa.privateKey, kid: 'k-2026' });
    expect((await post(app, `Bearer ${forged}`)).status).toBe(401);
    expect(s.adapter.calls).toHaveLength(2);
  });
});
