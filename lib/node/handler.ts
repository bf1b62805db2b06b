/**
 * node:http binding: `createCallbackHandler(options)` returns a `(req, res)` handler for
 * `http.createServer`, with the same options and behaviour as the Express router.
 * Unmatched paths get a JSON 404 (or `next()` when used as connect-style middleware).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BINDING_FAILURE, toCallbackRequest } from '../core/binding.js';
import { createCallbackKit, type CallbackRoute } from '../core/kit.js';
import { KNOWN_OPTION_KEYS, type CallbackKitOptions } from '../core/options.js';
import type { CallbackResponse } from '../core/types.js';
import { KitError } from '../errors.js';

KNOWN_OPTION_KEYS.add('basePath');

export interface CallbackHandlerOptions extends CallbackKitOptions {
  /** Path prefix the callbacks live under, e.g. '/crossborder'; default ''. */
  basePath?: string;
}

export type CallbackHandler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => void;

function send(res: ServerResponse, reply: CallbackResponse): void {
  res.statusCode = reply.status;
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  res.end(JSON.stringify(reply.body));
}

const NOT_FOUND: CallbackResponse = {
  status: 404,
  headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  body: { Success: false, Message: 'Not found', ErrorCode: 'NOT_FOUND' },
};

export function createCallbackHandler(options: CallbackHandlerOptions): CallbackHandler {
  const { basePath = '', ...rest } = options ?? ({} as CallbackHandlerOptions);
  if (typeof basePath !== 'string' || (basePath !== '' && (!basePath.startsWith('/') || basePath.endsWith('/')))) {
    throw new KitError('ERR_CBK_OPTION_INVALID', 'Option basePath must be "" or a path like "/crossborder" (leading slash, no trailing slash)');
  }
  const kit = createCallbackKit(rest as CallbackKitOptions);
  const table = new Map<string, CallbackRoute>();
  for (const route of kit.routes) table.set(`${route.method} ${basePath}${route.path}`, route);

  return (req, res, next) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q < 0 ? url : url.slice(0, q);
    const route = table.get(`${req.method} ${pathname}`);
    if (!route) {
      if (next) return next();
      return send(res, NOT_FOUND);
    }
    toCallbackRequest(kit, route, req, pathname, req.socket.remoteAddress)
      .then((request) => kit.handle(route.callback, request))
      .then((reply) => send(res, reply), () => { if (!res.headersSent) send(res, BINDING_FAILURE); });
  };
}
