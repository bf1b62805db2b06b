/**
 * Issue 36 item 10: every binding answers a malformed Content-Type with the kit's reply, headers and
 * log line, as Express does — Fastify once answered empty, `;;;` and `application/json, text/plain`
 * itself (its own 415 body, no `Cache-Control: no-store`, no helmet headers, no kit log line).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BINDINGS } from '../helpers/bindings.js';
import { MERCHANT_GUID, order } from '../helpers/orders.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';

const MALFORMED = ['', ';;;', 'application/json, text/plain', '/', 'application/', '"application/json"', ' '];

interface Answer { status: number; headers: http.IncomingHttpHeaders; body: string }

/** A raw request (supertest and fetch would refuse or rewrite some of these headers). */
async function post(server: http.Server, contentType: string, body: string, extra: Record<string, string> = {}): Promise<Answer> {
  if (!server.listening) await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/cb/SendOrderToMerchant', headers: { 'content-type': contentType, 'content-length': Buffer.byteLength(body), ...extra } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe.each(BINDINGS)('%s', (_name, mount) => {
  test.each(MALFORMED.map((c) => [c]))('Content-Type %j: the kit\'s 415, its headers and its log line', async (contentType) => {
    const logger = captureLogger();
    const adapter = recordingAdapter();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter, logger });
    const server = app instanceof http.Server ? app : http.createServer(app);
    try {
      const res = await post(server, contentType, JSON.stringify(order()));
      expect(res.status).toBe(415);
      expect(JSON.parse(res.body)).toMatchObject({ Success: false, ErrorCode: 'UNSUPPORTED_MEDIA_TYPE' });
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(adapter.calls).toHaveLength(0);
      const summary = logger.summaries();
      expect(summary).toHaveLength(1);
      expect(summary[0].obj).toMatchObject({ callback: 'sendOrderToMerchant', status: 415, outcome: 'rejected' });
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  test('a malformed Content-Type without credentials: the kit\'s 401 first (auth runs before the body), as on Express', async () => {
    const logger = captureLogger();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger, auth: { header: { name: 'X-Callback-Secret', value: 'a-long-enough-secret' } } });
    const server = app instanceof http.Server ? app : http.createServer(app);
    try {
      const res = await post(server, ';;;', JSON.stringify(order()));
      expect(res.status).toBe(401);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(logger.summaries()).toHaveLength(1);
      const ok = await post(server, ';;;', JSON.stringify(order()), { 'x-callback-secret': 'a-long-enough-secret' });
      expect(ok.status).toBe(415);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

test('fastify: an error of the app\'s own hook still goes to the app\'s error handler (only Content-Type errors are the kit\'s)', async () => {
  const { default: Fastify } = await import('fastify');
  const { fastifyCallbacks } = await import('crossborder-merchant-kit/fastify');
  const app = Fastify();
  app.setErrorHandler((err: Error & { statusCode?: number }, _request, reply) => { void reply.code(err.statusCode ?? 500).send({ app: err.message }); });
  app.addHook('onRequest', async (request) => {
    if (request.headers['x-block'] === '1') throw Object.assign(new Error('blocked by the app'), { statusCode: 403 });
  });
  await app.register(fastifyCallbacks, { prefix: '/cb', merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger: false });
  await app.ready();
  const server = app.server;
  try {
    const blocked = await post(server, 'application/json', JSON.stringify(order()), { 'x-block': '1' });
    expect(blocked.status).toBe(403);
    expect(JSON.parse(blocked.body)).toEqual({ app: 'blocked by the app' });
    const malformed = await post(server, ';;;', JSON.stringify(order()));
    expect(malformed.status).toBe(415);
    expect(JSON.parse(malformed.body)).toMatchObject({ ErrorCode: 'UNSUPPORTED_MEDIA_TYPE' });
  } finally {
    await app.close();
  }
});
