/**
 * A throwaway DynamoDB for the DynamoDBStore tests: dynalite (DynamoDB's API on LevelDB, npm) as a
 * child process on a free loopback port, in memory or (with `path`) on disk, so that stop() (SIGKILL)
 * and start() again is a server restart that keeps what it wrote.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { freePort, listening } from './redis-server.js';

const CLI = createRequire(import.meta.url).resolve('dynalite/cli.js');

export interface Dynalite {
  port: number;
  endpoint: string;
  /** A client of its own (as another process has); destroyed by close(). */
  client(options?: { maxAttempts?: number; port?: number }): DynamoDBClient;
  start(): Promise<void>;
  stop(): Promise<void>;
  close(): Promise<void>;
}

export async function startDynalite({ path }: { path?: string } = {}): Promise<Dynalite> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const clients: DynamoDBClient[] = [];
  const d: Dynalite = {
    port,
    endpoint: `http://127.0.0.1:${port}`,
    client: ({ maxAttempts = 2, port: via = port } = {}) => {
      const c = new DynamoDBClient({
        endpoint: `http://127.0.0.1:${via}`, region: 'us-east-1', maxAttempts, credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      });
      clients.push(c);
      return c;
    },
    async start() {
      child = spawn(process.execPath, [CLI, '--port', String(port), '--host', '127.0.0.1', '--createTableMs', '0', '--deleteTableMs', '0', '--updateTableMs', '0',
        ...(path ? ['--path', path] : [])], { stdio: 'ignore', env: { ...process.env, NODE_OPTIONS: '' } });
      await listening(port);
    },
    async stop() {
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null) return;
      await new Promise((resolve) => { c.once('exit', resolve); c.kill('SIGKILL'); });
    },
    async close() {
      for (const c of clients) c.destroy();
      await d.stop();
    },
  };
  await d.start();
  return d;
}
