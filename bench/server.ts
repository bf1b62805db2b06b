/**
 * One benchmark server, run in its own child process:
 * `node --import tsx --import ./bench/compiled-lib.mjs bench/server.ts <kind> [dist folder]` (a kit
 * server runs that build, default this checkout's dist/; BENCH_BASELINE's servers run the baseline's).
 * Listens on 127.0.0.1 (a free port), reports `{ port, features }` to the parent over IPC, answers
 * `{ type: 'stats', gc? }` with its memory and CPU usage (after a GC if asked) and new space's size, exits on `{ type: 'exit' }`.
 */
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import { PG_KIND, SERVER_KINDS, type ServerKind } from './fixtures.js';
import { build } from './servers.js';

const kind = process.argv[2] as ServerKind;
if (!SERVER_KINDS.includes(kind as never) && kind !== PG_KIND) {
  process.stderr.write(`usage: server.ts <${SERVER_KINDS.join('|')}>\n`);
  process.exit(2);
}
const { server, features, ready } = await build(kind, process.argv[3]);
server.keepAliveTimeout = 30_000;
await ready;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'ready', port: (server.address() as AddressInfo).port, features });
});
process.on('message', (msg: { type?: string }) => {
  if (msg?.type === 'stats') {
    if ((msg as { gc?: boolean }).gc) (globalThis as { gc?: () => void }).gc?.();
    const newSpaceBytes = v8.getHeapSpaceStatistics().find((x) => x.space_name === 'new_space')?.space_size ?? 0;
    process.send?.({ type: 'stats', memory: process.memoryUsage(), cpu: process.cpuUsage(), newSpaceBytes });
  } else if (msg?.type === 'exit') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
