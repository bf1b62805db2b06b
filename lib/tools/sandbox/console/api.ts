/**
 * The console's JSON API under /_console/api: reads (an exchange, the configuration, the orders) and
 * the state-changing calls (PUT config, POST check, POST scenarios/<name>), which need a JSON body
 * from the console's own origin (no CSRF).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toJson } from '../../conformance/report.js';
import { SCENARIO_NAMES } from '../scenarios.js';
import { consoleViews, type ConsoleHost } from './host.js';
import { MAX_PAYLOAD_BODY, messageOf, readJson, sameOrigin, sendJson } from './http.js';
import { SendError } from '../resend.js';
import { JsonTextError } from '../json-position.js';
import { maskForConsole, summarize } from './view.js';
import { parseDecimal } from '../../../shared/decimal.js';

/** Answers an API path (relative to /_console); resolves false when the path is none of the API's. */
export type ConsoleApi = (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;

/** `broadcast` tells the open pages of a configuration change. */
export function createConsoleApi(host: ConsoleHost, broadcast: (event: string, data: unknown) => void): ConsoleApi {
  const view = consoleViews(host);

  const read = (res: ServerResponse, path: string): boolean => {
    const exchange = /^\/api\/exchanges\/(\d+)$/.exec(path);
    if (exchange) {
      const e = host.log.get(Number(exchange[1]));
      return e ? sendJson(res, 200, { summary: summarize(e, view.guid()), exchange: maskForConsole(e, view.guid()) })
        : sendJson(res, 404, { code: 'NOT_FOUND', message: `no exchange ${exchange[1]} (the log keeps the latest ${host.log.limit})` });
    }
    if (path === '/api/config') return sendJson(res, 200, view.config());
    if (path === '/api/orders') return sendJson(res, 200, host.orders.list().map(view.order));
    return false;
  };

  /** GET /api/prices/preview?price=120[&productClassCode=SHOES]: the local price in every seed country, step by step. */
  const pricePreview = (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = new URL(req.url ?? '/', 'http://console.invalid');
    if (!host.catalogue) return sendJson(res, 404, { code: 'NOT_FOUND', message: 'this sandbox has no price data' });
    const price = url.searchParams.get('price') ?? '';
    const d = parseDecimal(price);
    if (!d || d.units < 0n || price.length > 20) return sendJson(res, 400, { code: 'BAD_REQUEST', message: 'price must be a non-negative decimal such as 49.99' });
    const productClassCode = url.searchParams.get('productClassCode')?.slice(0, 50) || undefined;
    return sendJson(res, 200, host.catalogue.preview({ price, ...(productClassCode ? { productClassCode } : {}) }));
  };

  /** An exchange the console sent (Send again, Send a payload), as the detail view shows one. */
  const shown = (e: Parameters<typeof summarize>[0]) => ({ summary: summarize(e, view.guid()), exchange: maskForConsole(e, view.guid()) });

  const change = async (path: string, scenario: string | undefined, body: unknown): Promise<[number, unknown]> => {
    const resend = /^\/api\/exchanges\/(\d+)\/resend$/.exec(path);
    if (resend) return [200, shown(await host.resend(Number(resend[1])))];
    if (path === '/api/send') {
      const b = (typeof body === 'object' && body !== null ? body : {}) as { callback?: unknown; payload?: unknown };
      return [200, shown(await host.send({ callback: String(b.callback ?? ''), payload: b.payload }))];
    }
    if (path === '/api/config') {
      host.configure(body as Parameters<ConsoleHost['configure']>[0]);
      broadcast('config', view.config());
      return [200, view.config()];
    }
    // exactly the CLI's `check --json` document
    if (path === '/api/check') return [200, toJson(await host.runCheck())];
    if (!(SCENARIO_NAMES as readonly string[]).includes(scenario!)) return [404, { code: 'UNKNOWN_SCENARIO', message: `unknown scenario "${scenario}"` }];
    return [200, await host.runScenario(scenario!)];
  };

  return async (req, res, path) => {
    const method = req.method ?? 'GET';
    if (method === 'GET' && path === '/api/prices/preview') return pricePreview(req, res);
    if (method === 'GET' && read(res, path)) return true;
    const scenario = /^\/api\/scenarios\/([a-z-]+)$/.exec(path);
    const sending = path === '/api/send' || /^\/api\/exchanges\/\d+\/resend$/.test(path);
    const writes = path === '/api/config' || path === '/api/check' || scenario !== null || sending;
    if (!writes) return false;
    if (method !== (path === '/api/config' ? 'PUT' : 'POST')) return sendJson(res, 405, { code: 'METHOD_NOT_ALLOWED', message: `${method} is not allowed here` });
    if (!sameOrigin(req)) return sendJson(res, 403, { code: 'FORBIDDEN', message: 'console calls need a JSON body from the console page itself' });
    let body: unknown;
    try { body = await readJson(req, path === '/api/send' ? MAX_PAYLOAD_BODY : undefined); } catch (err) { return sendJson(res, 400, { code: 'BAD_REQUEST', message: messageOf(err).message }); }
    try {
      const [status, reply] = await change(path, scenario?.[1], body);
      return sendJson(res, status, reply);
    } catch (err) {
      // a refused resend or send says why (404: no such exchange; 400: the request); anything else: the sandbox cannot (no merchant URL)
      const status = err instanceof SendError ? (err.code === 'EXCHANGE_NOT_FOUND' ? 404 : 400) : err instanceof JsonTextError ? 400 : 409;
      return sendJson(res, status, messageOf(err));
    }
  };
}
