/**
 * The benchmark's servers for the Fastify and fetch bindings (issue 24 item 6), as request listeners
 * for bench/bindings.ts: bare Fastify (its own JSON parser, the same reply and headers as the other
 * bare servers), the kit's Fastify plugin, and the kit's fetch handler behind the node:http → web
 * Request/Response conversion a Node host does (what Next.js or Hono's node adapter pay too).
 */
import type http from 'node:http';
import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { computeHelmetHeaders } from '../lib/core/helmet-headers.js';
import { loadKit } from './dist.js';
import { CALLBACK_PATH } from './fixtures.js';
import { kitOptions } from './kit-options.js';

const KIT_HEADERS = { ...computeHelmetHeaders({}), 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
const replyFor = (order: { OrderId?: unknown }) => ({ Success: true, InternalOrderId: `INT-${order.OrderId}`, OrderId: String(order.OrderId), StatusCode: 'received' });

type Listener = http.RequestListener;

export async function bareFastify(): Promise<Listener> {
  const app = Fastify();
  app.post(CALLBACK_PATH, async (request, reply) => reply.headers(KIT_HEADERS).send(replyFor(request.body as { OrderId?: unknown })));
  await app.ready();
  return (req, res) => app.routing(req, res);
}

/** The kit's Fastify plugin, of the build in `dist` (bench/dist.ts; default this checkout's). */
export async function kitFastify(dist?: string): Promise<Listener> {
  const kit = await loadKit(dist);
  const app = Fastify();
  await app.register(kit.fastify!.fastifyCallbacks, { prefix: '/cb', ...kitOptions(kit).options });
  await app.ready();
  return (req, res) => app.routing(req, res);
}

/** The kit's fetch handler, of the build in `dist` (bench/dist.ts; default this checkout's). */
export async function kitFetch(dist?: string): Promise<Listener> {
  const kit = await loadKit(dist);
  const handle = kit.fetch!.createFetchHandler({ ...kitOptions(kit).options, basePath: '/cb' });
  return (req, res) => {
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url}`, {
      method: req.method, headers, body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half',
    } as RequestInit);
    void handle(request, { remoteAddress: req.socket.remoteAddress }).then(async (response) => {
      const body = Buffer.from(await response.arrayBuffer());
      res.writeHead(response.status, { ...Object.fromEntries(response.headers), 'content-length': body.length });
      res.end(body);
    });
  };
}
