// Runs a bundled Worker in workerd through Miniflare, with nodejs_compat and the recipe's Durable Object
// binding (CALLBACK_STORE: CallbackStoreObject), as `wrangler dev` would;
// prints `listening <url>` and runs until killed. Usage: node miniflare.mjs <bundle.mjs>
import fs from 'node:fs';
import { Miniflare } from 'miniflare';

export const COMPATIBILITY_DATE = '2025-07-18';
const mf = new Miniflare({
  // The bundle handed over as wrangler hands it (Miniflare's own module walk refuses the kit's import() of
  // an optional package by name, which fails at run time and is caught: no OpenTelemetry in this Worker).
  modules: [{ type: 'ESModule', path: 'worker.mjs', contents: fs.readFileSync(process.argv[2], 'utf8') }], compatibilityDate: COMPATIBILITY_DATE, compatibilityFlags: ['nodejs_compat'],
  // The recipe's Durable Object store (wrangler.toml's [[durable_objects.bindings]], docs/bindings.md).
  durableObjects: { CALLBACK_STORE: 'CallbackStoreObject' },
  host: '127.0.0.1', port: 0,
});
const url = await mf.ready;
console.log(`listening ${url.origin}`);
const stop = async () => { await mf.dispose(); process.exit(0); };
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
