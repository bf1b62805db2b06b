/** Helpers shared by the bindings: building the core request and reading the body once. */
import type { IncomingMessage } from 'node:http';
import type { CallbackKit, CallbackRoute } from './kit.js';
import { payloadTooLarge, readBody } from './read-body.js';
import { PipelineFailure, wireErrorBody } from '../shared/errors.js';
import type { CallbackRequest, CallbackResponse, QueryMap } from './types.js';

export function queryFromUrl(url: string | undefined): QueryMap {
  const query: Record<string, string | string[]> = {};
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
    const size = Number.isFinite(declared) ? declared : Buffer.byteLength(JSON.stringify(req.body) ?? '');
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

/** Headers of every kit reply: JSON, never cached (replies carry personal data). */
export const JSON_NO_STORE: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
});

/** The reply sent when a binding itself fails (never the error's text). */
export const BINDING_FAILURE: CallbackResponse = {
  status: 500,
  headers: { ...JSON_NO_STORE },
  body: wireErrorBody('INTERNAL_ERROR'),
};
