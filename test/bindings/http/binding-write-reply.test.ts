/**
 * writeReply (lib/bindings/http/binding.ts), the one place both bindings write a reply: one writeHead
 * with the reply's headers and content-length, no X-Powered-By, headers the host app set before kept
 * (the reply's own win). (Since issue 27 item 4 it no longer resets Node's private kOutHeaders slot
 * after removing X-Powered-By, so Node merges the reply's headers one setHeader at a time there; see
 * docs/performance.md for the cost.)
 */
import http, { type ServerResponse } from 'node:http';
import express from 'express';
import request from 'supertest';
import { createCallbackRouter } from 'crossborder-merchant-kit/express';
import { writeReply } from '../../../lib/bindings/http/binding.js';
import type { CallbackResponse } from '../../../lib/shared/http.js';
import { MERCHANT_GUID, order } from '../../helpers/orders.js';
import { captureLogger, recordingAdapter } from '../../helpers/recording.js';

const REPLY: CallbackResponse = {
  status: 200,
  headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
  body: { Success: true, OrderId: 'GE1' },
};

/** Counts the setHeader calls made while the reply is written. */
function countingSetHeader(res: ServerResponse): () => number {
  let calls = 0;
  const original = res.setHeader;
  res.setHeader = function setHeader(this: ServerResponse, ...args: Parameters<ServerResponse['setHeader']>) {
    calls++;
    return original.apply(this, args);
  } as ServerResponse['setHeader'];
  return () => calls;
}

function serverWith(before: (res: ServerResponse) => void, seen: { setHeaderCalls?: number }) {
  return http.createServer((_req, res) => {
    before(res);
    const calls = countingSetHeader(res);
    writeReply(res, REPLY);
    seen.setHeaderCalls = calls();
  });
}

describe('writeReply', () => {
  test('only X-Powered-By set before (as Express does): removed, and the reply headers are written', async () => {
    const seen: { setHeaderCalls?: number } = {};
    const res = await request(serverWith((r) => r.setHeader('X-Powered-By', 'Express'), seen)).get('/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ Success: true, OrderId: 'GE1' });
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
  });

  test('other headers set before are kept, and the reply\'s own win over them', async () => {
    const seen: { setHeaderCalls?: number } = {};
    const res = await request(serverWith((r) => {
      r.setHeader('X-Powered-By', 'Express');
      r.setHeader('X-Request-Id', 'req-7');
      r.setHeader('Cache-Control', 'public, max-age=60');
    }, seen)).get('/');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-request-id']).toBe('req-7');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({ Success: true, OrderId: 'GE1' });
  });

  test('nothing set before: written as given', async () => {
    const seen: { setHeaderCalls?: number } = {};
    const res = await request(serverWith(() => {}, seen)).get('/');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(seen.setHeaderCalls).toBe(0);
  });

  test('a response already ended gets nothing more', async () => {
    const res = await request(http.createServer((_req, r) => {
      r.end('first');
      writeReply(r, REPLY);
    })).get('/');
    expect(res.text).toBe('first');
  });
});

describe('Express router replies', () => {
  test('keep the headers of the host app\'s earlier middleware, never X-Powered-By', async () => {
    const app = express();
    app.use((_req, res, next) => { res.setHeader('X-Request-Id', 'abc'); next(); });
    app.use('/cb', createCallbackRouter({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger: captureLogger() }));
    const res = await request(app).post('/cb/SendOrderToMerchant').send(order());
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe('abc');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  test('an unmatched path goes on to the app (next), also for a POST', async () => {
    const app = express();
    app.use('/cb', createCallbackRouter({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger: captureLogger() }));
    app.use((_req, res) => { res.status(418).json({ app: true }); });
    const res = await request(app).post('/cb/NoSuchCallback').send(order());
    expect(res.status).toBe(418);
    expect(res.body).toEqual({ app: true });
  });
});
