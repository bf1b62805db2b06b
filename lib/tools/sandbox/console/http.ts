/**
 * The console's HTTP pieces: JSON and static replies with the security headers (and the page's CSP),
 * the same-origin check for state-changing calls, and a bounded JSON body reader.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Asset } from './assets.js';
import { parseJsonText } from '../json-position.js';

export const JSON_TYPE = 'application/json; charset=utf-8';
export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const MAX_BODY = 64 * 1024;
/** The largest body of "Send a payload" (a captured order with many lines): the merchant's reply limit. */
export const MAX_PAYLOAD_BODY = 1024 * 1024;

export function sendJson(res: ServerResponse, status: number, body: unknown): true {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': JSON_TYPE, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) }).end(text);
  return true;
}

export function sendAsset(res: ServerResponse, asset: Asset): true {
  res.writeHead(200, {
    ...SECURITY_HEADERS, 'content-type': asset.type, 'content-length': asset.body.length, 'cache-control': 'no-cache', etag: asset.etag,
    ...(asset.type.startsWith('text/html') ? { 'content-security-policy': CSP } : {}),
  }).end(asset.body);
  return true;
}

/** A state-changing call from the console itself: JSON body, and same origin when the browser says where it came from. */
export function sameOrigin(req: IncomingMessage): boolean {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return false;
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try { return new URL(origin).host === req.headers.host; } catch { return false; }
}

/** The request's JSON body (at most `limit` bytes); a parse error names the position, never the text. */
export async function readJson(req: IncomingMessage, limit = MAX_BODY): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error(`body larger than ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? parseJsonText(text, 'the request body') : {};
}

export function messageOf(err: unknown): { code?: string; message: string } {
  const e = err as { code?: unknown; message?: unknown };
  return { ...(typeof e?.code === 'string' ? { code: e.code } : {}), message: typeof e?.message === 'string' ? e.message : String(err) };
}
