/**
 * The fair peer: what a careful merchant writes by hand without the kit, for SendOrderToMerchant —
 * helmet's headers, `express.json()` (or its node:http twin), a compiled AJV validator of the same
 * schema, HS256 JWT checked with node:crypto (HMAC + timingSafeEqual, alg and exp checked), the
 * MerchantGUID compared in constant time, the same URL-decoded fields, a SHA-256 of the raw body in a
 * Map for redeliveries, and `res.json` of the reply. It has none of the kit's other guarantees
 * (per-OrderId lock, canonical fingerprint, card masking, holds, log redaction, stored replies
 * surviving a restart), so it is the floor a hand-written integration pays for the same checks.
 */
import { createHash, createSecretKey, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import http from 'node:http';
import express from 'express';
import helmetModule from 'helmet';
import { schemaValidator } from '../lib/validation/every-schema.js';
import { CALLBACK_PATH, JWT_SECRET, MERCHANT_GUID } from './fixtures.js';

type Json = Record<string, unknown>;
type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;
const helmet = ((helmetModule as unknown as { default?: () => Middleware }).default ?? helmetModule) as unknown as () => Middleware;

const validate = schemaValidator('callbacks/send-order-to-merchant.request.schema.json');
const jwtKey = createSecretKey(Buffer.from(JWT_SECRET));
const guidDigest = createHash('sha256').update(MERCHANT_GUID.toLowerCase()).digest();
const ADDRESSES = ['PrimaryBilling', 'PrimaryShipping', 'SecondaryBilling', 'SecondaryShipping'];
const MAX_SEEN = 50_000;

function jwtOk(authorization: string | undefined): boolean {
  if (!authorization?.startsWith('Bearer ')) return false;
  const [h, p, s] = authorization.slice(7).split('.');
  if (!h || !p || !s) return false;
  try {
    if (JSON.parse(Buffer.from(h, 'base64url').toString()).alg !== 'HS256') return false;
    const expected = createHmac('sha256', jwtKey).update(`${h}.${p}`).digest();
    const given = Buffer.from(s, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as { exp?: unknown };
    return typeof claims.exp === 'number' && claims.exp > Date.now() / 1000;
  } catch {
    return false;
  }
}

function guidOk(guid: unknown): boolean {
  return typeof guid === 'string' && timingSafeEqual(createHash('sha256').update(guid.toLowerCase()).digest(), guidDigest);
}

const decode = (v: string) => {
  if (!v.includes('%') && !v.includes('+')) return v;
  try { return decodeURIComponent(v.replace(/\+/g, ' ')); } catch { return v; }
};

function decodeOrder(order: Json): void {
  for (const a of ADDRESSES) {
    const o = order[a] as Json | undefined;
    if (o) for (const k of Object.keys(o)) if (typeof o[k] === 'string') o[k] = decode(o[k] as string);
  }
  const intl = order.InternationalDetails as Json | undefined;
  if (intl && typeof intl.OrderTrackingUrl === 'string') intl.OrderTrackingUrl = decode(intl.OrderTrackingUrl);
  for (const p of (order.Parcels as Json[] | undefined) ?? []) if (typeof p.TrackingUrl === 'string') p.TrackingUrl = decode(p.TrackingUrl);
}

/** The handler's logic, framework-free: status and reply for a parsed order and its raw-body hash. */
function handleOrder(seen: Map<string, Json>, authorization: string | undefined, order: Json, rawHash: string): [number, Json] {
  if (!jwtOk(authorization)) return [401, { Success: false, Message: 'Unauthorized' }];
  if (!guidOk(order.MerchantGUID)) return [403, { Success: false, Message: 'Forbidden' }];
  if (!validate(order)) return [400, { Success: false, Message: 'Invalid request' }];
  const known = seen.get(rawHash);
  if (known) return [200, known];
  decodeOrder(order);
  const reply = { Success: true, InternalOrderId: `INT-${order.OrderId}`, OrderId: String(order.OrderId), StatusCode: 'received' };
  if (seen.size >= MAX_SEEN) seen.delete(seen.keys().next().value!);
  seen.set(rawHash, reply);
  return [200, reply];
}

export function peerExpress(): http.Server {
  const seen = new Map<string, Json>();
  const app = express();
  app.disable('x-powered-by');
  app.use(helmet());
  app.use(express.json({
    limit: '1mb',
    verify: (req, _res, buf) => { (req as { rawHash?: string }).rawHash = createHash('sha256').update(buf).digest('hex'); },
  }));
  app.post(CALLBACK_PATH, (req, res) => {
    const [status, reply] = handleOrder(seen, req.headers.authorization, req.body as Json, (req as { rawHash?: string }).rawHash ?? '');
    res.set('cache-control', 'no-store').status(status).json(reply);
  });
  return http.createServer(app);
}

export function peerNode(): http.Server {
  const seen = new Map<string, Json>();
  const headers = helmet();
  return http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== CALLBACK_PATH) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 1024 * 1024) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => headers(req, res, () => {
      const raw = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
      let order: Json;
      try {
        order = JSON.parse(raw.toString());
      } catch {
        res.writeHead(400).end();
        return;
      }
      const [status, reply] = handleOrder(seen, req.headers.authorization, order, createHash('sha256').update(raw).digest('hex'));
      const text = JSON.stringify(reply);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    }));
  });
}
