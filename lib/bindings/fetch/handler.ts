/**
 * Web-standard binding: `createFetchHandler(options)` returns `(request, info?) => Promise<Response>`
 * for anything that speaks `Request`/`Response` (Hono, Next.js route handlers, Bun.serve, Deno.serve,
 * edge functions). Same options and behaviour as the Express router; paths match like Express's
 * defaults. Only web APIs and node:buffer on the request path (both in Bun and Deno).
 */
import { buildRequest, checkBasePath, checkReplyHeaders, matchUnder, NOT_FOUND, queryFromUrl, splitOptions } from '../http/binding.js';
import { createCallbackKit, type CallbackKit } from '../../core/kit.js';
import type { CallbackKitOptions } from '../../core/options.js';
import { readWebBody } from '../http/read-body.js';
import { rawBody } from '../../core/body.js';
import type { CallbackResponse, HeaderMap, MerchantAdapter } from '../../core/types.js';

export interface FetchHandlerOptions<A extends MerchantAdapter = MerchantAdapter> extends CallbackKitOptions<A> {
  /** Path prefix the callbacks live under, e.g. '/crossborder' (a Next.js catch-all's folder); default ''. */
  basePath?: string;
}

/** What the server knows and the Request does not: the client's address (absent: unknown, so an IP allow-list refuses). */
export interface FetchRequestInfo { remoteAddress?: string }

/**
 * The handler {@link createFetchHandler} returns: a web `Request` in, a `Response` out (404 for a path it
 * does not serve). `info.remoteAddress` gives the client's address where the runtime knows it.
 */
export type FetchHandler = (request: Request, info?: FetchRequestInfo) => Promise<Response>;

function headerMap(headers: Headers): HeaderMap {
  const map: HeaderMap = Object.create(null);
  headers.forEach((value, name) => { map[name] = value; });
  return map;
}

function toResponse(reply: CallbackResponse): Response {
  checkReplyHeaders(reply);
  return new Response(JSON.stringify(reply.body), { status: reply.status, headers: reply.headers });
}

async function serve(kit: CallbackKit, basePath: string, request: Request, info?: FetchRequestInfo): Promise<Response> {
  const url = new URL(request.url);
  const found = matchUnder(kit, basePath, request.method, url.pathname);
  if (!found) {
    // Unread bodies of unmatched requests are let go of, not buffered.
    await request.body?.cancel().catch(() => undefined);
    return toResponse(NOT_FOUND);
  }
  const parts = {
    path: found.path, headers: headerMap(request.headers), query: queryFromUrl(url.search),
    remoteAddress: info?.remoteAddress || undefined, trustProxy: false,
  };
  const core = await buildRequest(kit, found.route, parts, async (limit) => {
    // A host that read the body first (a JSON middleware) is a bug to name in the log (500 via kit.fail).
    if (request.bodyUsed) throw new Error('the Request body was read before the callback handler (hand the Request over unread)');
    return rawBody(await readWebBody(request.body, limit, request.headers.get('content-length')));
  });
  return toResponse(await kit.handle(found.route.callback, core.request, core.body));
}

/**
 * The web-standard binding: a `(request, info?) => Promise<Response>` handler for anything that speaks
 * `Request`/`Response` (Hono, Next.js route handlers, Bun.serve, Deno.serve, Cloudflare Workers, edge
 * functions). Same options and behaviour as the Express router, plus `basePath`. See docs/bindings.md.
 *
 * @param options - The kit's options (docs/options.md) and `basePath` (default `''`).
 * @throws KitError `ERR_CBK_OPTION_REQUIRED`, `ERR_CBK_OPTION_INVALID` or `ERR_CBK_OPTION_UNKNOWN` when
 * an option is missing or wrong (checked once, here).
 */
export function createFetchHandler<A extends MerchantAdapter>(options: FetchHandlerOptions<A>): FetchHandler {
  const { own, kit: kitOptions } = splitOptions<CallbackKitOptions>(options, ['basePath']);
  const basePath = checkBasePath(own.basePath);
  const kit = createCallbackKit(kitOptions);
  return async (request, info) => {
    try {
      return await serve(kit, basePath, request, info);
    } catch (err) {
      return toResponse(kit.fail(err));
    }
  };
}
