/**
 * Runs the example merchant app alone: `npm run start:merchant` (PORT, default 3000; MERCHANT_GUID, default the demo GUID;
 * LOG_LEVEL, default info). Then `npm run demo` in another terminal.
 */
import http from 'node:http';
import pino from 'pino';
import { createExampleApp, DEMO_MERCHANT_GUID, mountedUrls } from './app.js';

const port = Number(process.env.PORT ?? 3000);
const merchantGuid = process.env.MERCHANT_GUID || DEMO_MERCHANT_GUID;
const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' });
const { app } = createExampleApp({ merchantGuid, logger });

// A plain http.Server: its listen callback runs only once listening (Express 5's app.listen also
// calls it with the error when the port is taken, which printed the banner for a server that never ran).
const server = http.createServer(app);
server.listen(port, () => {
  const origin = `http://localhost:${port}`;
  process.stdout.write([
    `basic-merchant example listening on ${origin}`,
    `MerchantGUID: ${merchantGuid === DEMO_MERCHANT_GUID ? `${DEMO_MERCHANT_GUID} (demo default; set MERCHANT_GUID to change)` : 'from MERCHANT_GUID'}`,
    'Callbacks:',
    ...mountedUrls(origin).map((u) => `  ${u}`),
    'Try it: npm run demo',
    '',
  ].join('\n'));
});
server.on('error', (err) => {
  process.stderr.write(`cannot listen on port ${port}: ${err.message}\n`);
  process.exit(1);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.close(() => process.exit(0)));
