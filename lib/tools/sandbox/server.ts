/// <reference types="node" preserve="true" />
/**
 * createSandbox: the local stand-in for the service. One node:http server answers the merchant →
 * service API; the same object drives callbacks at the merchant (scenarios), delivers requested
 * documents to its webhook, runs the conformance checker, and keeps the exchange log and the
 * per-order state that a live view (the web console) subscribes to. Its options: options.ts.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toJson } from '../conformance/report.js';
import { runConformance, type ConformanceOptions, type ConformanceReport } from '../conformance/runner.js';
import { invalid } from '../../shared/options.js';
import type { RecordedCall } from '../conformance/context.js';
import { cutReply, type MerchantTarget } from './callbacks.js';
import { createConsole } from './console/index.js';
import { createDocumentDeliveries } from './deliveries.js';
import { recordCheckOrder } from './check-orders.js';
import { ExchangeLog, type RunResult } from './exchange-log.js';
import { createFollowUps } from './follow-ups.js';
import { trustedHost } from './host-guard.js';
import { applyConfigChange, resolveSandboxOptions, type ResolvedSandboxOptions, type SandboxConfigChange, type SandboxOptions } from './options.js';
import { OrderBook } from './orders.js';
import { runScenario, type ScenarioResult } from './scenarios.js';
import { defaultSeed, loadSeedFile, mergeSeed, shipmentForOrder, type SeedData } from './seed.js';
import { createServiceApiHandler } from './service-api.js';
import { createFulfilment } from './fulfilment.js';
import { createCatalogue, type Catalogue } from './catalogue.js';
import { createShippingInfoNotifier } from './shipping-info.js';
import { createParcelDispatchNotifier } from './parcel-dispatch.js';
import { resendExchange, sendPayload, type SendPayloadOptions } from './resend.js';
import type { Exchange } from './exchange-log.js';
import { checkKeys } from '../../shared/options.js';

/** Another request handler on the sandbox's server (resolve true when it answered). */
export type SandboxRoute = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

/**
 * The sandbox: the service's API with seed data on a local port, callback scenarios against your
 * merchant, the conformance checker and the web console ({@link createSandbox}).
 */
export interface Sandbox {
  readonly options: ResolvedSandboxOptions;
  readonly log: ExchangeLog;
  readonly orders: OrderBook;
  readonly seed: SeedData;
  readonly server: Server;
  /** The browsing data, the saved catalogue and the price preview (catalogue.ts; docs/prices.md). */
  readonly catalogue: Catalogue;
  /** http://host:port once listening. */
  readonly url: string | undefined;
  /** Starts listening; resolves to the sandbox's URL (`http://host:port`). */
  listen(): Promise<string>;
  /** Adds a handler tried before the service API (e.g. the web console at `/`). */
  use(route: SandboxRoute): void;
  /** Changes the merchant URL, GUID, paths or cart token at run time, checked like the options (throws the same errors); returns the new options. */
  configure(change: SandboxConfigChange): ResolvedSandboxOptions;
  /** Runs a scenario against the merchant (needs merchantUrl). */
  runScenario(name: string): Promise<ScenarioResult>;
  /** Runs the conformance checker against the merchant (needs merchantUrl); its exchanges go to the log as scenario `check`, its orders to `orders`. */
  runCheck(options?: Partial<ConformanceOptions>): Promise<ConformanceReport>;
  /**
   * Sends the logged callback `exchangeId` again to the merchant (needs merchantUrl), as the log holds it
   * (card data masked); resolves the new exchange. Throws `SendError` (`EXCHANGE_NOT_FOUND`, `NOT_A_CALLBACK`).
   */
  resend(exchangeId: number): Promise<Exchange>;
  /**
   * Sends a captured payload as a callback (needs merchantUrl), with the sandbox's MerchantGUID and
   * callback headers; resolves the exchange. Throws `SendError` (`UNKNOWN_CALLBACK`, `INVALID_PAYLOAD`)
   * or `JsonTextError` (`INVALID_JSON`, naming the position only).
   */
  send(options: SendPayloadOptions): Promise<Exchange>;
  /** The latest result of each scenario run and of the check, oldest first (what the console shows after a reload). */
  results(): RunResult[];
  /** Stops listening, cancels pending document deliveries and waits for those under way. */
  close(): Promise<void>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The built-in seed, then the seed file, then `options.data` merged onto it. */
function loadSeed(options: SandboxOptions, resolved: ResolvedSandboxOptions): SeedData {
  let seed = defaultSeed(resolved.merchantGuid, resolved.accessToken);
  if (options.dataFile) seed = loadSeedFile(options.dataFile, seed);
  if (options.data !== undefined) seed = mergeSeed(seed, options.data, 'options.data');
  return seed;
}

function merchantTarget(resolved: ResolvedSandboxOptions): MerchantTarget {
  if (!resolved.merchantUrl) return invalid('the sandbox has no merchantUrl (--merchant-url): it cannot send callbacks');
  return { merchantUrl: resolved.merchantUrl, merchantGuid: resolved.merchantGuid, paths: resolved.paths, timeoutMs: resolved.callbackTimeoutMs, headers: resolved.callbackHeaders };
}

/** The Host guard, then the added routes (the console), then the service API; else 404, and 500 when a route throws. */
function requestListener(resolved: ResolvedSandboxOptions, routes: readonly SandboxRoute[], api: SandboxRoute): RequestListener {
  return (req, res) => {
    if (!trustedHost(req.headers.host, resolved.allowedHosts)) {
      // DNS rebinding: a page whose name now points here must not reach the console, its stream or the service API
      res.writeHead(403, { 'content-type': JSON_TYPE, 'cache-control': 'no-store' })
        .end(JSON.stringify({ Code: 'FORBIDDEN_HOST', Message: 'the sandbox answers only on localhost, an IP address or a name in allowedHosts' }));
      return;
    }
    void (async () => {
      for (const route of routes) if (await route(req, res)) return;
      if (await api(req, res)) return;
      const body = JSON.stringify({ Code: 'NOT_FOUND', Message: 'Not found', Description: `No sandbox endpoint ${req.method} ${new URL(req.url ?? '/', 'http://x').pathname} (see docs/sandbox.md)` });
      res.writeHead(404, { 'content-type': JSON_TYPE, 'cache-control': 'no-store' }).end(body);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': JSON_TYPE });
      res.end(JSON.stringify({ Code: 'INTERNAL_ERROR', Message: 'Sandbox error' }));
    });
  };
}

/** Listens on the configured host and port; resolves the server's URL (IPv6 hosts in brackets). */
function listenOn(server: Server, resolved: ResolvedSandboxOptions): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    server.once('error', reject);
    server.listen(resolved.port, resolved.host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
      resolve(`http://${host}:${port}`);
    });
  });
}

/**
 * A checker's exchange as the log keeps it: a reply cut at the size limit (the checker's HTTP layer
 * sets `error` beside a status only then) keeps 2 000 characters and the marker, as a scenario's does.
 */
function keptOf(call: RecordedCall): RecordedCall {
  const body = call.response?.body;
  if (call.response === undefined || call.error === undefined || typeof body !== 'string') return call;
  return { ...call, response: { ...call.response, body: cutReply(body) } };
}

/** The conformance checker against the merchant, its exchanges and its outcome in the log as run `check`. */
function checkMerchant(log: ExchangeLog, orders: OrderBook, resolved: ResolvedSandboxOptions, checkOptions: Partial<ConformanceOptions>): Promise<ConformanceReport> {
  const t = merchantTarget(resolved);
  const run = log.startRun('check');
  return runConformance({
    merchantUrl: t.merchantUrl, merchantGuid: t.merchantGuid, paths: t.paths, headers: t.headers, timeoutMs: resolved.callbackTimeoutMs,
    ...(resolved.cartToken ? { cartToken: resolved.cartToken } : {}), ...checkOptions,
    onExchange: (call) => { recordCheckOrder(orders, log.record({ ...keptOf(call), scenario: 'check' })); checkOptions.onExchange?.(call); },
  }).then((report) => {
    log.finishRun(run, report.ok, `${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped`);
    return report;
  }, (err: Error) => {
    log.finishRun(run, false, err.message);
    throw err;
  });
}

/**
 * The service on your laptop (`crossborder-merchant-kit sandbox`): its API with deterministic seed data,
 * callback scenarios against your merchant, the conformance checker and the web console. Listens on
 * loopback only unless `allowRemote`. Call `listen()` to start and `close()` to stop. See docs/sandbox.md.
 *
 * @param options - Port (default 4010), host, the merchant URL and MerchantGUID, seed data, time-outs: {@link SandboxOptions}.
 * @throws KitError `ERR_CBK_OPTION_INVALID` or `ERR_CBK_OPTION_UNKNOWN` for a wrong or unknown option;
 * {@link SeedError} for unusable seed data.
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const resolved = resolveSandboxOptions(options);
  const seed = loadSeed(options, resolved);
  const log = new ExchangeLog(resolved.logLimit);
  const orders = new OrderBook((order) => log.emit({ type: 'order', order }));
  for (const o of seed.orders) orders.add({ ...o, source: 'seed' });
  const routes: SandboxRoute[] = [];
  const inFlight = new Set<Promise<unknown>>();
  let url: string | undefined;

  const target = () => merchantTarget(resolved);
  // the latest result per scenario and of the check, re-inserted so the map stays in run order
  const results = new Map<string, RunResult>();
  const keep = <T>(result: RunResult, value: T): T => {
    results.delete(`${result.kind}:${result.name}`);
    results.set(`${result.kind}:${result.name}`, result);
    log.emit({ type: 'result', result });
    return value;
  };
  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    p.finally(() => inFlight.delete(p)).catch(() => undefined);
    return p;
  };
  const documents = createDocumentDeliveries({ resolved, log, orders, target, track, baseUrl: () => url });
  const followUps = createFollowUps({ resolved, log, orders, target, track });
  const shippingInfo = createShippingInfoNotifier({ resolved, log, orders, target, track });
  const parcelsDispatched = createParcelDispatchNotifier({ resolved, log, orders, target, track });
  // After a manifest: the order's UpdateOrderShippingInfo, and an UpdateParcelDispatch per parcel.
  const shipped = (orderId: string) => { shippingInfo(orderId); parcelsDispatched(orderId); };
  const fulfilment = createFulfilment({ orders, seed, settings: resolved, baseUrl: () => url, shipped });
  const catalogue = createCatalogue();
  const api = createServiceApiHandler({
    seed, orders, log, accessToken: resolved.accessToken, latencyMs: resolved.latencyMs, deliverDocuments: documents.deliver, followUp: followUps.schedule, fulfilment,
    catalogue,
  });
  const server = createServer(requestListener(resolved, routes, api));

  const sandbox: Sandbox = {
    options: resolved, log, orders, seed, server, catalogue,
    get url() { return url; },
    listen() {
      return listenOn(server, resolved).then((u) => (url = u));
    },
    use(route) { routes.push(route); },
    configure(change) { return applyConfigChange(resolved, change); },
    runScenario(name) {
      return track(runScenario({
        log, orders, target: target(), ...(resolved.cartToken ? { cartToken: resolved.cartToken } : {}), ...(url ? { documentsBaseUrl: url } : {}),
        onNewOrder: (order) => { seed.shipments.push(shipmentForOrder(order)); },
        ...(resolved.merchantStore ? { merchantStore: resolved.merchantStore } : {}),
      }, name).then((r) => keep({ kind: 'scenario', name, at: new Date().toISOString(), ok: r.ok, data: r }, r)));
    },
    runCheck(checkOptions = {}) {
      return track(checkMerchant(log, orders, resolved, checkOptions)
        .then((r) => keep({ kind: 'check', name: 'check', at: new Date().toISOString(), ok: r.ok, data: toJson(r) }, r)));
    },
    resend(exchangeId) {
      return track(Promise.resolve().then(() => resendExchange(target(), log, exchangeId)));
    },
    send(sendOptions) {
      return track(Promise.resolve().then(() => {
        if (typeof sendOptions !== 'object' || sendOptions === null) return invalid('sandbox.send needs { callback, payload }');
        checkKeys('sandbox.send.', sendOptions as unknown as Record<string, unknown>, ['callback', 'payload']);
        return sendPayload(target(), log, sendOptions);
      }));
    },
    results: () => [...results.values()],
    async close() {
      documents.cancel();
      followUps.cancel();
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
