/**
 * CallbackStoreObject in workerd, through Miniflare (nodejs_compat, as wrangler runs it): the
 * object's module bundled from lib/ with esbuild, bound as CALLBACK_STORE, behind a Worker that
 * hands each request to the object its path names (`/<object name>`). The tests' stores run in Node
 * on a namespace whose stubs POST there over loopback HTTP, one connection per request (each
 * `namespace()` a client of its own over the same objects, as a second Worker isolate has).
 * `stop()` and `start()` stop workerd and start it again over the same persisted storage (the
 * objects restarted, their storage kept); requests meanwhile fail as an unreachable object's do.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { Miniflare } from 'miniflare';
import { DurableObjectStore, type DurableObjectNamespaceLike } from 'crossborder-merchant-kit/store/durable-object';
import type { FullStore, StoreFactory } from './harness.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The runtime matrix's compatibility date (.ci/runtimes/miniflare.mjs). */
export const COMPATIBILITY_DATE = '2025-07-18';

let bundled: Promise<string> | undefined;
/** The Worker: CallbackStoreObject, and a fetch handler passing each request to the object its path names. */
function workerScript(): Promise<string> {
  bundled ??= esbuild.build({
    stdin: {
      contents: `export { CallbackStoreObject } from './lib/store/durable-object-object.ts';\nexport default { fetch: (req, env) => env.CALLBACK_STORE.get(env.CALLBACK_STORE.idFromName(decodeURIComponent(new URL(req.url).pathname.slice(1)))).fetch(req) };\n`,
      resolveDir: ROOT, loader: 'ts', sourcefile: 'worker.ts',
    },
    bundle: true, format: 'esm', platform: 'neutral', target: 'es2022', write: false, logLevel: 'error',
    external: ['node:*'], mainFields: ['module', 'main'],
  }).then((r) => r.outputFiles[0].text);
  return bundled;
}

/** A file's text (latin1), or '' for a directory or a file SQLite removed meanwhile (its -shm, -journal). */
function readIfThere(file: string): string {
  try {
    return fs.statSync(file).isFile() ? fs.readFileSync(file, 'latin1') : '';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

export interface Objects {
  /**
   * A namespace client of its own (a Worker isolate's `env.CALLBACK_STORE`) over the objects of
   * `space` (default 'default'): the objects of two spaces are apart, as two Workers' namespaces are.
   */
  namespace(space?: string): DurableObjectNamespaceLike;
  /** Everything the objects stored (the persisted files, as text; '' with `persist: false`), to search for leaked values. */
  scan(): string;
  /** Stops workerd: every request fails (as an unreachable object's) until start(). */
  stop(): Promise<void>;
  /** Starts workerd again over the same storage (the objects restarted, their storage kept). */
  start(): Promise<void>;
  dispose(): Promise<void>;
}

/** `persist: false`: storage in memory (what stop() and start() keep is then lost). */
export async function startObjects({ persist: onDisk = true }: { persist?: boolean } = {}): Promise<Objects> {
  const persist = fs.mkdtempSync(path.join(os.tmpdir(), 'cbk-do-'));
  const options = {
    modules: [{ type: 'ESModule' as const, path: 'worker.mjs', contents: await workerScript() }],
    compatibilityDate: COMPATIBILITY_DATE, compatibilityFlags: ['nodejs_compat'],
    durableObjects: { CALLBACK_STORE: 'CallbackStoreObject' }, ...(onDisk ? { durableObjectsPersist: persist } : {}), host: '127.0.0.1', port: 0,
  };
  let mf = new Miniflare(options);
  let url = await mf.ready;
  const agents: http.Agent[] = [];
  /** One POST to the Worker, on a kept-alive connection of `agent` (sent again once when workerd had closed a reused one: it never arrived). */
  const post = (agent: http.Agent, name: string, body: string) => new Promise<{ status: number; json(): Promise<unknown> }>((resolve, reject) => {
    const req = http.request(new URL(`/${encodeURIComponent(name)}`, url), { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: async () => JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      res.on('error', reject);
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (req.reusedSocket && err.code === 'ECONNRESET') post(agent, name, body).then(resolve, reject);
      else reject(err);
    });
    req.end(body);
  });
  return {
    namespace: (space = 'default') => {
      const agent = new http.Agent({ keepAlive: true });
      agents.push(agent);
      return {
        idFromName: (name: string) => name,
        get: (name: string) => ({ fetch: (_url: string, init: { body: string }) => post(agent, `${space}/${name}`, init.body) }),
      };
    },
    scan: () => (fs.readdirSync(persist, { recursive: true, encoding: 'utf8' }) as string[])
      .map((f) => readIfThere(path.join(persist, f))).join('\n'),
    stop: () => mf.dispose(),
    start: async () => {
      mf = new Miniflare(options);
      url = await mf.ready;
    },
    dispose: async () => {
      for (const a of agents) a.destroy();
      await mf.dispose();
      fs.rmSync(persist, { recursive: true, force: true });
    },
  };
}

/** A StoreFactory (harness.ts) of DurableObjectStores: each store a space of objects of its own; its twin a second namespace client. */
export const durableObjectFactory = (objects: Objects): StoreFactory => async () => {
  const space = Math.random().toString(36).slice(2, 10);
  const make = (ttl?: number) => new DurableObjectStore(objects.namespace(space), ttl === undefined ? {} : { ttl }) as unknown as FullStore;
  return { store: make(), twin: () => make(), scan: async () => objects.scan(), withTtl: (ms) => make(ms) };
};
