/**
 * node:http binding: `createCallbackHandler(options)` returns a `(req, res)` handler for
 * `http.createServer`, with the same options and behaviour as the Express router.
 * Paths match like Express's defaults (case-insensitive, one trailing slash allowed, query ignored).
 * Unmatched requests (other paths, HEAD and other methods) get a JSON 404, or `next()` when used as
 * connect-style middleware. No failure, of the kit, the adapter or the client, escapes the handler.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { routeKey, routeTable, toCallbackRequest, writeReply } from '../callbacks/binding.js';
import { BINDING_FAILURE, JSON_NO_STORE } from '../shared/http.js';
import { createCallbackKit, type CallbackRoute } from '../callbacks/kit.js';
import type { CallbackKitOptions } from '../callbacks/options.js';
import type { MerchantAdapter } from '../callbacks/types.js';
import type { CallbackResponse } from '../callbacks/types.js';
import { KitError, wireErrorBody } from '../shared/errors.js';
import { compileTrustProxy, type TrustProxyOption } from './trust-proxy.js';

export type { TrustProxyOption } from './trust-proxy.js';

export interface CallbackHandlerOptions<A extends MerchantAdapter = MerchantAdapter> extends CallbackKitOptions<A> {
  /** Path prefix the callbacks live under, e.g. '/crossborder'; default ''. */
  basePath?: string;
  /**
   * Whether the client address comes from X-Forwarded-For: `false` (default: the socket's address),
   * `true` (all hops trusted), a number of proxy hops, or trusted proxy addresses/CIDRs
   * (the rightmost untrusted hop is the client). See docs/node-binding.md.
   */
  trustProxy?: TrustProxyOption;
}

export type CallbackHandler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => void;

const NOT_FOUND: CallbackResponse = {
  status: 404,
  headers: { ...JSON_NO_STORE },
  body: wireErrorBody('NOT_FOUND'),
};

// The client may be gone (aborted): then there is nobody to answer, and writeReply writes nothing.
const send = writeReply;

/** Answers a failure of the binding itself with a generic 500, or drops the connection if headers went out. */
function fail(res: ServerResponse): void {
  try {
    if (!res.headersSent) send(res, BINDING_FAILURE);
    else res.destroy();
  } catch {
    res.destroy();
  }
}

export function createCallbackHandler<A extends MerchantAdapter>(options: CallbackHandlerOptions<A>): CallbackHandler {
  const isObject = typeof options === 'object' && options !== null && !Array.isArray(options);
  const { basePath = '', trustProxy, ...rest } = isObject ? options : ({} as CallbackHandlerOptions);
  if (typeof basePath !== 'string' || (basePath !== '' && (!basePath.startsWith('/') || basePath.endsWith('/')))) {
    throw new KitError('ERR_CBK_OPTION_INVALID', 'Option basePath must be "" or a path like "/crossborder" (leading slash, no trailing slash)');
  }
  const proxy = compileTrustProxy(trustProxy);
  const kit = createCallbackKit((isObject ? rest : options) as CallbackKitOptions);
  const table = routeTable(kit.routes, basePath);

  async function serve(route: CallbackRoute, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const remoteAddress = proxy.clientAddress(req.socket?.remoteAddress, req.headers['x-forwarded-for']);
    const request = await toCallbackRequest(kit, route, req, path, remoteAddress);
    request.trustProxy = proxy.trusted;
    send(res, await kit.handle(route.callback, request));
  }

  return (req, res, next) => {
    let route: CallbackRoute | undefined;
    let path = '';
    try {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const pathname = q < 0 ? url : url.slice(0, q);
      route = table.get(routeKey(req.method ?? '', pathname));
      path = pathname.slice(basePath.length);
    } catch {
      return fail(res);
    }
    if (!route) {
      if (typeof next === 'function') return next();
      try {
        return send(res, NOT_FOUND);
      } catch {
        return fail(res);
      }
    }
    serve(route, req, res, path).catch(() => fail(res));
  };
}
