/**
 * What the bindings share: building the core request (the body read once, as the core's RequestBody:
 * raw, parsed by the host app, or unreadable with the refusal), routing under a basePath, and writing a
 * reply on a node:http response. Public APIs of Node, Express and the web platform only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallbackKit, CallbackRoute } from '../../core/kit.js';
import { readBody } from './read-body.js';
import { parsedBody, rawBody, unreadableBody, type RequestBody } from '../../core/body.js';
import { KitError, PipelineFailure, wireErrorBody } from '../../shared/errors.js';
import { JSON_NO_STORE, type CallbackRequest, type CallbackResponse, type HeaderMap, type QueryMap } from '../../shared/http.js';

export { routeKey, routeTable } from '../../core/kit.js';

/** The reply to a method and path where no callback is (bindings that own their 404). */
export const NOT_FOUND: CallbackResponse = Object.freeze({
  status: 404,
  headers: { ...JSON_NO_STORE },
  body: wireErrorBody('NOT_FOUND'),
});

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const INVALID_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * Throws when a reply header could not go on the wire (a name that is not a token, a value with a
 * control character such as a newline), as node:http's writeHead would: the binding then answers
 * 500 through kit.fail, with the cause logged, instead of a runtime rejecting the reply silently.
 */
export function checkReplyHeaders(reply: CallbackResponse): void {
  for (const [name, value] of Object.entries(reply.headers)) {
    if (!TOKEN.test(name)) throw new TypeError(`reply header name ${JSON.stringify(name)} is not a valid HTTP token`);
    if (INVALID_VALUE.test(String(value))) throw new TypeError(`reply header ${name} has an invalid character`);
  }
}

/** Checks a binding's `basePath` option: '' or '/x' (leading slash, no trailing slash). */
export function checkBasePath(basePath: unknown): string {
  if (basePath === undefined) return '';
  if (typeof basePath !== 'string' || (basePath !== '' && (!basePath.startsWith('/') || basePath.endsWith('/')))) {
    throw new KitError('ERR_CBK_OPTION_INVALID', 'Option basePath must be "" or a path like "/crossborder" (leading slash, no trailing slash)');
  }
  return basePath;
}

/** Splits a binding's own options (`keys`) from the kit's; a non-object is left for the kit to refuse. */
export function splitOptions<T>(options: unknown, keys: readonly string[]): { own: Record<string, unknown>; kit: T } {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return { own: {}, kit: options as T };
  const own: Record<string, unknown> = {};
  const kit: Record<string, unknown> = { ...options };
  for (const key of keys) {
    own[key] = kit[key];
    delete kit[key];
  }
  return { own, kit: kit as T };
}

/**
 * The route of a request under `basePath` (matched like kit.match: any case, one trailing slash) and
 * the path relative to it; undefined when no callback is there.
 */
export function matchUnder(kit: CallbackKit, basePath: string, method: string, pathname: string):
  { route: CallbackRoute; path: string } | undefined {
  if (basePath !== '') {
    if (pathname.slice(0, basePath.length).toLowerCase() !== basePath.toLowerCase()) return undefined;
    pathname = pathname.slice(basePath.length); // '/crossborderX/…' leaves 'X/…', which no route has
  }
  const route = kit.match(method, pathname);
  return route ? { route, path: pathname } : undefined;
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

/** The parts of a request every binding finds in its own way. */
export interface RequestParts {
  path: string;
  headers: HeaderMap;
  query: QueryMap;
  remoteAddress: string | undefined;
  trustProxy?: boolean;
}

/** A core request and its body, as kit.handle takes them. */
export interface BuiltRequest {
  request: CallbackRequest;
  body: RequestBody | undefined;
}

/**
 * Builds the core request: a POST's body comes from `read(limit)` (`limit`: the callback's, for a
 * reader that stops reading a stream past it); a PipelineFailure it throws (too large, aborted)
 * makes the body `unreadable`, which the core answers.
 */
export async function buildRequest(
  kit: CallbackKit, route: CallbackRoute, parts: RequestParts, read: (limit: number) => RequestBody | Promise<RequestBody>,
): Promise<BuiltRequest> {
  if (route.method !== 'POST') return { request: { method: route.method, ...parts }, body: undefined };
  let body: RequestBody;
  try {
    body = await read(kit.bodyLimit(route.callback));
  } catch (err) {
    if (!(err instanceof PipelineFailure)) throw err;
    body = unreadableBody(err);
  }
  // One literal (a spread that adds a field to a copy costs V8 a hidden class per request: core/stages/validate.ts).
  return { request: { method: route.method, ...parts, body: body.kind === 'raw' ? body.bytes : body.kind === 'parsed' ? body.value : undefined }, body };
}

/**
 * A value the host app already parsed (express.json ran), with its size for the core's limit check:
 * the declared length, else the size of the value serialised.
 */
function alreadyParsed(value: unknown, declaredLength: string | undefined): RequestBody {
  const declared = Number(declaredLength);
  if (Number.isFinite(declared)) return parsedBody(value, declared);
  try {
    return parsedBody(value, Buffer.byteLength(JSON.stringify(value) ?? ''));
  } catch {
    // A value too deeply nested to serialise (a stack overflow): refused like one the kit parsed itself.
    return unreadableBody(new PipelineFailure('INVALID_REQUEST', 'body nested too deeply to serialise', 'The request body is nested too deeply'));
  }
}

/**
 * Builds the core request from a node:http request. When the host app already consumed the stream
 * (`readableEnded`: express.json or another parser ran), its `req.body` is used; otherwise the raw
 * body is read here, stopping past the limit.
 */
export function toCallbackRequest(
  kit: CallbackKit, route: CallbackRoute, req: IncomingMessage & { body?: unknown },
  path: string, remoteAddress: string | undefined, trustProxy?: boolean,
): Promise<BuiltRequest> {
  const parts: RequestParts = { path, headers: req.headers, query: queryFromUrl(req.url), remoteAddress, trustProxy };
  return buildRequest(kit, route, parts, async (limit) => req.readableEnded
    ? alreadyParsed(req.body, req.headers['content-length'])
    : rawBody(await readBody(req, limit, req.headers['content-length'])));
}

/**
 * Writes a reply in one `writeHead` (status, headers and content-length together; no chunked
 * encoding) and one `end`. Nothing when the client is already gone. Headers the host app set before
 * (other than X-Powered-By) are kept; the reply's win over them.
 */
export function writeReply(res: ServerResponse, reply: CallbackResponse): void {
  if (res.writableEnded || res.destroyed) return;
  const body = JSON.stringify(reply.body);
  // Express sets X-Powered-By before any route runs; the kit's replies never advertise the framework.
  if (res.hasHeader('x-powered-by')) res.removeHeader('x-powered-by');
  // content-length first, then the reply's headers (a kit reply has none of that name): a spread that
  // adds a field afterwards costs V8 a hidden class per reply (core/stages/validate.ts).
  res.writeHead(reply.status, { 'content-length': Buffer.byteLength(body), ...reply.headers });
  res.end(body);
}

/**
 * Answers a failure of a node:http binding itself: one error log line with the cause (kit.fail) and
 * the generic 500, or the connection dropped when the headers already went out.
 */
export function failReply(kit: CallbackKit, res: ServerResponse, err: unknown, callback?: CallbackRoute['callback']): void {
  const reply = kit.fail(err, callback);
  try {
    if (!res.headersSent) writeReply(res, reply);
    else res.destroy();
  } catch {
    res.destroy();
  }
}
