/**
 * Express binding: `createCallbackRouter(options)` mounts every callback whose adapter method exists.
 * Works with Express 4 and 5, with or without express.json() mounted before it.
 */
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { createCallbackKit } from '../../core/kit.js';
import { failReply, toCallbackRequest, writeReply } from '../http/binding.js';
import type { CallbackKitOptions } from '../../core/options.js';
import type { CallbackRoute } from '../../core/kit.js';
import type { MerchantAdapter } from '../../core/types.js';

/**
 * Options of {@link createCallbackRouter}: the kit's options (`CallbackKitOptions`), every one in docs/options.md.
 */
export type CallbackRouterOptions<A extends MerchantAdapter = MerchantAdapter> = CallbackKitOptions<A>;

/**
 * The Express binding (Express 4 or 5): an Express `Router` that serves every callback whose adapter
 * method exists, at the paths of `options.paths` (defaults `DEFAULT_PATHS`) relative to where you mount it
 * (`app.use('/crossborder', createCallbackRouter(...))`). Works with or without `express.json()` mounted
 * before it; requests it does not serve fall through to the next middleware.
 *
 * @param options - `merchantGuid` and `adapter` (required), auth, store, limits, logger: docs/options.md.
 * @returns The router to mount.
 * @throws KitError `ERR_CBK_OPTION_REQUIRED`, `ERR_CBK_OPTION_INVALID` or `ERR_CBK_OPTION_UNKNOWN` (with a
 * did-you-mean) when an option is missing or wrong: checked here, once, not per request.
 */
export function createCallbackRouter<A extends MerchantAdapter>(options: CallbackRouterOptions<A>): Router {
  const kit = createCallbackKit(options);
  // One middleware and a lookup (kit.match: method and path, matched as Express matches routes by
  // default) instead of a route layer per callback: Express no longer walks the layers per request.
  // HEAD, which Express would route to a GET handler, falls through: the kit answers GET only.
  const router = express.Router();
  async function serve(route: CallbackRoute, req: Request, res: Response): Promise<void> {
    // req.ip runs proxy-addr over X-Forwarded-For on every read; without 'trust proxy' it is the socket's address.
    const trustProxy = Boolean(req.app?.get('trust proxy'));
    const remoteAddress = trustProxy ? req.ip ?? req.socket.remoteAddress : req.socket.remoteAddress;
    const { request, body } = await toCallbackRequest(kit, route, req, req.path, remoteAddress, trustProxy);
    writeReply(res, await kit.handle(route.callback, request, body));
  }
  function answer(route: CallbackRoute, req: Request, res: Response, next: NextFunction): void {
    serve(route, req, res)
      .catch((err: unknown) => failReply(kit, res, err, route.callback))
      .catch(next); // as Express 5 does with a rejected middleware promise
  }
  // Not an async function: Express 5 would chain a handler onto every promise a middleware returns.
  // The route is matched once, here; anything else (another method or path, routes a merchant added
  // to this Router after it) goes on through the Router.
  router.use((req: Request, res: Response, next: NextFunction) => {
    const route = kit.match(req.method, req.path);
    if (!route) return next();
    answer(route, req, res, next);
  });
  return router;
}
