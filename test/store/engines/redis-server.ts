/**
 * A throwaway redis-server (Debian's package, /usr/bin/redis-server) on a free loopback port, for the
 * RedisStore tests: started by the test file, stopped by it (stop() kills it; start() again on the same
 * port and directory, with AOF on, brings back what it had written: a server restart).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once something accepts connections on the port (rejects after `ms`). */
export async function listening(port: number, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => { s.destroy(); resolve(true); });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listened on ${port} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface RedisServer {
  port: number;
  url: string;
  start(): Promise<void>;
  /** Kills the server (SIGKILL: nothing flushed but what AOF with appendfsync always wrote). */
  stop(): Promise<void>;
  /** Stops it and removes its directory. */
  close(): Promise<void>;
}

/** `aof`: appendonly yes, appendfsync always (a kill loses nothing acknowledged). */
export async function redisServer({ aof = false }: { aof?: boolean } = {}): Promise<RedisServer> {
  if (!fs.existsSync(REDIS_SERVER)) throw new Error(`${REDIS_SERVER} is missing: install Debian's redis-server (apt-get install -y redis-server; .ci/run does) or set REDIS_SERVER`);
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cbk-redis-'));
  let child: ChildProcess | undefined;
  const args = () => ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--daemonize', 'no',
    '--appendonly', aof ? 'yes' : 'no', '--appendfsync', 'always', '--loglevel', 'warning'];
  const server: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawn(REDIS_SERVER, args(), { stdio: 'ignore' });
      await listening(port);
    },
    async stop() {
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null) return;
      await new Promise((resolve) => { c.once('exit', resolve); c.kill('SIGKILL'); });
    },
    async close() {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}
