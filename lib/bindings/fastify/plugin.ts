/**
 * Fastify 5 binding: `app.register(fastifyCallbacks, { prefix: '/crossborder', ...kitOptions })`.
 * Encapsulated (no fastify-plugin): its raw-body content-type parser lives in its own scope, so the
 * host app's other routes parse JSON as before. The client address is `request.ip` (Fastify's
 * `trustProxy`); replies go through `reply` (hooks and logging see them). Options are checked when
 * the plugin registers: `await app.register(...)` / `app.ready()` rejects with the kit's KitError.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { buildRequest, checkReplyHeaders, queryFromUrl, splitOptions } from '../http/binding.js';
import { createCallbackKit, routeKey, type CallbackKit, type CallbackRoute } from '../../core/kit.js';
import type { CallbackKitOptions } from '../../core/options.js';
import { readBody } from '../http/read-body.js';
import type { CallbackResponse, MerchantAdapter } from '../../core/types.js';
import { PipelineFailure } from '../../shared/errors.js';
import { rawBody, unreadableBody, type RequestBody } from '../../core/body.js';

/** The kit's options (Fastify's own `prefix`, `logLevel` and `logSerializers` may sit beside them). */
export type FastifyCallbacksOptions<A extends MerchantAdapter = MerchantAdapter> = CallbackKitOptions<A>;

/** Fastify's register options, handed to the plugin with its own. */
const REGISTER_KEYS = ['prefix', 'logLevel', 'logSerializers'] as const;

interface RouteConfig { crossborderRoute: CallbackRoute }

function send(reply: FastifyReply, response: CallbackResponse): FastifyReply {
  checkReplyHeaders(response);
  return reply.code(response.status).headers(response.headers).send(JSON.stringify(response.body));
}

/** The kit's route of a request (undefined only for a request Fastify failed before routing it). */
function routeOf(request: FastifyRequest): CallbackRoute | undefined {
  return (request.routeOptions.config as unknown as Partial<RouteConfig> | undefined)?.crossborderRoute;
}

function mount(instance: FastifyInstance, kit: CallbackKit): void {
  // The body as the core's RequestBody: raw, read until the callback's limit, or unreadable (a failed
  // stream, or over the limit: reading stops there); the kit parses it (415, 413, 400 as on every binding).
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser('*', (request, payload, done) => {
    const route = routeOf(request);
    if (route === undefined) return done(new Error('no callback route for this request'));
    readBody(payload, kit.bodyLimit(route.callback), request.headers['content-length']).then(
      (bytes) => done(null, rawBody(bytes)),
      (err: unknown) => (err instanceof PipelineFailure ? done(null, unreadableBody(err)) : done(err as Error)),
    );
  });
  /** The kit's answer to a request of `route`; `body`: what the binding read (the parser's RequestBody). */
  const answer = async (route: CallbackRoute, request: FastifyRequest, reply: FastifyReply, body: RequestBody): Promise<FastifyReply> => {
    try {
      const url = request.url;
      const q = url.indexOf('?');
      const pathname = q < 0 ? url : url.slice(0, q);
      const parts = {
        path: pathname.slice(instance.prefix.length) || '/', headers: request.headers,
        query: queryFromUrl(url), remoteAddress: request.ip,
        // Fastify defines request.ips only when its trustProxy option is set.
        trustProxy: request.ips !== undefined,
      };
      const core = await buildRequest(kit, route, parts, () => body);
      return send(reply, await kit.handle(route.callback, core.request, core.body));
    } catch (err) {
      return send(reply, kit.fail(err, route.callback));
    }
  };
  const handler = (route: CallbackRoute) => (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> =>
    answer(route, request, reply, (request.body as RequestBody | undefined) ?? rawBody(Buffer.alloc(0)));
  // What Fastify refuses before the raw-body parser runs (a Content-Type it cannot parse: empty, `;;;`,
  // `application/json, text/plain`) is the kit's to answer, as on every binding: its reply, headers and
  // log line (the body is not read; the kit refuses the Content-Type, or answers an auth failure first).
  // Any other error (the app's own hooks refusing a request, …) goes on to the app's error handler, as before.
  instance.setErrorHandler((err: Error & { code?: unknown }, request, reply) => {
    const route = routeOf(request);
    if (typeof err.code === 'string' && err.code.startsWith('FST_ERR_CTP_') && route !== undefined) {
      return answer(route, request, reply, rawBody(Buffer.alloc(0)));
    }
    throw err;
  });
  const seen = new Set<string>();
  for (const route of kit.routes) {
    // The first route of a method and path wins, as with kit.match.
    const key = routeKey(route.method, route.path);
    if (seen.has(key)) continue;
    seen.add(key);
    instance.route({
      method: route.method, url: route.path, exposeHeadRoute: false,
      config: { crossborderRoute: route } satisfies RouteConfig, handler: handler(route),
    });
  }
}

/** The plugin. Register it without fastify-plugin's `fp`: its scope is its own. */
export const fastifyCallbacks: FastifyPluginAsync<FastifyCallbacksOptions> = async (instance, options) => {
  const { kit: kitOptions } = splitOptions<CallbackKitOptions>(options, REGISTER_KEYS);
  mount(instance, createCallbackKit(kitOptions));
};
