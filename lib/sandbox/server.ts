/**
 * createSandbox: the local stand-in for the service. One node:http server answers the merchant →
 * service API; the same object drives callbacks at the merchant (scenarios), delivers requested
 * documents to its webhook, runs the conformance checker, and keeps the exchange log and the
 * per-order state that a live view (the web console) subscribes to.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { documentsDelivery, eadDocument } from '../conformance/payloads.js';
import { resolvePaths, type CallbackPaths } from '../conformance/paths.js';
import { runConformance, type ConformanceOptions, type ConformanceReport } from '../conformance/runner.js';
import { checkKeys, invalid } from '../shared/options.js';
import { accepted, sendCallback, type MerchantTarget } from './callbacks.js';
import { createConsole } from './console/index.js';
import { ExchangeLog } from './exchange-log.js';
import { isLoopbackHost, trustedHost } from './host-guard.js';
import { OrderBook } from './orders.js';
import { runScenario, type ScenarioResult } from './scenarios.js';
import { defaultSeed, loadSeedFile, mergeSeed, shipmentForOrder, type SeedData } from './seed.js';
import { createServiceApiHandler } from './service-api.js';

/** The MerchantGUID the sandbox uses when none is given: the example app's demo GUID, so the two match out of the box. */
export const SANDBOX_MERCHANT_GUID = '6a3c1f52-0d7e-4b9a-8f21-5c4e9d0b7a13';

export interface SandboxOptions {
  /** Port of the service API; default 4010; 0 picks a free one. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. Anything but loopback needs `allowRemote: true`. */
  host?: string;
  /** Allow `host` to be a non-loopback interface (the sandbox and console become reachable from the network); default false. */
  allowRemote?: boolean;
  /** Extra Host-header names answered besides localhost, *.localhost and IP literals (e.g. `host.docker.internal`). */
  allowedHosts?: string[];
  /** Base URL of the merchant's callbacks (where the router is mounted); scenarios and document delivery need it. */
  merchantUrl?: string;
  /** The merchant's MerchantGUID, sent in every callback; default SANDBOX_MERCHANT_GUID. */
  merchantGuid?: string;
  /** Callback paths relative to merchantUrl; default the router's DEFAULT_PATHS. */
  paths?: Partial<Record<keyof CallbackPaths, string>>;
  /** A seed file (JSON) merged into the built-in seed data. */
  dataFile?: string;
  /** Seed data (same shape as the file) merged into the built-in seed data. */
  data?: unknown;
  /** The Bearer token the merchant must present; default: any token is accepted. */
  accessToken?: string;
  /** Delay added to every service API reply, ms; default 0. */
  latencyMs?: number;
  /** Delay before requested documents are delivered to the webhook, ms; default 500. */
  documentsDelayMs?: number;
  /** Time-out of each callback sent to the merchant, ms; default 10 000. */
  callbackTimeoutMs?: number;
  /** The merchant's cart token for cart-info (scenarios order that cart's products). */
  cartToken?: string;
  /** Extra headers on every callback (e.g. the merchant's custom auth header). */
  callbackHeaders?: Record<string, string>;
  /** How many exchanges the log keeps; default 1000. */
  logLimit?: number;
  /** Serve the web console at `/` on the same port; default true. */
  console?: boolean;
}

const KNOWN_OPTIONS = [
  'port', 'host', 'merchantUrl', 'merchantGuid', 'paths', 'dataFile', 'data', 'accessToken', 'latencyMs',
  'documentsDelayMs', 'callbackTimeoutMs', 'cartToken', 'callbackHeaders', 'logLimit', 'console', 'allowRemote', 'allowedHosts',
];

export interface ResolvedSandboxOptions {
  port: number;
  host: string;
  /** Host-header names answered besides localhost, *.localhost and IP literals (lower case). */
  allowedHosts: string[];
  merchantUrl?: string;
  merchantGuid: string;
  paths: CallbackPaths;
  accessToken?: string;
  latencyMs: number;
  documentsDelayMs: number;
  callbackTimeoutMs: number;
  cartToken?: string;
  callbackHeaders: Record<string, string>;
}

/** What `Sandbox.configure` may change at run time (the web console's configuration panel). */
export interface SandboxConfigChange {
  /** New base URL of the merchant's callbacks. */
  merchantUrl?: string;
  /** New MerchantGUID sent in callbacks. */
  merchantGuid?: string;
  /** Callback paths merged onto the current ones. */
  paths?: Partial<Record<keyof CallbackPaths, string>>;
  /** New cart token ('' forgets it). */
  cartToken?: string;
}

/** Another request handler on the sandbox's server (resolve true when it answered). */
export type SandboxRoute = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

export interface Sandbox {
  readonly options: ResolvedSandboxOptions;
  readonly log: ExchangeLog;
  readonly orders: OrderBook;
  readonly seed: SeedData;
  readonly server: Server;
  /** http://host:port once listening. */
  readonly url: string | undefined;
  listen(): Promise<string>;
  /** Adds a handler tried before the service API (e.g. the web console at `/`). */
  use(route: SandboxRoute): void;
  /** Changes the merchant URL, GUID, paths or cart token at run time, checked like the options (throws the same errors); returns the new options. */
  configure(change: SandboxConfigChange): ResolvedSandboxOptions;
  /** Runs a scenario against the merchant (needs merchantUrl). */
  runScenario(name: string): Promise<ScenarioResult>;
  /** Runs the conformance checker against the merchant (needs merchantUrl); its exchanges go to the log as scenario `check`. */
  runCheck(options?: Partial<ConformanceOptions>): Promise<ConformanceReport>;
  /** Stops listening, cancels pending document deliveries and waits for those under way. */
  close(): Promise<void>;
}

function nonNegative(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return invalid(`sandbox option ${name} must be a number >= 0 (got ${String(value)})`);
  return value;
}

export function resolveSandboxOptions(options: SandboxOptions = {}): ResolvedSandboxOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return invalid('createSandbox options must be an object');
  checkKeys('', options as Record<string, unknown>, KNOWN_OPTIONS);
  const port = nonNegative('port', options.port, 4010);
  if (!Number.isInteger(port) || port > 65535) return invalid(`sandbox option port must be an integer 0..65535 (got ${port})`);
  if (options.merchantUrl !== undefined) {
    let u: URL;
    try { u = new URL(options.merchantUrl); } catch { return invalid(`sandbox option merchantUrl must be an absolute http(s) URL (got "${options.merchantUrl}")`); }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return invalid(`sandbox option merchantUrl must be http or https (got "${options.merchantUrl}")`);
  }
  for (const key of ['merchantGuid', 'accessToken', 'cartToken', 'host'] as const) {
    const v = options[key];
    if (v !== undefined && (typeof v !== 'string' || v.length === 0)) return invalid(`sandbox option ${key} must be a non-empty string`);
  }
  const host = options.host ?? '127.0.0.1';
  if (options.allowRemote !== undefined && typeof options.allowRemote !== 'boolean') return invalid('sandbox option allowRemote must be a boolean');
  if (!isLoopbackHost(host) && options.allowRemote !== true) {
    return invalid(`sandbox option host "${host}" is not a loopback address: the sandbox and its console would be reachable from the network; set allowRemote: true (--allow-remote) to mean it`);
  }
  const allowedHosts = options.allowedHosts ?? [];
  if (!Array.isArray(allowedHosts) || allowedHosts.some((h) => typeof h !== 'string' || !/^[a-z0-9.-]+$/i.test(h))) {
    return invalid('sandbox option allowedHosts must be an array of host names (letters, digits, dots, dashes)');
  }
  let paths: CallbackPaths;
  try { paths = resolvePaths(options.paths ?? {}); } catch (err) { return invalid(`sandbox option paths: ${(err as Error).message}`); }
  return {
    port, host, allowedHosts: allowedHosts.map((h) => h.toLowerCase()),
    ...(options.merchantUrl ? { merchantUrl: options.merchantUrl.replace(/\/+$/, '') } : {}),
    merchantGuid: options.merchantGuid ?? SANDBOX_MERCHANT_GUID, paths,
    ...(options.accessToken ? { accessToken: options.accessToken } : {}),
    latencyMs: nonNegative('latencyMs', options.latencyMs, 0),
    documentsDelayMs: nonNegative('documentsDelayMs', options.documentsDelayMs, 500),
    callbackTimeoutMs: nonNegative('callbackTimeoutMs', options.callbackTimeoutMs, 10_000) || 10_000,
    ...(options.cartToken ? { cartToken: options.cartToken } : {}),
    callbackHeaders: { ...(options.callbackHeaders ?? {}) },
  };
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const resolved = resolveSandboxOptions(options);
  let seed = defaultSeed(resolved.merchantGuid, resolved.accessToken);
  if (options.dataFile) seed = loadSeedFile(options.dataFile, seed);
  if (options.data !== undefined) seed = mergeSeed(seed, options.data, 'options.data');
  const log = new ExchangeLog(options.logLimit ?? 1000);
  const orders = new OrderBook((order) => log.emit({ type: 'order', order }));
  for (const o of seed.orders) orders.add({ ...o, source: 'seed' });
  const routes: SandboxRoute[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<unknown>>();
  let url: string | undefined;
  let closed = false;

  const target = (): MerchantTarget => {
    if (!resolved.merchantUrl) return invalid('the sandbox has no merchantUrl (--merchant-url): it cannot send callbacks');
    return { merchantUrl: resolved.merchantUrl, merchantGuid: resolved.merchantGuid, paths: resolved.paths, timeoutMs: resolved.callbackTimeoutMs, headers: resolved.callbackHeaders };
  };
  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    p.finally(() => inFlight.delete(p)).catch(() => undefined);
    return p;
  };

  const deliverDocuments = (orderId: string, trackingNumbers: string[]) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (closed) return;
      if (!resolved.merchantUrl) {
        orders.update(orderId, 'documents-not-delivered', () => undefined, { detail: 'no merchant URL (--merchant-url): nowhere to deliver' });
        return;
      }
      const numbers = trackingNumbers.length > 0 ? trackingNumbers : (orders.get(orderId)?.trackingNumbers ?? []);
      const body = documentsDelivery(resolved.merchantGuid, orderId, numbers.map((tn) => eadDocument(orderId, tn, { withData: true, ...(url ? { baseUrl: url } : {}) })));
      track(sendCallback(target(), log, { kind: 'receiveAdditionalRequiredDocuments', label: 'documents webhook (requested documents)', orderId, body, scenario: undefined })
        .then((e) => {
          orders.update(orderId, accepted(e) ? 'documents-delivered' : 'documents-refused', (o) => { if (accepted(e)) o.documentsDelivered = true; },
            { exchangeId: e.id, detail: numbers.join(', ') });
        }));
    }, resolved.documentsDelayMs);
    timers.add(timer);
  };

  const api = createServiceApiHandler({ seed, orders, log, accessToken: resolved.accessToken, latencyMs: resolved.latencyMs, deliverDocuments });

  const server = createServer((req, res) => {
    if (!trustedHost(req.headers.host, resolved.allowedHosts)) {
      // DNS rebinding: a page whose name now points here must not reach the console, its stream or the service API
      res.writeHead(403, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
        .end(JSON.stringify({ Code: 'FORBIDDEN_HOST', Message: 'the sandbox answers only on localhost, an IP address or a name in allowedHosts' }));
      return;
    }
    void (async () => {
      for (const route of routes) if (await route(req, res)) return;
      if (await api(req, res)) return;
      const body = JSON.stringify({ Code: 'NOT_FOUND', Message: 'Not found', Description: `No sandbox endpoint ${req.method} ${new URL(req.url ?? '/', 'http://x').pathname} (see docs/sandbox.md)` });
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(body);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ Code: 'INTERNAL_ERROR', Message: 'Sandbox error' }));
    });
  });

  const sandbox: Sandbox = {
    options: resolved, log, orders, seed, server,
    get url() { return url; },
    listen() {
      return new Promise<string>((resolve, reject) => {
        server.once('error', reject);
        server.listen(resolved.port, resolved.host, () => {
          server.off('error', reject);
          const { port } = server.address() as AddressInfo;
          const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
          url = `http://${host}:${port}`;
          resolve(url);
        });
      });
    },
    use(route) { routes.push(route); },
    configure(change) {
      if (typeof change !== 'object' || change === null || Array.isArray(change)) return invalid('sandbox.configure needs an object');
      checkKeys('configure: ', change as Record<string, unknown>, ['merchantUrl', 'merchantGuid', 'paths', 'cartToken']);
      const next = resolveSandboxOptions({
        merchantUrl: change.merchantUrl ?? resolved.merchantUrl, merchantGuid: change.merchantGuid ?? resolved.merchantGuid,
        paths: { ...resolved.paths, ...(change.paths ?? {}) },
        ...(change.cartToken === '' ? {} : { cartToken: change.cartToken ?? resolved.cartToken }),
      });
      resolved.merchantUrl = next.merchantUrl;
      resolved.merchantGuid = next.merchantGuid;
      resolved.paths = next.paths;
      resolved.cartToken = next.cartToken;
      return resolved;
    },
    runScenario(name) {
      return track(runScenario({
        log, orders, target: target(), ...(resolved.cartToken ? { cartToken: resolved.cartToken } : {}), ...(url ? { documentsBaseUrl: url } : {}),
        onNewOrder: (order) => { seed.shipments.push(shipmentForOrder(order)); },
      }, name));
    },
    runCheck(checkOptions = {}) {
      const t = target();
      const run = log.startRun('check');
      return track(runConformance({
        merchantUrl: t.merchantUrl, merchantGuid: t.merchantGuid, paths: t.paths, headers: t.headers, timeoutMs: resolved.callbackTimeoutMs,
        ...(resolved.cartToken ? { cartToken: resolved.cartToken } : {}), ...checkOptions,
        onExchange: (call) => { log.record({ ...call, scenario: 'check' }); checkOptions.onExchange?.(call); },
      }).then((report) => {
        log.finishRun(run, report.ok, `${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped`);
        return report;
      }, (err: Error) => {
        log.finishRun(run, false, err.message);
        throw err;
      }));
    },
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await Promise.allSettled([...inFlight]);
      if (!server.listening) return;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  if (options.console !== false) sandbox.use(createConsole(sandbox));
  return sandbox;
}
