/**
 * Issue 47 item 6: a JSON body that repeats a credential or key member in one object (two
 * MerchantGUIDs, wrong then right; two OrderIds) is refused 400 naming the member on every binding:
 * JSON.parse keeps the last, so it was accepted while a duplicated header or query parameter is
 * refused. The same member in two objects (an envelope's and its order's MerchantGUID) is no repeat.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BINDINGS } from '../helpers/bindings.js';
import { MERCHANT_GUID, OTHER_GUID, order } from '../helpers/orders.js';
import { recordingAdapter } from '../helpers/recording.js';

async function post(server: http.Server, body: string): Promise<{ status: number; body: string }> {
  if (!server.listening) await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/cb/SendOrderToMerchant', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The order's JSON with `extra` members written in front of its own (a raw text: JSON.stringify cannot repeat a member). */
const withMembers = (extra: string, overrides: Record<string, unknown> = {}) => `{${extra},${JSON.stringify(order(overrides)).slice(1)}`;

const REPEATS: Array<[string, string, string]> = [
  ['MerchantGUID, a wrong one then the right one', withMembers(`"MerchantGUID":"${OTHER_GUID}"`), 'MerchantGUID'],
  ['MerchantGUID, the second spelt with a \\u escape', withMembers(`"MerchantGUID":"${OTHER_GUID}"`).replace(/"MerchantGUID":"3f/, '"Merchant\\u0047UID":"3f'), 'MerchantGUID'],
  ['OrderId, another order then this one', withMembers('"OrderId":"GE-OTHER-1"'), 'OrderId'],
  ['OrderId with space before the colon', withMembers('"OrderId" :\n"GE-OTHER-1"'), 'OrderId'],
];

describe.each(BINDINGS)('%s', (_name, mount) => {
  test.each(REPEATS)('a body repeating %s: 400 naming the member, the adapter never called', async (_what, body, member) => {
    const adapter = recordingAdapter();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter });
    const server = app instanceof http.Server ? app : http.createServer(app);
    try {
      expect(() => JSON.parse(body)).not.toThrow();
      const res = await post(server, body);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ Success: false, ErrorCode: 'INVALID_REQUEST' });
      expect(res.body).toContain(member);
      expect(res.body).not.toContain(MERCHANT_GUID);
      expect(adapter.calls).toHaveLength(0);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  test('the member once per object (the envelope\'s MerchantGUID and its order\'s; OrderId also as a value and nested) is accepted', async () => {
    const adapter = recordingAdapter();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter });
    const server = app instanceof http.Server ? app : http.createServer(app);
    try {
      const inner = order({ OrderId: 'GE-ENV-1', CustomerComments: 'OrderId', MerchantGUID: MERCHANT_GUID, InternalDetails: { OrderId: 'x', MerchantGUID: 'y' } });
      const res = await post(server, JSON.stringify({ MerchantGUID: MERCHANT_GUID, order: inner }));
      expect(res.status).toBe(200);
      expect(adapter.calls).toHaveLength(1);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
