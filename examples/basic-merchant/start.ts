/**
 * `npm start`: the example merchant app and the sandbox of the service pointed at it, with the
 * lines saying what to run next. PORT (default 3000), SANDBOX_PORT (default 4010), HOST (default
 * 127.0.0.1), MERCHANT_GUID (default the demo GUID), LOG_LEVEL of the example app (default error:
 * the sandbox prints every exchange). The example alone: npm run start:merchant.
 */
import pino from 'pino';
import { startLoop } from './loop.js';

const merchantPort = Number(process.env.PORT ?? 3000);
const sandboxPort = Number(process.env.SANDBOX_PORT ?? 4010);
const loop = await startLoop({
  merchantPort,
  sandboxPort,
  host: process.env.HOST || '127.0.0.1',
  ...(process.env.MERCHANT_GUID ? { merchantGuid: process.env.MERCHANT_GUID } : {}),
  logger: pino({ level: process.env.LOG_LEVEL ?? 'error' }),
  onExchange: (text) => { process.stdout.write(text); },
}).catch((err: Error & { code?: string; port?: number }) => {
  // which port is taken, and the variable that moves it
  const taken = err.code === 'EADDRINUSE' && err.port !== undefined
    ? `port ${err.port} is in use: set ${err.port === merchantPort ? 'PORT' : 'SANDBOX_PORT'} to another (0: any free port)`
    : 'ports in use? set PORT and SANDBOX_PORT';
  process.stderr.write(`npm start: cannot start the loop: ${err.message}\n(${taken})\n`);
  process.exit(1);
});
process.stdout.write(loop.banner);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => { void loop.close().then(() => process.exit(0)); });
}
