/**
 * `npm run start:observability` (PORT, default 3000): the example merchant with the OpenTelemetry SDK.
 * Every span is printed to the console; `curl localhost:3000/metrics` is the Prometheus scrape,
 * `curl localhost:3000/ready` the readiness check. Send it callbacks with `npm run demo`.
 */
import http from 'node:http';
import pino from 'pino';
import { registerTelemetry } from './telemetry.js';
import { createObservableApp } from './app.js';

const telemetry = registerTelemetry();
const port = Number(process.env.PORT ?? 3000);
const app = createObservableApp(telemetry, { logger: pino({ level: process.env.LOG_LEVEL ?? 'warn' }), merchantGuid: process.env.MERCHANT_GUID || undefined });
const server = http.createServer(app);
server.listen(port, () => {
  process.stdout.write([
    `observability example listening on http://localhost:${port} (callbacks under /crossborder, as basic-merchant)`,
    `  spans:      printed below as they end`,
    `  metrics:    curl http://localhost:${port}/metrics`,
    `  readiness:  curl http://localhost:${port}/ready`,
    'Try it: npm run demo',
    '',
  ].join('\n'));
});
server.on('error', (err) => {
  process.stderr.write(`cannot listen on port ${port}: ${err.message}\n`);
  process.exit(1);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => server.close(() => { void telemetry.shutdown().then(() => process.exit(0)); }));
}
