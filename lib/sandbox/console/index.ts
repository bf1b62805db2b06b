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
import { toJson } from '../../conformance/report.js';
import type { ConformanceReport } from '../../conformance/runner.js';
import type { ExchangeLog, SandboxEvent } from '../exchange-log.js';
import type { OrderBook, OrderState } from '../orders.js';
import { SCENARIO_DESCRIPTIONS, SCENARIO_NAMES, type ScenarioResult } from '../scenarios.js';
import { loadAssets, type Asset } from './assets.js';
import { configView, maskForConsole, summarize } from './view.js';

/** The Host check now guards every route of the sandbox (server.ts); kept here for existing imports. */
export { trustedHost } from '../host-guard.js';

/** Where the console's own endpoints live (the service API never uses this prefix). */
export const CONSOLE_PREFIX = '/_console';

/** What the console needs of a sandbox (createSandbox's object has all of it). */
export interface ConsoleHost {
  readonly options: { merchantUrl?: string; merchantGuid: string; cartToken?: string; paths: Record<string, string> };
  readonly log: ExchangeLog;
  readonly orders: OrderBook;
  readonly url: string | undefined;
  configure(change: { merchantUrl?: string; merchantGuid?: string; cartToken?: string; paths?: Record<string, string> }): unknown;
  runScenario(name: string): Promise<ScenarioResult>;
  runCheck(): Promise<ConformanceReport>;
}

export interface ConsoleOptions {
  /** Exchanges sent to a browser when it connects (newest kept); default 500. The page keeps as many. */
  snapshotLimit?: number;
  /** Event streams (open console tabs) served at once; one more is answered 503; default 8. */
  maxStreams?: number;
}

type Route = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

const JSON_TYPE = 'application/json; charset=utf-8';
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const MAX_BODY = 64 * 1024;

function sendJson(res: ServerResponse, status: number, body: unknown): true {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': JSON_TYPE, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) }).end(text);
  return true;
}

function sendAsset(res: ServerResponse, asset: Asset): true {
  res.writeHead(200, {
    ...SECURITY_HEADERS, 'content-type': asset.type, 'content-length': asset.body.length, 'cache-control': 'no-cache', etag: asset.etag,
    ...(asset.type.startsWith('text/html') ? { 'content-security-policy': CSP } : {}),
  }).end(asset.body);
  return true;
}

/** A state-changing call from the console itself: JSON body, and same origin when the browser says where it came from. */
function sameOrigin(req: IncomingMessage): boolean {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return false;
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try { return new URL(origin).host === req.headers.host; } catch { return false; }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error(`body larger than ${MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : {};
}

function messageOf(err: unknown): { code?: string; message: string } {
  const e = err as { code?: unknown; message?: unknown };
  return { ...(typeof e?.code === 'string' ? { code: e.code } : {}), message: typeof e?.message === 'string' ? e.message : String(err) };
}

/** The console as a route for `sandbox.use()`. */
export function createConsole(host: ConsoleHost, options: ConsoleOptions = {}): Route {
  const assets = loadAssets();
  const snapshotLimit = options.snapshotLimit ?? 500;
  const maxStreams = options.maxStreams ?? 8;
  const streams = new Set<ServerResponse>();
  const guid = () => host.options.merchantGuid;
  const orderView = (o: OrderState) => maskForConsole(o, guid());
  const config = () => configView(host.options, host.url);

  const write = (res: ServerResponse, event: string, data: unknown) => { res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`); };
  const broadcast = (event: string, data: unknown) => { for (const res of streams) write(res, event, data); };

  const toStream = (event: SandboxEvent): [string, unknown] => {
    switch (event.type) {
      case 'exchange': return ['exchange', summarize(event.exchange, guid())];
      case 'order': return ['order', orderView(event.order)];
      default: return ['run', { ...event.scenario, state: event.type === 'scenario-started' ? 'started' : 'finished' }];
    }
  };

  const events = (req: IncomingMessage, res: ServerResponse): true => {
    if (streams.size >= maxStreams) {
      return sendJson(res, 503, { code: 'TOO_MANY_STREAMS', message: `the console serves at most ${maxStreams} open pages; close one and reload` });
    }
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write('retry: 1000\n\n');
    write(res, 'snapshot', {
      config: config(),
      scenarios: SCENARIO_NAMES.map((name) => ({ name, description: SCENARIO_DESCRIPTIONS[name] })),
      exchanges: host.log.list().slice(-snapshotLimit).map((e) => summarize(e, guid())),
      // the page keeps as many as the snapshot and shows how many older ones it no longer has
      keep: snapshotLimit, total: host.log.total,
      orders: host.orders.list().map(orderView),
    });
    const stop = host.log.subscribe((event) => { const [name, data] = toStream(event); write(res, name, data); });
    const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
    ping.unref();
    streams.add(res);
    const end = () => { clearInterval(ping); stop(); streams.delete(res); };
    req.on('close', end);
    res.on('close', end);
    return true;
  };

  const api = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    const method = req.method ?? 'GET';
    const exchange = /^\/api\/exchanges\/(\d+)$/.exec(path);
    if (exchange && method === 'GET') {
      const e = host.log.get(Number(exchange[1]));
      return e ? sendJson(res, 200, { summary: summarize(e, guid()), exchange: maskForConsole(e, guid()) })
        : sendJson(res, 404, { code: 'NOT_FOUND', message: `no exchange ${exchange[1]} (the log keeps the latest ${host.log.limit})` });
    }
    if (path === '/api/config' && method === 'GET') return sendJson(res, 200, config());
    if (path === '/api/orders' && method === 'GET') return sendJson(res, 200, host.orders.list().map(orderView));
    const scenario = /^\/api\/scenarios\/([a-z-]+)$/.exec(path);
    const writes = path === '/api/config' || path === '/api/check' || scenario !== null;
    if (!writes) return false;
    if (method !== (path === '/api/config' ? 'PUT' : 'POST')) return sendJson(res, 405, { code: 'METHOD_NOT_ALLOWED', message: `${method} is not allowed here` });
    if (!sameOrigin(req)) return sendJson(res, 403, { code: 'FORBIDDEN', message: 'console calls need a JSON body from the console page itself' });
    let body: unknown;
    try { body = await readJson(req); } catch (err) { return sendJson(res, 400, { code: 'BAD_REQUEST', message: messageOf(err).message }); }
    try {
      if (path === '/api/config') {
        host.configure(body as Parameters<ConsoleHost['configure']>[0]);
        broadcast('config', config());
        return sendJson(res, 200, config());
      }
      if (path === '/api/check') {
        // exactly the CLI's `check --json` document
        return sendJson(res, 200, toJson(await host.runCheck()));
      }
      const name = scenario![1];
      if (!(SCENARIO_NAMES as readonly string[]).includes(name)) return sendJson(res, 404, { code: 'UNKNOWN_SCENARIO', message: `unknown scenario "${name}"` });
      return sendJson(res, 200, await host.runScenario(name));
    } catch (err) {
      return sendJson(res, 409, messageOf(err));
    }
  };

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
    if (method === 'GET' && rest === '/events') return events(req, res);
    if (method === 'GET' && rest === '/console.css') return sendAsset(res, assets.css);
    if (method === 'GET' && rest === '/console.js') return sendAsset(res, assets.js);
    if (await api(req, res, rest)) return true;
    return sendJson(res, 404, { code: 'NOT_FOUND', message: `no console endpoint ${method} ${path}` });
  };
}
