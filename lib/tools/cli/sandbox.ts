/** `crossborder-merchant-kit sandbox`: the service's API on a port, callbacks driven at the merchant. */
import { SEED_TOKENS, SEED_TRACKING_NUMBERS } from '../sandbox/seed.js';
import { isLoopbackHost } from '../sandbox/host-guard.js';
import { createSandbox } from '../sandbox/server.js';
import { headerFlags, intFlag, MERCHANT_FLAGS, parse, pathsFlag, urlFlag } from './args.js';
import type { CliIo } from './io.js';
import { describeExchange } from '../sandbox/describe.js';
import { SCENARIO_LIST_LINE } from '../sandbox/scenarios.js';

export const SANDBOX_USAGE = `Usage: crossborder-merchant-kit sandbox [--port 4010] [--host 127.0.0.1 [--allow-remote]] [--allowed-host <name>]
       [--merchant-url <callback base URL>]
       [--guid <MerchantGUID>] [--paths name=/path,...] [--data <seed.json>] [--access-token <token>]
       [--latency-ms 0] [--documents-delay-ms 500] [--cart-token <token>] [--header 'Name: value']
       [--timeout-ms 10000] [--jwt-ttl-ms 900000] [--quiet]

Serves the service's merchant → service API:
  GET  /api/shipments/{trackingNumber}
  POST /additional-required-documents
  POST /Order/UpdateOrderDispatchV2, /Order/UpdateOrderDispatch
  POST /Order/UpdateOrderStatus, /Order/CreateOrderRefund
  PUT  /api/v1/orders/shipping-address          (Idempotency-Key)
  GET  /v1/orders/{orderId}/refunds
  POST /Browsing/ActiveHubDetails
  POST /Order/GetShippingDocuments, /Order/DispatchOrders, /Order/GetOrdersDetails, /Parcel/VoidParcel
  POST /Authentication/GetAuthenticationToken
  POST /Browsing/Countries, /Browsing/Currencies, /Browsing/CurrencyRates, /Browsing/CountryCoefficients,
       /Browsing/RoundingRules, /Browsing/AppSettings, /Browsing/LocationByIP,
       /Browsing/LocationDefaultCulture, /Browsing/RecentProductCountryS, /ShippingDetails/GetShippingDetails,
       /Browsing/AppVersion, /Browsing/ProductCountryS, /Browsing/LocationsDefaultCulturesList
  POST /Order/GetOrdersVATInvoice, /Checkout/SendCartV2
  POST /Browsing/SaveProductsList, /Bulk/SaveProductsBulk, /Browsing/GetCatalogPrices
  POST /Shipment/GetTrackingEvents, /Return/UpdateRMA
  GET  /documents/{orderId}/{name}.pdf          (the documents it issued)
and, with --merchant-url, delivers requested documents to the merchant. The web console is at / .
Docs: https://github.com/crossborder-merchant-kit/crossborder-merchant-kit/blob/main/docs/sandbox.md
Listens on loopback only; --host with another interface needs --allow-remote (the console and the
service API become reachable from the network). Requests must name the sandbox by localhost, an IP
address or a --allowed-host name (no DNS rebinding).
Run scenarios at the merchant with: crossborder-merchant-kit trigger <scenario> --merchant-url ...
`;

export async function sandboxCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, {
    ...MERCHANT_FLAGS, port: { type: 'string' }, host: { type: 'string' }, data: { type: 'string' }, 'access-token': { type: 'string' },
    'latency-ms': { type: 'string' }, 'documents-delay-ms': { type: 'string' }, quiet: { type: 'boolean' },
    'allow-remote': { type: 'boolean' }, 'allowed-host': { type: 'string', multiple: true }, 'jwt-ttl-ms': { type: 'string' },
  }, false);
  if (values.help) { io.stdout(SANDBOX_USAGE); return 0; }
  const host = values.host ? String(values.host) : '127.0.0.1';
  if (values['allow-remote'] && !isLoopbackHost(host)) {
    io.stderr(`sandbox: WARNING: listening on ${host} (--allow-remote): anyone who can reach this interface can use the console, run scenarios against your merchant and read the exchange log. Use it only on a network you trust.\n`);
  }
  const sandbox = createSandbox({
    port: intFlag(values.port, 'port', 4010), host, ...(values['allow-remote'] ? { allowRemote: true } : {}),
    ...(values['allowed-host'] ? { allowedHosts: (values['allowed-host'] as string[]).map(String) } : {}),
    ...(values['merchant-url'] !== undefined ? { merchantUrl: urlFlag(values['merchant-url'], '--merchant-url') } : {}),
    ...(values.guid ? { merchantGuid: String(values.guid) } : {}), paths: pathsFlag(values.paths),
    ...(values.data ? { dataFile: String(values.data) } : {}), ...(values['access-token'] ? { accessToken: String(values['access-token']) } : {}),
    latencyMs: intFlag(values['latency-ms'], 'latency-ms', 0), documentsDelayMs: intFlag(values['documents-delay-ms'], 'documents-delay-ms', 500),
    callbackTimeoutMs: intFlag(values['timeout-ms'], 'timeout-ms', 10_000, 1), callbackHeaders: headerFlags(values.header),
    ...(values['cart-token'] ? { cartToken: String(values['cart-token']) } : {}),
    ...(values['jwt-ttl-ms'] !== undefined ? { jwtTtlMs: intFlag(values['jwt-ttl-ms'], 'jwt-ttl-ms', 900_000, 1) } : {}),
  });
  let url: string;
  try {
    url = await sandbox.listen();
  } catch (err) {
    const inUse = (err as { code?: string }).code === 'EADDRINUSE';
    io.stderr(`sandbox: cannot listen on ${sandbox.options.host}:${sandbox.options.port}: ${(err as Error).message}${inUse ? `\n  the port is in use (another sandbox, or npm start?): choose another with --port, e.g. --port ${sandbox.options.port + 1}, or --port 0 for any free port` : ''}\n`);
    return 1;
  }
  const o = sandbox.options;
  const t = SEED_TRACKING_NUMBERS;
  io.stdout([
    // the port in use, the one the system chose for --port 0 too
    `crossborder-merchant-kit sandbox listening on ${url} (port ${new URL(url).port}${o.port === 0 ? ', chosen for --port 0' : ''})`,
    `  MerchantGUID ${o.merchantGuid}; access token: ${o.accessToken ? 'the one given by --access-token' : 'any Bearer token'}; JWT user ${o.jwtUserName} (tokens live ${o.jwtTtlMs} ms)`,
    `  web console: ${url}/`,
    `  merchant callbacks: ${o.merchantUrl ?? 'none (no --merchant-url: the service API works, nothing is sent to a merchant)'}`,
    // npx: the bin of a package installed in the project is not on PATH, so the bare name is "command not found"
    ...(o.merchantUrl ? [
      `  run through it (shown in the console): npx crossborder-merchant-kit trigger full --sandbox ${url}; npx crossborder-merchant-kit check --sandbox ${url}`, `  ${SCENARIO_LIST_LINE}`] : []),
    `  try: curl -H 'Authorization: Bearer ${o.accessToken ? '<your token>' : 'any'}' ${url}/api/shipments/${t.ok}`,
    `  seed: ${t.ok} (ok), ${t.otherMerchant} (A810), ${t.missingEori} (409), ${t.internalError} (500); token ${SEED_TOKENS.apiDisabled} → 403; docs/sandbox.md`,
    '',
  ].join('\n'));
  io.onListening?.(url);
  const stop = values.quiet ? () => undefined : sandbox.log.subscribe((event) => {
    if (event.type === 'exchange') io.stdout(describeExchange(event.exchange));
  });
  await new Promise<void>((resolve) => {
    if (!io.signal) return;
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  stop();
  await sandbox.close();
  io.stdout('sandbox stopped\n');
  return 0;
}
