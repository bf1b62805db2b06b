/** Helpers shared by the bindings: building the core request and reading the body once. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallbackKit, CallbackRoute } from './kit.js';
import { payloadTooLarge, readBody } from './read-body.js';
import { PipelineFailure } from '../shared/errors.js';
import type { CallbackRequest, CallbackResponse, QueryMap } from '../shared/http.js';

/** Lookup key of a method and path as Express matches routes by default (any case, one trailing slash). */
export function routeKey(method: string, path: string): string {
  const p = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return `${method} ${p.toLowerCase()}`;
}

/** The routes of a kit by routeKey (paths prefixed with `basePath`); the first route of a key wins. */
export function routeTable(routes: readonly CallbackRoute[], basePath = ''): Map<string, CallbackRoute> {
  const table = new Map<string, CallbackRoute>();
  for (const route of routes) {
    const key = routeKey(route.method, basePath + route.path);
    if (!table.has(key)) table.set(key, route);
  }
  return table;
}

export function queryFromUrl(url: string | undefined): QueryMap {
  // No prototype: a parameter named toString or constructor is a parameter like any other.
  const query: Record<string, string | string[]> = Object.create(null);
  const q = (url ?? '').indexOf('?');
  if (q < 0) return query;
  for (const [k, v] of new URLSearchParams(url!.slice(q + 1))) {
    const prev = query[k];
    query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return query;
}

/**
 * Builds the core request. When the host app already parsed the body (express.json ran and the
 * stream is consumed), its value is used; otherwise the raw body is read here, up to the limit.
 */
export async function toCallbackRequest(
  kit: CallbackKit, route: CallbackRoute, req: IncomingMessage & { body?: unknown },
  path: string, remoteAddress: string | undefined,
): Promise<CallbackRequest> {
  const base = { method: route.method, path, headers: req.headers, query: queryFromUrl(req.url), remoteAddress };
  if (route.method !== 'POST') return { ...base, body: undefined };
  if (req.readableEnded || (req as { _body?: boolean })._body === true) {
    // The host's parser may allow more than the kit: the kit's limit still holds.
    const limit = kit.bodyLimit(route.callback);
    const declared = Number(req.headers['content-length']);
    let size: number;
    try {
      size = Number.isFinite(declared) ? declared : Buffer.byteLength(JSON.stringify(req.body) ?? '');
    } catch {
      // A value too deeply nested to serialise (a stack overflow): refused like one the kit parsed itself.
      return { ...base, body: new PipelineFailure('INVALID_REQUEST', 'body nested too deeply to serialise', 'The request body is nested too deeply') };
    }
    return { ...base, body: size > limit ? payloadTooLarge(limit) : req.body };
  }
  try {
    return { ...base, body: await readBody(req, kit.bodyLimit(route.callback), req.headers['content-length']) };
  } catch (err) {
    // The core answers the failure (parse step), so it gets the standard envelope, headers and log line.
    if (err instanceof PipelineFailure) return { ...base, body: err };
    throw err;
  }
}

/** Node's slot (`kOutHeaders`) for the headers set with `setHeader`: null until one is set. */
let headerSlot: symbol | undefined;

/**
 * After the last header set with `setHeader` was removed: gives the response back the state it had
 * before any was set, so `writeHead` writes the reply's headers as given, at once, instead of
 * merging them one `setHeader` call (name and value checks) at a time. Only an empty, null-prototype
 * slot is reset; on a Node.js without that slot (or a mock response) nothing changes.
 */
function forgetEmptyHeaders(res: ServerResponse): void {
  headerSlot ??= Object.getOwnPropertySymbols(res).find((s) => s.description === 'kOutHeaders');
  if (headerSlot === undefined) return;
  const slot = (res as unknown as Record<symbol, unknown>)[headerSlot];
  if (typeof slot === 'object' && slot !== null && Object.getPrototypeOf(slot) === null && Object.keys(slot).length === 0) {
    (res as unknown as Record<symbol, unknown>)[headerSlot] = null;
  }
}

/**
 * Writes a reply in one `writeHead` (status, headers and content-length together; no chunked
 * encoding, no per-header calls) and one `end`. Nothing when the client is already gone. Headers
 * the host app set before (other than X-Powered-By) are kept; the reply's win over them.
 */
export function writeReply(res: ServerResponse, reply: CallbackResponse): void {
  if (res.writableEnded || res.destroyed) return;
  const body = JSON.stringify(reply.body);
  // Express sets X-Powered-By before any route runs; the kit's replies never advertise the framework.
  if (res.hasHeader('x-powered-by')) {
    res.removeHeader('x-powered-by');
    forgetEmptyHeaders(res);
  }
  res.writeHead(reply.status, { ...reply.headers, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
