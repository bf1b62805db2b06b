/**
 * The JWT strategy's `authenticate` on its own (lib/auth/jwt.ts): the refusal reason the log shows for
 * each kind of Authorization header, and public-key rotation (a token of the second key accepted, a
 * token the first key verified but refused on its claims not tried on the next key). Written against
 * mutation testing (docs/safety-tests.md, area auth-jwt).
 */
import { SignJWT } from 'jose';
import { createJwtStrategy } from 'crossborder-merchant-kit';
import { otherRsa, rsa, rsaPublicPem } from './fixtures.js';

const otherPublicPem = otherRsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const strategy = createJwtStrategy({ publicKey: [rsaPublicPem, otherPublicPem], algorithms: ['RS256'] });
const check = (authorization: string | string[] | undefined) =>
  strategy.authenticate({ headers: authorization === undefined ? {} : { authorization } } as never, {} as never);
const sign = (key: typeof rsa.privateKey, expiresAt: number) =>
  new SignJWT({ sub: 'service' }).setProtectedHeader({ alg: 'RS256' }).setIssuedAt(expiresAt - 60).setExpirationTime(expiresAt).sign(key);
const now = () => Math.floor(Date.now() / 1000);

test('no Authorization header: refused, named so', async () => {
  expect(await check(undefined)).toEqual({ ok: false, reason: 'Authorization header missing' });
});

test.each(['Bearer', 'bearer   ', '  Bearer'])('an empty Bearer token (%j): refused, named so', async (header) => {
  expect(await check(header)).toEqual({ ok: false, reason: 'empty Bearer token' });
});

test.each(['XBearer abc.def.ghi', 'XBearer', 'Bearer !!!', 'Basic abc', ['Bearer a.b.c', 'Bearer a.b.c']])('not a Bearer token (%j): refused, named so', async (header) => {
  expect(await check(header)).toEqual({ ok: false, reason: 'Authorization header is not a Bearer token' });
});

test('rotation: a token of the second key is accepted', async () => {
  expect(await check(`Bearer ${await sign(otherRsa.privateKey, now() + 300)}`)).toMatchObject({ ok: true, data: { sub: 'service' } });
});

test('rotation: a token the first key verified but expired is refused as expired (not tried on the next key)', async () => {
  const outcome = await check(`Bearer ${await sign(rsa.privateKey, now() - 600)}`);
  expect(outcome.ok).toBe(false);
  expect((outcome as { reason: string }).reason).toMatch(/^ERR_JWT_EXPIRED \(exp\): /);
});
