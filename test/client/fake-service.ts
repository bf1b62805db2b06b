/**
 * A fake of the service for the client tests: node:http on loopback, answering with a handler and
 * recording every request it received (so retries are counted on the server side).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  /** Date.now() when the request arrived. */
  at: number;
}

export interface Reply {
  status?: number;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait this long before answering (for timeouts). */
  delayMs?: number;
  /** Drop the connection without an answer. */
  destroy?: boolean;
}

export type Handler = (req: Received, nth: number) => Reply | Promise<Reply>;

export interface FakeService {
  url: string;
  received: Received[];
  /** Requests received for a path (all when omitted). */
  count(path?: string): number;
  /** Replaces the handler. */
  answer(handler: Handler): void;
  close(): Promise<void>;
}

export async function fakeService(handler: Handler = () => ({ status: 200, body: {} })): Promise<FakeService> {
  const received: Received[] = [];
  let current = handler;
  /** Answers still held back (delayMs): ended by close(), so no timer outlives the test. */
  const delays = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try { json = body ? JSON.parse(body) : undefined; } catch { json = undefined; }
      const r: Received = { method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, body, json, at: Date.now() };
      received.push(r);
      const reply = await current(r, received.filter((x) => x.path === r.path).length);
      if (reply.delayMs) {
        await new Promise<void>((resolve) => {
          const end = () => { clearTimeout(timer); delays.delete(end); resolve(); };
          const timer = setTimeout(end, reply.delayMs);
          delays.add(end);
        });
      }
      if (reply.destroy) { req.socket.destroy(); return; }
      const text = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      const headers = { ...(typeof reply.body === 'string' ? {} : { 'content-type': 'application/json' }), ...reply.headers };
      if (res.destroyed) return;
      res.writeHead(reply.status ?? 200, headers).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    count: (path) => (path === undefined ? received.length : received.filter((r) => r.path === path).length),
    answer: (h) => { current = h; },
    close: () => new Promise<void>((resolve) => {
      for (const end of [...delays]) end();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** An address where nothing listens (connection refused). */
export async function refusingUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
