/// <reference types="node" preserve="true" />
/**
 * node:http binding: `createCallbackHandler(options)` returns a `(req, res)` handler for
 * `http.createServer`, with the same options and behaviour as the Express router.
 * Paths match like Express's defaults (case-insensitive, one trailing slash allowed, query ignored).
 * Unmatched requests (other paths, HEAD and other methods) get a JSON 404, or `next()` when used as
 * connect-style middleware. No failure, of the kit, the adapter or the client, escapes the handler.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  checkBasePath, failReply, matchUnder, NOT_FOUND, splitOptions, toCallbackRequest, writeReply,
} from '../http/binding.js';
import { createCallbackKit, type CallbackRoute } from '../../core/kit.js';
import type { CallbackKitOptions } from '../../core/options.js';
import type { MerchantAdapter } from '../../core/types.js';
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

/**
 * The handler {@link createCallbackHandler} returns: `(req, res, next?)` for `http.createServer` or a
 * connect-style stack. Without `next`, a request it does not serve gets a JSON 404; with `next`, it is
 * passed on.
 */
export type CallbackHandler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => void;

/**
 * The node:http binding: a request handler for `http.createServer` or any connect-style stack, needing
 * nothing but Node. Same options and behaviour as the Express router, plus `basePath` and `trustProxy`.
 * See docs/node-binding.md.
 *
 * @param options - The kit's options (docs/options.md), `basePath` (default `''`) and `trustProxy`
 * (default `false`).
 * @throws KitError `ERR_CBK_OPTION_REQUIRED`, `ERR_CBK_OPTION_INVALID` or `ERR_CBK_OPTION_UNKNOWN` when
 * an option is missing or wrong (checked once, here).
 */
export function createCallbackHandler<A extends MerchantAdapter>(options: CallbackHandlerOptions<A>): CallbackHandler {
  const { own, kit: kitOptions } = splitOptions<CallbackKitOptions>(options, ['basePath', 'trustProxy']);
  const basePath = checkBasePath(own.basePath);
  const proxy = compileTrustProxy(own.trustProxy);
  const kit = createCallbackKit(kitOptions);

  async function serve(route: CallbackRoute, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const remoteAddress = proxy.clientAddress(req.socket?.remoteAddress, req.headers['x-forwarded-for']);
    const { request, body } = await toCallbackRequest(kit, route, req, path, remoteAddress, proxy.trusted);
    writeReply(res, await kit.handle(route.callback, request, body));
  }

  return (req, res, next) => {
    let found: ReturnType<typeof matchUnder>;
    try {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      found = matchUnder(kit, basePath, req.method ?? '', q < 0 ? url : url.slice(0, q));
    } catch (err) {
      return failReply(kit, res, err);
    }
    if (!found) {
      if (typeof next === 'function') return next();
      try {
        return writeReply(res, NOT_FOUND);
      } catch (err) {
        return failReply(kit, res, err);
      }
    }
    const { route, path } = found;
    serve(route, req, res, path).catch((err: unknown) => failReply(kit, res, err, route.callback));
  };
}
