/**
 * Merchants (or services) that misbehave on purpose, on loopback: one that never answers, one that
 * answers a body without end (streamed, never held in memory: "1 GB", though it hangs up itself on a
 * reader that takes ENDLESS_GIVES_UP_AT of it), one that drips its body a byte at a time, one that
 * redirects elsewhere, one that answers a stack trace, and one whose every answer
 * carries script payloads. `hits` counts the requests each server saw; `bytesSent` what the endless
 * body pushed before the reader hung up; `hungUp` the replies whose reader closed the connection
 * before the reply ended (`whenHungUp` waits for them, with no clock of its own).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type HostileMode = 'never' | 'huge' | 'drip' | 'redirect' | 'stack' | 'script';

/** What the `script` mode answers in every text field (and a header): each would set window.__xss if it ran. */
export const XSS_PAYLOADS = [
  '<script>window.__xss=(window.__xss||0)+1</script>',
  '"><img src=x onerror="window.__xss=(window.__xss||0)+1">',
  "'><svg onload=\"window.__xss=(window.__xss||0)+1\"><svg/onload=window.__xss=1>",
  'javascript:window.__xss=(window.__xss||0)+1',
];

export interface Hostile {
  url: string;
  server: Server;
  hits: number;
  bytesSent: number;
  /** Replies whose connection the reader closed before the reply ended (the server's own close() not counted). */
  hungUp: number;
  /** Resolves once `count` replies were hung up on; never settles otherwise (the test's time-out then fails it). */
  whenHungUp(count: number): Promise<void>;
  close(): Promise<void>;
}

const ONE_GB = 1024 ** 3;
/**
 * Where the endless body gives up on one reply and closes the connection itself (64 MiB): far past what a
 * reader that stops at its limit lets through (its limit plus socket buffers, ~4 MiB measured), so a test
 * bounding `bytesSent` below it still fails a reader that reads on, but fast: such a reader (a mutant
 * that buffers everything) no longer takes a minute and 2 GB of memory to read the gigabyte.
 */
export const ENDLESS_GIVES_UP_AT = 64 * 1024 * 1024;

function endless(res: ServerResponse, h: Hostile, gaveUp: Set<ServerResponse>, contentType = 'application/json'): void {
  res.writeHead(200, { 'content-type': contentType, 'content-length': String(ONE_GB) });
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  const pump = () => {
    while (sent < ENDLESS_GIVES_UP_AT && !res.destroyed) {
      sent += chunk.length;
      h.bytesSent += chunk.length;
      if (!res.write(chunk)) { res.once('drain', pump); return; }
    }
    if (!res.destroyed) { gaveUp.add(res); res.destroy(); }
  };
  res.write('{"Success":true,"pad":"');
  pump();
}

export async function startHostile(mode: HostileMode, opts: { redirectTo?: string } = {}): Promise<Hostile> {
  const open = new Set<ServerResponse>();
  const gaveUp = new Set<ServerResponse>();
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  let closing = false;
  const h: Hostile = {
    url: '', server: undefined as unknown as Server, hits: 0, bytesSent: 0, hungUp: 0,
    whenHungUp: (count) => new Promise<void>((resolve) => { if (h.hungUp >= count) resolve(); else waiters.push({ count, resolve }); }),
    close: async () => undefined,
  };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    h.hits++;
    open.add(res);
    res.on('close', () => {
      open.delete(res);
      if (closing || res.writableFinished || gaveUp.has(res)) return;
      h.hungUp++;
      for (const w of waiters.filter((x) => h.hungUp >= x.count)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(); }
    });
    req.resume();
    switch (mode) {
      case 'never': return; // holds the connection, never writes a byte
      case 'huge': return endless(res, h, gaveUp);
      case 'drip': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const timer = setInterval(() => { if (res.destroyed) clearInterval(timer); else res.write(' '); }, 50);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case 'redirect':
        res.writeHead(307, { location: `${opts.redirectTo ?? 'http://127.0.0.1:9'}${req.url ?? '/'}` }).end();
        return;
      case 'stack':
        res.writeHead(500, { 'content-type': 'text/plain' })
          .end('TypeError: Cannot read properties of undefined (reading \'OrderId\')\n    at handle (/srv/shop/node_modules/app/order.js:42:17)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)');
        return;
      case 'script': {
        const [a, b, c, d] = XSS_PAYLOADS;
        res.writeHead(200, { 'content-type': 'application/json', 'x-note': b })
          .end(JSON.stringify({ Success: true, InternalOrderId: b, OrderId: c, ErrorCode: a, Message: d, Reason: c, [b]: a }));
        return;
      }
    }
  };
  h.server = createServer(handle);
  await new Promise<void>((resolve) => h.server.listen(0, '127.0.0.1', resolve));
  h.url = `http://127.0.0.1:${(h.server.address() as AddressInfo).port}`;
  h.close = () => new Promise<void>((resolve) => {
    closing = true;
    for (const res of open) res.destroy();
    h.server.close(() => resolve());
    h.server.closeAllConnections();
  });
  return h;
}
