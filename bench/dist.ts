/**
 * Where the benchmark's kit comes from: the built package (`npm run build`, the bundles users run),
 * never lib/ through tsx. `npm run bench` builds first.
 * - `loadKit(dir)`: the public entry points of a build: this checkout's dist/ (default), or another
 *   checkout's (BENCH_BASELINE: its dist/, measured by this checkout's bench code in the same rounds);
 * - functions the package does not export (the in-process stage timings of bench/micro.ts and
 *   bench/stages.ts) are imported from lib/ in the sources, and bench/compiled-lib.mjs (registered by
 *   `npm run bench` and in every server process) loads them from bench/.build/, lib/ as tsc compiled it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** This checkout's build. */
export const DIST = path.join(ROOT, 'dist');

export interface Kit {
  root: typeof import('../lib/index.js');
  store: typeof import('../lib/store/index.js');
  node: typeof import('../lib/bindings/node/index.js');
  express: typeof import('../lib/bindings/express/index.js');
  /** Absent in a build without the binding. */
  fetch?: typeof import('../lib/bindings/fetch/index.js');
  fastify?: typeof import('../lib/bindings/fastify/index.js');
  /** The build the modules come from. */
  dir: string;
}

const cache = new Map<string, Promise<Kit>>();

/** The kit of the build in `dir` (a dist/ folder). Throws, naming the fix, when there is none. */
export function loadKit(dir: string = DIST): Promise<Kit> {
  let kit = cache.get(dir);
  if (!kit) {
    kit = load(dir);
    cache.set(dir, kit);
  }
  return kit;
}

async function load(dir: string): Promise<Kit> {
  if (!fs.existsSync(path.join(dir, 'index.js'))) throw new Error(`no build in ${dir}: run \`npm run build\` there first (the benchmark measures the built package)`);
  const entry = (p: string) => pathToFileURL(path.join(dir, p)).href;
  const optional = async <T>(p: string): Promise<T | undefined> => (fs.existsSync(path.join(dir, p)) ? (await import(entry(p))) as T : undefined);
  return {
    root: await import(entry('index.js')),
    store: await import(entry('store/index.js')),
    node: await import(entry('bindings/node/index.js')),
    express: await import(entry('bindings/express/index.js')),
    fetch: await optional('bindings/fetch/index.js'),
    fastify: await optional('bindings/fastify/index.js'),
    dir,
  };
}
