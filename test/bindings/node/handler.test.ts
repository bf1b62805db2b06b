/** node:http specifics of createCallbackHandler: routing, basePath, 404/next, option checks, failures. */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { KitError } from 'crossborder-merchant-kit';
import { createCallbackHandler, type CallbackHandlerOptions } from 'crossborder-merchant-kit/node';
import { MERCHANT_GUID, order } from '../../helpers/orders.js';

type Opts = Partial<CallbackHandlerOptions>;

function options(extra: Opts = {}, calls: unknown[] = []): CallbackHandlerOptions {
  return {
    merchantGuid: MERCHANT_GUID,
    adapter: {
      async sendOrderToMerchant(o) { calls.push(o); return { InternalOrderId: 'INT-1', OrderId: String(o.OrderId) }; },
      async updateOrderStatus() {},
    },
    ...extra,
  } as CallbackHandlerOptions;
}

const open: http.Server[] = [];
afterEach(async () => { await Promise.all(open.splice(0).map((s) => new Promise((r) => s.close(r)))); });

/** Starts `srv` on loopback and returns its base URL (closed after each test). */
async function listen(srv: http.Server): Promise<string> {
  open.push(srv);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
}

const server = (extra: Opts = {}, calls: unknown[] = []) => listen(http.createServer(createCallbackHandler(options(extra, calls))));

describe('routing', () => {
  test('serves the callbacks under basePath and nowhere else', async () => {
    const app = await server({ basePath: '/crossborder' });
    const ok = await request(app).post('/crossborder/SendOrderToMerchant').send(order());
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ Success: true, InternalOrderId: 'INT-1', OrderId: 'GE1001CH' });
    const outside = await request(app).post('/SendOrderToMerchant').send(order());
    expect(outside.status).toBe(404);
    expect(outside.body).toEqual({ Success: false, Message: 'Not found', ErrorCode: 'NOT_FOUND' });
    expect(outside.headers['content-type']).toMatch(/^application\/json/);
  });

  test('serves at the root without basePath', async () => {
    const res = await request(await server()).post('/SendOrderToMerchant').send(order());
    expect(res.status).toBe(200);
  });

  test('ignores the query string, letter case and one trailing slash, as Express does', async () => {
    const app = await server({ basePath: '/cb' });
    for (const path of ['/cb/SendOrderToMerchant?x=1&y=2', '/cb/sendordertomerchant', '/cb/SendOrderToMerchant/']) {
      const res = await request(app).post(path).send(order());
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
  });

  test('answers HEAD, PUT and GET of a POST-only callback with 404 and never calls the adapter', async () => {
    const calls: unknown[] = [];
    const app = await server({ basePath: '/cb' }, calls);
    const head = await request(app).head('/cb/SendOrderToMerchant');
    expect(head.status).toBe(404);
    expect(head.text ?? '').toBe('');
    expect((await request(app).put('/cb/SendOrderToMerchant').send(order())).status).toBe(404);
    expect((await request(app).get('/cb/SendOrderToMerchant')).status).toBe(404);
    expect(calls).toHaveLength(0);
  });

  test('hands unmatched requests to next() when used as middleware, and answers matched ones itself', async () => {
    const handler = createCallbackHandler(options({ basePath: '/cb' }));
    const app = await listen(http.createServer((req, res) => handler(req, res, () => { res.statusCode = 299; res.end('next'); })));
    const unmatched = await request(app).post('/other').send({});
    expect(unmatched.status).toBe(299);
    expect(unmatched.text).toBe('next');
    expect((await request(app).post('/cb/SendOrderToMerchant').send(order())).status).toBe(200);
  });

  test('sends a Content-Length, so keep-alive connections need no chunked framing', async () => {
    const res = await request(await server()).post('/SendOrderToMerchant').send(order());
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(res.headers['transfer-encoding']).toBeUndefined();
  });
});

describe('forbidden keys', () => {
  test.each([
    ['a literal __proto__', '"__proto__":{"polluted":true}'],
    ['an escaped __proto__', '"\\u005f_proto__":{"polluted":true}'],
    ['an escaped constructor.prototype', '"PrimaryBilling":{"constr\\u0075ctor":{"prototype":{"polluted":true}}}'],
  ])('a body with %s key is refused before the adapter', async (_name, member) => {
    const calls: unknown[] = [];
    const url = await server({}, calls);
    const res = await request(url).post('/SendOrderToMerchant').set('content-type', 'application/json')
      .send(`{"MerchantGUID":"${MERCHANT_GUID}","OrderId":"GE1",${member}}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ Success: false, ErrorCode: 'INVALID_REQUEST' });
    expect(calls).toHaveLength(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('options', () => {
  test.each([['crossborder'], ['/crossborder/'], [42]])('rejects basePath %p', (basePath) => {
    expect(() => createCallbackHandler(options({ basePath: basePath as string }))).toThrow(
      expect.objectContaining({ code: 'ERR_CBK_OPTION_INVALID', message: expect.stringContaining('basePath') }),
    );
  });

  test.each([[-1], [1.5], ['not-an-ip'], ['10.0.0.0/33'], [['10.0.0.1', 7]], [{}], ['']])('rejects trustProxy %p', (trustProxy) => {
    expect(() => createCallbackHandler(options({ trustProxy: trustProxy as never }))).toThrow(
      expect.objectContaining({ code: 'ERR_CBK_OPTION_INVALID', message: expect.stringContaining('trustProxy') }),
    );
  });

  test('suggests trustProxy for a misspelt key', () => {
    let err: unknown;
    try { createCallbackHandler({ ...options(), trustProxi: true } as never); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(KitError);
    expect(err).toMatchObject({ code: 'ERR_CBK_OPTION_UNKNOWN', message: expect.stringContaining('did you mean "trustProxy"') });
  });

  test('checks the kit options too', () => {
    expect(() => createCallbackHandler({ adapter: options().adapter } as never)).toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_REQUIRED' }));
    expect(() => createCallbackHandler(undefined as never)).toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_REQUIRED' }));
  });
});

describe('failures never crash the process', () => {
  test('an adapter that throws gets a generic 500 and the server keeps serving', async () => {
    const url = await listen(http.createServer(createCallbackHandler({
      merchantGuid: MERCHANT_GUID,
      adapter: { sendOrderToMerchant() { throw new Error('db password=hunter2 leaked'); }, updateOrderStatus() {} },
    })));
    const res = await request(url).post('/SendOrderToMerchant').send(order());
    expect(res.status).toBe(500);
    expect(res.text).not.toContain('hunter2');
    expect((await request(url).post('/UpdateOrderStatus').send({ MerchantGUID: MERCHANT_GUID, OrderId: 'A', StatusCode: 'x' })).status).toBe(200);
  });

  test('an adapter reply that cannot be serialised gets a generic 500', async () => {
    const url = await listen(http.createServer(createCallbackHandler({
      merchantGuid: MERCHANT_GUID,
      adapter: { sendOrderToMerchant: () => ({ InternalOrderId: 'I', OrderId: 'O', Big: 10n }) as never, updateOrderStatus() {} },
    })));
    const res = await request(url).post('/SendOrderToMerchant').send(order());
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ Success: false, ErrorCode: 'INTERNAL_ERROR' });
  });

  test('a client that aborts mid-body never reaches the adapter, and the server keeps serving', async () => {
    const calls: unknown[] = [];
    const url = await server({}, calls);
    const port = Number(new URL(url).port);
    const body = JSON.stringify(order());
    await new Promise<void>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(`POST /SendOrderToMerchant HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length + 100}\r\n\r\n`);
        socket.write(body.slice(0, 50), () => setTimeout(() => { socket.destroy(); resolve(); }, 50));
      });
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(calls).toHaveLength(0);
    const res = await request(url).post('/SendOrderToMerchant').send(order());
    expect(res.status).toBe(200);
    expect(calls).toHaveLength(1);
  });

  test('a client that disconnects while the adapter runs does not break the server', async () => {
    let release!: () => void;
    const started = new Promise<void>((r) => { release = r; });
    const url = await listen(http.createServer(createCallbackHandler({
      merchantGuid: MERCHANT_GUID,
      adapter: {
        async sendOrderToMerchant(o) { release(); await new Promise((r) => setTimeout(r, 100)); return { InternalOrderId: 'I', OrderId: String(o.OrderId) }; },
        updateOrderStatus() {},
      },
    })));
    const port = Number(new URL(url).port);
    const body = JSON.stringify(order());
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`POST /SendOrderToMerchant HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
    await started;
    socket.destroy();
    await new Promise((r) => setTimeout(r, 200));
    expect((await request(url).post('/SendOrderToMerchant').send(order())).status).toBe(200);
  });
});
