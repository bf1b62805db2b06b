/**
 * sandbox.resend() and sandbox.send() and their console endpoints (issue 51 item 3), against a merchant
 * that records what it receives: the sandbox's MerchantGUID replaces a captured one (also in the
 * `{ order }` envelope), the callback names and options are checked, a refusal says why with its code,
 * and the console's endpoints take only the console page's own calls.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSandbox, JsonTextError, SendError, type Sandbox } from '../../../lib/tools/sandbox/index.js';

let merchant: Server;
let sandbox: Sandbox;
let url: string;
const received: Array<{ path: string; body: any; headers: Record<string, unknown> }> = [];
const GUID = '0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b';

beforeAll(async () => {
  merchant = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => { text += c; });
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: text ? JSON.parse(text) : undefined, headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"Success":true,"InternalOrderId":"M-1"}');
    });
  });
  await new Promise<void>((r) => merchant.listen(0, '127.0.0.1', r));
  sandbox = createSandbox({ port: 0, merchantUrl: `http://127.0.0.1:${(merchant.address() as AddressInfo).port}/cb`, merchantGuid: GUID, callbackHeaders: { 'x-shop-auth': 'k' } });
  url = await sandbox.listen();
});
afterAll(async () => {
  await sandbox.close();
  merchant.closeAllConnections();
  await new Promise((r) => merchant.close(r));
});

test('send: the named callback gets the payload with the sandbox\'s MerchantGUID (also in the envelope) and headers', async () => {
  const e = await sandbox.send({ callback: 'performorderpayment', payload: { order: { OrderId: 'GE1', MerchantGUID: 'captured' }, MerchantGuid: 'captured' } });
  expect(e).toMatchObject({ kind: 'performOrderPayment', scenario: 'send', orderId: 'GE1', label: 'PerformOrderPayment (a payload sent by hand)' });
  const last = received.at(-1)!;
  expect(last.path).toBe('/cb/PerformOrderPayment');
  expect(last.body).toEqual({ order: { OrderId: 'GE1', MerchantGUID: GUID }, MerchantGuid: GUID });
  expect(last.headers['x-shop-auth']).toBe('k');
  // JSON text is parsed here (the console sends it so)
  expect((await sandbox.send({ callback: 'SendOrderToMerchant', payload: '{"OrderId":"GE2"}' })).orderId).toBe('GE2');
});

test('send refuses a wrong callback, option, payload or JSON, each with its code and never the content', async () => {
  await expect(sandbox.send({ callback: 'SendOrderToMerchnt', payload: {} })).rejects.toMatchObject({ code: 'UNKNOWN_CALLBACK', message: expect.stringContaining('did you mean "SendOrderToMerchant"?') });
  await expect(sandbox.send({ callbak: 'x', payload: {} } as never)).rejects.toMatchObject({ code: 'ERR_CBK_OPTION_UNKNOWN', message: expect.stringContaining('did you mean "sandbox.send.callback"?') });
  await expect(sandbox.send({ callback: 'SendOrderToMerchant', payload: [1] })).rejects.toBeInstanceOf(SendError);
  const bad = sandbox.send({ callback: 'SendOrderToMerchant', payload: '{"CardNumber":"4111111111111111",}' });
  await expect(bad).rejects.toBeInstanceOf(JsonTextError);
  await expect(bad).rejects.toThrow(/^the payload is not valid JSON at line 1, column 34 \(character 34\)/);
  const before = sandbox.log.total;
  await expect(bad).rejects.not.toThrow(/4111/);
  expect(sandbox.log.total).toBe(before);
  const alone = createSandbox({ console: false });
  await expect(alone.send({ callback: 'SendOrderToMerchant', payload: {} })).rejects.toThrow(/no merchantUrl/);
  await alone.close();
});

test('resend: the callback again, as logged, to the merchant\'s current URL; an unknown id or a merchant\'s call is refused', async () => {
  const first = await sandbox.send({ callback: 'UpdateOrderStatus', payload: { OrderId: 'GE3', StatusCode: 'canceled' } });
  const again = await sandbox.resend(first.id);
  expect(again).toMatchObject({ kind: 'updateOrderStatus', scenario: 'resend', orderId: 'GE3', label: `UpdateOrderStatus (a payload sent by hand) (sent again: #${first.id})` });
  expect(received.at(-1)!.body).toEqual(received.at(-2)!.body);
  await expect(sandbox.resend(999_999)).rejects.toMatchObject({ code: 'EXCHANGE_NOT_FOUND' });
  await fetch(`${url}/api/shipments/SBX1000000001`, { headers: { authorization: 'Bearer any' } });
  const call = sandbox.log.list().filter((e) => e.direction === 'from-merchant').at(-1)!;
  await expect(sandbox.resend(call.id)).rejects.toMatchObject({ code: 'NOT_A_CALLBACK' });
});

test('the console endpoints: only the page\'s own JSON calls; refusals with their status and code', async () => {
  const post = (path: string, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    fetch(`${url}/_console/api${path}`, { method: 'POST', headers, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() as any }));
  expect((await post('/send', { callback: 'SendOrderToMerchant', payload: '{}' }, { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' })).status).toBe(403);
  expect((await post('/send', { callback: 'SendOrderToMerchant', payload: '{}' }, { 'content-type': 'text/plain' })).status).toBe(403);
  expect((await post('/exchanges/1/resend', {}, { 'content-type': 'application/json', origin: 'http://evil.example' })).status).toBe(403);
  expect(await post('/exchanges/999999/resend', {})).toMatchObject({ status: 404, body: { code: 'EXCHANGE_NOT_FOUND' } });
  const broken = await post('/send', { callback: 'SendOrderToMerchant', payload: '{"CardNumber":"4111111111111111" x}' });
  expect(broken).toMatchObject({ status: 400, body: { code: 'INVALID_JSON' } });
  expect(JSON.stringify(broken.body)).not.toContain('4111');
  const ok = await post('/send', { callback: 'SendOrderToMerchant', payload: '{"OrderId":"GE4","MerchantGUID":"x"}' });
  expect(ok).toMatchObject({ status: 200, body: { summary: { kind: 'sendOrderToMerchant', orderId: 'GE4', failed: false } } });
  // the console masks the GUID it shows
  expect(ok.body.exchange.request.body.MerchantGUID).toBe(`••••${GUID.slice(-4)}`);
  const raw = await fetch(`${url}/_console/api/send`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"payload": "4111111111111111' });
  expect(raw.status).toBe(400);
  expect(await raw.text()).not.toContain('4111');
});
