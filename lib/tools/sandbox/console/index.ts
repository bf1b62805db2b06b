/**
 * The sandbox's web console, served by the sandbox at `/` on its own port (never by the merchant's
 * router): static HTML/CSS/JS, a Server-Sent Events stream of exchanges, orders and scenario runs, and
 * a small JSON API to run scenarios and the conformance check and to change the configuration.
 *
 * The sandbox answers only requests whose Host is `localhost`, an IP literal or a listed name (a
 * DNS-rebinding page cannot reach it: host-guard.ts, checked in server.ts for every route), and the
 * POST/PUT calls need a JSON body from the console's own origin (no CSRF).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createConsoleApi } from './api.js';
import { loadAssets } from './assets.js';
import type { ConsoleHost } from './host.js';
import { sendAsset, sendJson } from './http.js';
import { createEventStreams } from './stream.js';

/** The Host check now guards every route of the sandbox (server.ts); kept here for existing imports. */
export { trustedHost } from '../host-guard.js';
export type { ConsoleHost } from './host.js';

/** Where the console's own endpoints live (the service API never uses this prefix). */
export const CONSOLE_PREFIX = '/_console';

export interface ConsoleOptions {
  /** Exchanges sent to a browser when it connects (newest kept); default 500. The page keeps as many. */
  snapshotLimit?: number;
  /** Event streams (open console tabs) served at once; one more is answered 503; default 8. */
  maxStreams?: number;
}

type Route = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

/** The console as a route for `sandbox.use()`. */
export function createConsole(host: ConsoleHost, options: ConsoleOptions = {}): Route {
  const assets = loadAssets();
  const streams = createEventStreams(host, options.snapshotLimit ?? 500, options.maxStreams ?? 8);
  const api = createConsoleApi(host, streams.broadcast);

  return async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://console.invalid').pathname;
    const ours = path === '/' || path === '/index.html' || path === CONSOLE_PREFIX || path.startsWith(`${CONSOLE_PREFIX}/`);
    if (!ours) return false;
    const method = req.method ?? 'GET';
    if (path === '/' || path === '/index.html') {
      return method === 'GET' || method === 'HEAD' ? sendAsset(res, assets.html) : sendJson(res, 405, { code: 'METHOD_NOT_ALLOWED', message: `${method} is not allowed here` });
    }
    const rest = path.slice(CONSOLE_PREFIX.length);
    const site = req.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') {
      // another site's page (an <img>, <script> or EventSource pointed here) gets nothing of the console
      return sendJson(res, 403, { code: 'FORBIDDEN', message: 'the console answers only its own page' });
    }
    if (method === 'GET' && rest === '/events') return streams.open(req, res);
    if (method === 'GET' && rest === '/console.css') return sendAsset(res, assets.css);
    if (method === 'GET' && rest === '/console.js') return sendAsset(res, assets.js);
    if (await api(req, res, rest)) return true;
    return sendJson(res, 404, { code: 'NOT_FOUND', message: `no console endpoint ${method} ${path}` });
  };
}
