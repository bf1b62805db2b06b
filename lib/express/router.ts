/**
 * Express binding: `createCallbackRouter(options)` mounts every callback whose adapter method exists.
 * Works with Express 4 and 5, with or without express.json() mounted before it.
 */
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { createCallbackKit, type CallbackRoute } from '../callbacks/kit.js';
import { BINDING_FAILURE, toCallbackRequest } from '../callbacks/binding.js';
import type { CallbackKitOptions } from '../callbacks/options.js';
import type { CallbackResponse } from '../callbacks/types.js';

export type CallbackRouterOptions = CallbackKitOptions;

function send(res: Response, reply: CallbackResponse): void {
  res.status(reply.status);
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  res.removeHeader('x-powered-by');
  res.end(JSON.stringify(reply.body));
}

export function createCallbackRouter(options: CallbackRouterOptions): Router {
  const kit = createCallbackKit(options);
  const router = express.Router();
  const handler = (route: CallbackRoute) => async (req: Request, res: Response, next: NextFunction) => {
    // Express routes HEAD to GET handlers; like the node:http binding, the kit answers GET only.
    if (req.method !== route.method) return next();
    try {
      const request = await toCallbackRequest(kit, route, req, req.path, req.ip ?? req.socket.remoteAddress);
      request.trustProxy = Boolean(req.app?.get('trust proxy'));
      send(res, await kit.handle(route.callback, request));
    } catch {
      if (!res.headersSent) send(res, BINDING_FAILURE);
    }
  };
  for (const route of kit.routes) {
    if (route.method === 'GET') router.get(route.path, handler(route));
    else router.post(route.path, handler(route));
  }
  return router;
}
