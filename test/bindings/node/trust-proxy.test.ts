/** The trustProxy option: which client address the adapter (and the IP allow-list) is given. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { CallbackContext } from 'crossborder-merchant-kit';
import { createCallbackHandler, type CallbackHandlerOptions } from 'crossborder-merchant-kit/node';
import { compileTrustProxy } from '../../../lib/bindings/node/trust-proxy.js';
import { MERCHANT_GUID, order } from '../../helpers/orders.js';

describe('compileTrustProxy address selection', () => {
  const XFF = '203.0.113.7, 198.51.100.2, 10.0.0.5';

  test.each([
    ['false: the socket, XFF ignored', false, '10.0.0.9', XFF, '10.0.0.9'],
    ['0 hops: the socket', 0, '10.0.0.9', XFF, '10.0.0.9'],
    ['true: the leftmost entry', true, '10.0.0.9', XFF, '203.0.113.7'],
    ['true without XFF: the socket', true, '10.0.0.9', undefined, '10.0.0.9'],
    ['1 hop: the rightmost entry', 1, '10.0.0.9', XFF, '10.0.0.5'],
    ['2 hops', 2, '10.0.0.9', XFF, '198.51.100.2'],
    ['more hops than entries: the leftmost', 9, '10.0.0.9', XFF, '203.0.113.7'],
    ['CIDR list: the rightmost untrusted hop', ['10.0.0.0/8'], '10.0.0.9', XFF, '198.51.100.2'],
    ['comma-separated string', '10.0.0.0/8, 198.51.100.0/24', '10.0.0.9', XFF, '203.0.113.7'],
    ['untrusted socket: XFF ignored', ['10.0.0.0/8'], '192.0.2.1', XFF, '192.0.2.1'],
    ['named range loopback, IPv4-mapped socket', 'loopback', '::ffff:127.0.0.1', '198.51.100.2', '198.51.100.2'],
    ['IPv6 proxy address', ['2001:db8::/32'], '2001:db8::1', '2001:db8::2, 203.0.113.7', '203.0.113.7'],
    ['all hops trusted: the leftmost', 'uniquelocal', '10.0.0.9', '192.168.1.2, 10.0.0.5', '192.168.1.2'],
    ['duplicate XFF headers joined', 1, '10.0.0.9', ['203.0.113.7', '198.51.100.2'], '198.51.100.2'],
  ])('%s', (_name, option, socket, xff, expected) => {
    expect(compileTrustProxy(option).clientAddress(socket, xff as string | string[] | undefined)).toBe(expected);
  });

  test('a forged non-IP entry reached while walking leaves the address unknown (fails closed)', () => {
    expect(compileTrustProxy(['10.0.0.0/8']).clientAddress('10.0.0.9', 'evil, 10.0.0.5')).toBeUndefined();
    expect(compileTrustProxy(1).clientAddress('10.0.0.9', '203.0.113.7, not-an-ip')).toBeUndefined();
    expect(compileTrustProxy(true).clientAddress('10.0.0.9', 'not-an-ip')).toBeUndefined();
  });

  test('reports whether forwarded addresses are trusted at all', () => {
    expect(compileTrustProxy(undefined).trusted).toBe(false);
    expect(compileTrustProxy(0).trusted).toBe(false);
    expect(compileTrustProxy([]).trusted).toBe(false);
    expect(compileTrustProxy(2).trusted).toBe(true);
    expect(compileTrustProxy('loopback').trusted).toBe(true);
  });
});

describe('the node:http binding with trustProxy', () => {
  const open: http.Server[] = [];
  afterEach(async () => { await Promise.all(open.splice(0).map((s) => new Promise((r) => s.close(r)))); });

  async function addressSeen(extra: Partial<CallbackHandlerOptions>, xff?: string): Promise<string | undefined> {
    let seen: CallbackContext | undefined;
    const srv = http.createServer(createCallbackHandler({
      merchantGuid: MERCHANT_GUID,
      adapter: {
        sendOrderToMerchant(o, ctx) { seen = ctx; return { InternalOrderId: 'I', OrderId: String(o.OrderId) }; },
        updateOrderStatus() {},
      },
      ...extra,
    }));
    open.push(srv);
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const req = request(`http://127.0.0.1:${(srv.address() as AddressInfo).port}`).post('/SendOrderToMerchant');
    if (xff) req.set('X-Forwarded-For', xff);
    expect((await req.send(order())).status).toBe(200);
    return seen?.remoteAddress;
  }

  test('by default the socket address is used and X-Forwarded-For is ignored', async () => {
    expect(await addressSeen({}, '203.0.113.7')).toMatch(/127\.0\.0\.1$/);
  });

  test('behind a trusted loopback proxy the forwarded client address is used', async () => {
    expect(await addressSeen({ trustProxy: 'loopback' }, '203.0.113.7, 127.0.0.1')).toBe('203.0.113.7');
    expect(await addressSeen({ trustProxy: 1 }, '198.51.100.2, 203.0.113.7')).toBe('203.0.113.7');
  });

  test('a proxy list that does not include the peer ignores X-Forwarded-For', async () => {
    expect(await addressSeen({ trustProxy: ['10.0.0.0/8'] }, '203.0.113.7')).toMatch(/127\.0\.0\.1$/);
  });
});
