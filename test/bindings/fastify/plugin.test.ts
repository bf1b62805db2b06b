/**
 * What is particular to the Fastify plugin (the shared behaviour runs over it through BINDINGS):
 * its raw-body parser stays in its own scope, replies go through `reply` (hooks see them), Fastify's
 * trustProxy gives the client address, HEAD is not answered, and options fail `register`.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import request from 'supertest';
import { fastifyCallbacks, type FastifyCallbacksOptions } from 'crossborder-merchant-kit/fastify';
import { MERCHANT_GUID, order } from '../../helpers/orders.js';
import { recordingAdapter } from '../../helpers/recording.js';

const base = (extra: Partial<FastifyCallbacksOptions> = {}): FastifyCallbacksOptions =>
  ({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger: false, ...extra }) as FastifyCallbacksOptions;

const json = { 'content-type': 'application/json' };

/** A request to the app over its real server (light-my-request's inject needs require(esm) under jest on Node 20). */
async function send(app: FastifyInstance, method: 'get' | 'post' | 'head', url: string, headers: Record<string, string> = {}, payload?: string) {
  await app.ready();
  const r = request(app.server)[method](url).set(headers);
  const res = payload === undefined ? await r : await r.send(payload);
  return { statusCode: res.status, headers: res.headers, json: () => JSON.parse(res.text) };
}

describe('fastifyCallbacks', () => {
  test('the host app\'s own routes still get parsed JSON; the callbacks under the prefix get the kit\'s reply', async () => {
    const app = Fastify();
    app.post('/api/echo', async (request) => ({ parsed: request.body }));
    await app.register(fastifyCallbacks, { prefix: '/crossborder', ...base() });
    const echo = await send(app, 'post', '/api/echo', json, JSON.stringify({ a: 1 }));
    expect(echo.json()).toEqual({ parsed: { a: 1 } });
    const res = await send(app, 'post', '/crossborder/SendOrderToMerchant', json, JSON.stringify(order()));
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({ Success: true });
    await app.close();
  });

  test('the kit, not Fastify, answers what Fastify would refuse itself: text/plain 415, over-limit 413 in the kit\'s envelope', async () => {
    const app = Fastify({ bodyLimit: 100 });
    await app.register(fastifyCallbacks, { prefix: '/cb', ...base({ bodyLimit: 50_000 }) });
    const big = await send(app, 'post', '/cb/SendOrderToMerchant', json, JSON.stringify(order()));
    expect(big.statusCode).toBe(200); // Fastify's own 100-byte limit does not apply in the plugin's scope
    const text = await send(app, 'post', '/cb/SendOrderToMerchant', { 'content-type': 'text/plain' }, 'hi');
    expect(text.statusCode).toBe(415);
    expect(text.json()).toMatchObject({ Success: false, ErrorCode: 'UNSUPPORTED_MEDIA_TYPE' });
    const over = await send(app, 'post', '/cb/SendOrderToMerchant', json, JSON.stringify(order({ Note: 'x'.repeat(60_000) })));
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ Success: false, ErrorCode: 'PAYLOAD_TOO_LARGE' });
    await app.close();
  });

  test('replies go through reply: the host\'s onSend/onResponse hooks see the callback and its status', async () => {
    const app = Fastify();
    const seen: Array<[string, number]> = [];
    app.addHook('onResponse', async (request, reply) => { seen.push([request.url, reply.statusCode]); });
    await app.register(fastifyCallbacks, { prefix: '/cb', ...base() });
    await send(app, 'post', '/cb/SendOrderToMerchant', json, '{"broken');
    expect(seen).toEqual([['/cb/SendOrderToMerchant', 400]]);
    await app.close();
  });

  test('Fastify\'s trustProxy decides the client address (X-Forwarded-For believed only when set)', async () => {
    for (const [trustProxy, expected] of [[true, /^203\.0\.113\.5$/], [false, /127\.0\.0\.1|::1/]] as const) {
      const adapter = recordingAdapter();
      const app = Fastify({ trustProxy });
      await app.register(fastifyCallbacks, { prefix: '/cb', ...base({ adapter }) });
      await send(app, 'post', '/cb/SendOrderToMerchant', { ...json, 'x-forwarded-for': '203.0.113.5' }, JSON.stringify(order()));
      expect(adapter.calls[0].context.remoteAddress).toMatch(expected);
      await app.close();
    }
  });

  test('HEAD of a GET callback is not answered by the plugin (404), as on the other bindings', async () => {
    const app = Fastify();
    await app.register(fastifyCallbacks, { prefix: '/cb', ...base() });
    expect((await send(app, 'head', '/cb/GetCheckoutCartInfo?merchantCartToken=t', {})).statusCode).toBe(404);
    expect((await send(app, 'get', '/cb/GetCheckoutCartInfo?merchantCartToken=t', {})).statusCode).toBe(200);
    await app.close();
  });

  test('logger: app.log puts the kit\'s lines in Fastify\'s pino logger, redacted', async () => {
    const lines: string[] = [];
    const app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => { lines.push(line); } } } });
    await app.register(fastifyCallbacks, { prefix: '/cb', ...base({ logger: app.log }) });
    await send(app, 'post', '/cb/SendOrderToMerchant', json, JSON.stringify(order({ MerchantGUID: 'not-ours' })));
    const refused = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'callback refused');
    expect(refused).toEqual([expect.objectContaining({ level: 40, status: 401 })]);
    expect(lines.join('')).not.toContain(MERCHANT_GUID);
    await app.close();
  });

  test('bad options make register reject with the kit\'s KitError (did-you-mean included)', async () => {
    const app = Fastify();
    await expect(app.register(fastifyCallbacks, { prefix: '/cb', ...base(), bodyLimt: 5 } as never))
      .rejects.toMatchObject({ code: 'ERR_CBK_OPTION_UNKNOWN', message: expect.stringMatching(/bodyLimit/) });
    const other = Fastify();
    await expect(other.register(fastifyCallbacks, { prefix: '/cb', adapter: recordingAdapter() } as never))
      .rejects.toMatchObject({ code: 'ERR_CBK_OPTION_REQUIRED' });
  });
});
