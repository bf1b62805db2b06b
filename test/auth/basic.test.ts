import request from 'supertest';
import { timingSafeEqualString } from 'crossborder-merchant-kit';
import { basicAuthHeader, buildOrder } from 'crossborder-merchant-kit/testing';
import { BINDINGS } from '../helpers/bindings.js';
import { expectAccepted, expectRefused, refusalReason, setup } from './fixtures.js';

const USERS = { service: ['n3w-Passw0rd!', '0ld-Passw0rd!'], auditor: 'aud1t-Passw0rd' };
const post = (app: any, authorization?: string) => {
  const r = request(app).post('/cb/SendOrderToMerchant');
  if (authorization !== undefined) r.set('Authorization', authorization);
  return r.send(buildOrder());
};

describe.each(BINDINGS)('%s: HTTP Basic', (_name, mount) => {
  const refused = async (authorization: string | undefined, basic: object = { users: USERS }) => {
    const s = setup({ basic: basic as any });
    const res = await post(mount(s.options), authorization);
    expectRefused(res, s, 401);
    expect(res.headers['www-authenticate']).toBe('Basic realm="crossborder-callbacks", charset="UTF-8"');
    expect(refusalReason(s)).toMatch(/^auth strategy basic refused: /);
    return s;
  };

  test('wrong password is refused with the challenge, and the password never reaches the log', async () => {
    const s = await refused(basicAuthHeader('service', 'n3w-Passw0rd?'));
    expect(s.logger.text()).not.toContain('n3w-Passw0rd');
  });
  test('empty password is refused', () => refused(basicAuthHeader('service', '')));
  test('missing header is refused', () => refused(undefined));
  test('unknown user with a valid password of another user is refused', () => refused(basicAuthHeader('intruder', 'aud1t-Passw0rd')));
  test('a password of another user is refused', () => refused(basicAuthHeader('service', 'aud1t-Passw0rd')));
  test('a Bearer token or garbage is refused', async () => {
    await refused('Bearer abc.def.ghi');
    await refused('Basic !!!not-base64!!!');
    await refused(`Basic ${Buffer.from('no-colon').toString('base64')}`);
  });

  test('current and previous password (rotation) are accepted; the user reaches context.auth.basic', async () => {
    const s = setup({ basic: { users: USERS, realm: 'Shop callbacks' } });
    const app = mount(s.options);
    expect((await post(app, basicAuthHeader('service', 'n3w-Passw0rd!'))).status).toBe(200);
    expect((await post(app, basicAuthHeader('service', '0ld-Passw0rd!'))).status).toBe(200);
    expect((await post(app, basicAuthHeader('auditor', 'aud1t-Passw0rd'))).status).toBe(200);
    expect(s.adapter.calls.map((c) => c.context.auth.basic)).toEqual([{ user: 'service' }, { user: 'service' }, { user: 'auditor' }]);
    const res = await post(app, basicAuthHeader('service', 'wrong'));
    expect(res.headers['www-authenticate']).toBe('Basic realm="Shop callbacks", charset="UTF-8"');
  });

  test('an async authorizer decides; one that throws refuses without crashing', async () => {
    const s = setup({ basic: { authorizer: async (u, p) => timingSafeEqualString(u, 'svc') && timingSafeEqualString(p, 'vault-s3cret') } });
    const app = mount(s.options);
    expectAccepted(await post(app, basicAuthHeader('svc', 'vault-s3cret')), s);
    expect((await post(app, basicAuthHeader('svc', 'vault-s3creT'))).status).toBe(401);

    const t = setup({ basic: { authorizer: () => { throw new Error('vault down while checking vault-s3cret'); } } });
    const res = await post(mount(t.options), basicAuthHeader('svc', 'vault-s3cret'));
    expectRefused(res, t, 401);
    expect(t.logger.text()).not.toContain('vault-s3cret');
  });

  test('an authorizer returning a truthy non-boolean does not authenticate', async () => {
    const s = setup({ basic: { authorizer: (() => 'yes') as any } });
    expectRefused(await post(mount(s.options), basicAuthHeader('svc', 'x')), s, 401);
  });
});
