/**
 * A loopback TCP proxy in front of a server whose client-to-server bytes can be held back: while
 * `stall(ms)` is in force, what a client sends reaches the server only `ms` later (in order), as a
 * request stuck in a congested network or a paused VM would. The server's answers pass at once.
 */
import net from 'node:net';

export interface StallProxy {
  port: number;
  /** Holds back what clients send from now on, each chunk for `ms`; stall(0) ends it for what comes next. */
  stall(ms: number): void;
  close(): Promise<void>;
}

export async function stallProxy(target: number): Promise<StallProxy> {
  let stallMs = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target, '127.0.0.1');
    sockets.add(client).add(upstream);
    // Chunks leave in order: each no earlier than its own release time nor before the one ahead of it.
    let last = Promise.resolve();
    client.on('data', (chunk) => {
      const due = Date.now() + stallMs;
      last = last.then(() => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())))).then(() => {
        if (!upstream.destroyed) upstream.write(chunk);
      });
    });
    upstream.pipe(client);
    const end = () => { client.destroy(); upstream.destroy(); sockets.delete(client); sockets.delete(upstream); };
    // A client that gave up (closed) does not take back what it sent: held bytes still reach the server, then the connection ends.
    client.on('close', () => void last.then(() => upstream.end()));
    upstream.on('close', end);
    client.on('error', () => {});
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    stall: (ms) => { stallMs = ms; },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
