/**
 * kit.match and kit.fail, the routing and failure helpers a custom binding is written with
 * (docs/bindings.md, "Your own binding"): matched as Express matches by default, and a binding of a
 * few lines over them behaves like the shipped ones.
 */
import http from 'node:http';
import request from 'supertest';
import { createCallbackKit, type CallbackKit, type CallbackRequest } from 'crossborder-merchant-kit';
import { MERCHANT_GUID, order } from '../helpers/orders.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';

const kitWith = (extra = {}): CallbackKit =>
  createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger: false, ...extra } as never);

describe('kit.match', () => {
  const kit = kitWith({ paths: { sendOrderToMerchant: '/orders/New' } });

  test.each([
    ['POST', '/orders/New'], ['POST', '/ORDERS/new'], ['POST', '/orders/New/'], ['POST', '/orders/New?x=1'], ['post', '/orders/new'],
  ])('%s %s is sendOrderToMerchant', (method, path) => {
    expect(kit.match(method, path)).toEqual({ callback: 'sendOrderToMerchant', method: 'POST', path: '/orders/New' });
  });

  test.each([
    ['GET', '/orders/New'], ['HEAD', '/orders/New'], ['PUT', '/orders/New'], ['POST', '/orders/New//'],
    ['POST', '/orders/Newer'], ['POST', '/SendOrderToMerchant'], ['POST', ''],
  ])('%s %s is no route', (method, path) => {
    expect(kit.match(method, path)).toBeUndefined();
  });

  test('cart info answers GET and POST on one path', () => {
    expect(kit.match('GET', '/GetCheckoutCartInfo')?.callback).toBe('getCheckoutCartInfo');
    expect(kit.match('POST', '/getcheckoutcartinfo')?.callback).toBe('getCheckoutCartInfo');
  });
});

describe('a custom binding written with kit.match, kit.handle and kit.fail', () => {
  function miniBinding(kit: CallbackKit): http.Server {
    return http.createServer((req, res) => {
      const route = kit.match(req.method ?? '', req.url ?? '/');
      if (!route) return res.writeHead(404).end();
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c)).on('end', async () => {
        const core: CallbackRequest = {
          method: route.method, path: route.path, headers: req.headers, query: {}, remoteAddress: req.socket.remoteAddress,
          body: route.method === 'POST' ? Buffer.concat(chunks) : undefined,
        };
        let reply = await kit.handle(route.callback, core);
        try {
          res.writeHead(reply.status, reply.headers);
        } catch (err) {
          reply = kit.fail(err, route.callback);
          res.writeHead(reply.status, reply.headers);
        }
        res.end(JSON.stringify(reply.body));
      });
    });
  }

  test('serves a delivery as the shipped bindings do', async () => {
    const adapter = recordingAdapter();
    const res = await request(miniBinding(kitWith({ adapter }))).post('/sendordertomerchant').send(order());
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(adapter.calls).toHaveLength(1);
  });

  test('kit.fail logs one error line with the cause and returns the generic 500', async () => {
    const logger = captureLogger();
    const kit = kitWith({ logger });
    const reply = kit.fail(new Error('socket gone'), 'sendOrderToMerchant');
    expect(reply).toMatchObject({ status: 500, body: { Success: false, ErrorCode: 'INTERNAL_ERROR' } });
    expect(JSON.stringify(reply.body)).not.toContain('socket gone');
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatchObject({ level: 'error', msg: 'callback binding failed', obj: { callback: 'sendOrderToMerchant', err: { message: 'socket gone' } } });
  });

  test('kit.fail redacts the kit\'s secrets from the cause', () => {
    const logger = captureLogger();
    kitWith({ logger }).fail(new Error(`bad guid ${MERCHANT_GUID}`));
    expect(JSON.stringify(logger.lines)).not.toContain(MERCHANT_GUID);
  });
});
