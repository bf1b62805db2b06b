/**
 * Routing of a kit's callbacks, as Express matches routes by default: any letter case, one trailing
 * slash allowed, the query string ignored. `kit.match` is built on it, so that any framework's
 * binding (Koa, Hono, a serverless handler) routes the way the Express router and node:http handler do.
 */
import type { CallbackName, HttpMethod } from './registry.js';

/** A callback the kit serves, as `kit.routes` lists and `kit.match` finds it: its name, HTTP method and path. */
export interface CallbackRoute { callback: CallbackName; method: HttpMethod; path: string }

/** Lookup key of a method and path (any case, one trailing slash, the query string dropped). */
export function routeKey(method: string, path: string): string {
  const q = path.indexOf('?');
  let p = q < 0 ? path : path.slice(0, q);
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return `${method.toUpperCase()} ${p.toLowerCase()}`;
}

/** The routes by routeKey (paths prefixed with `basePath`); the first route of a key wins. */
export function routeTable(routes: readonly CallbackRoute[], basePath = ''): Map<string, CallbackRoute> {
  const table = new Map<string, CallbackRoute>();
  for (const route of routes) {
    const key = routeKey(route.method, basePath + route.path);
    if (!table.has(key)) table.set(key, route);
  }
  return table;
}
