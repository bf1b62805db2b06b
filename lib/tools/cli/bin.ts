#!/usr/bin/env node
/** The executable: `npx crossborder-merchant-kit …` (package.json "bin" points at the built dist/tools/cli/bin.js). */
import { main } from './main.js';

const controller = new AbortController();
// Only the long-running sandbox closes itself on a signal; the other commands stop the default way.
if (process.argv[2] === 'sandbox') for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => controller.abort());

process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => { process.stdout.write(text); },
  stderr: (text) => { process.stderr.write(text); },
  signal: controller.signal,
});
