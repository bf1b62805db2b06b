/**
 * The benchmark's servers, built (not listening): bare node:http and Express, the hand-written peer,
 * the kit through the Express and node:http bindings, and the kit on PostgreSQL. The kit is the built package (bench/dist.ts:
 * this checkout's dist/, or the build `dist` names). bench/server.ts runs one in a child process;
 * bench/bindings.ts drives them in-process.
 */
import http from 'node:http';
import express from 'express';
import { computeHelmetHeaders } from '../lib/core/helmet-headers.js';
import pg from 'pg';
import { DIST, loadKit } from './dist.js';
import { CALLBACK_PATH, PG_KIND, type ServerKind } from './fixtures.js';
import { kitOptions, type KitFeatures } from './kit-options.js';
import { registerNoopSdk } from './otel-sdk.js';
import { peerExpress, peerNode } from './peer.js';

/** The kit's reply headers (helmet's defaults, JSON, no-store), so bare servers send as many bytes. */
const KIT_HEADERS = { ...computeHelmetHeaders({}), 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
/** The kit's reply to the benchmark order, same size (the OrderId is echoed). */
const replyFor = (order: { OrderId?: unknown }) => ({ Success: true, InternalOrderId: `INT-${order.OrderId}`, OrderId: String(order.OrderId), StatusCode: 'received' });

function bareNode(): http.Server {
  return http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== CALLBACK_PATH) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let order: { OrderId?: unknown };
      try {
        order = JSON.parse(Buffer.concat(chunks).toString());
      } catch {
        res.writeHead(400).end();
        return;
      }
      const reply = JSON.stringify(replyFor(order));
      res.writeHead(200, { ...KIT_HEADERS, 'content-length': Buffer.byteLength(reply) });
      res.end(reply);
    });
  });
}

function bareExpress(): http.Server {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(express.json({ limit: '1mb' }));
  app.post(CALLBACK_PATH, (req, res) => { res.set(KIT_HEADERS).json(replyFor(req.body)); });
  return http.createServer(app);
}

/** Builds the server `kind`; a kit server runs the build in `dist` (default: BENCH_KIT_DIST, else this checkout's dist/). */
export async function build(kind: ServerKind, dist: string = process.env.BENCH_KIT_DIST || DIST): Promise<{ server: http.Server; features?: KitFeatures; ready?: Promise<void> }> {
  if (kind === 'bare-node') return { server: bareNode() };
  if (kind === 'bare-express') return { server: bareExpress() };
  if (kind === 'peer-node') return { server: peerNode() };
  if (kind === 'peer-express') return { server: peerExpress() };
  const kit = await loadKit(dist);
  const { createCallbackHandler } = kit.node;
  const { createCallbackRouter } = kit.express;
  const { options, features } = kitOptions(kit);
  if (kind === PG_KIND) {
    const { PostgresStore } = kit.store;
    const pool = new pg.Pool({ connectionString: process.env.BENCH_PG_URL, max: Number(process.env.BENCH_PG_POOL ?? 10), idleTimeoutMillis: 0 });
    const batchStatements = process.env.BENCH_PG_BATCH !== '0';
    const store = new PostgresStore({ pool, schema: 'cbk_bench', batchStatements });
    return {
      server: http.createServer(createCallbackHandler({ ...options, store, basePath: '/cb' })),
      features: { ...features, store: `PostgresStore (pool max ${process.env.BENCH_PG_POOL ?? 10}${batchStatements ? '' : ', batchStatements: false'})` },
      ready: store.migrate().then(() => {}),
    };
  }
  if (kind === 'kit-node') return { server: http.createServer(createCallbackHandler({ ...options, basePath: '/cb' })), features };
  if (kind === 'kit-node-otel') {
    // The OpenTelemetry SDK registered (exporters that drop everything): every delivery is traced and measured.
    registerNoopSdk();
    return { server: http.createServer(createCallbackHandler({ ...options, basePath: '/cb' })), features };
  }
  const app = express();
  app.use('/cb', createCallbackRouter(options));
  return { server: http.createServer(app), features };
}

