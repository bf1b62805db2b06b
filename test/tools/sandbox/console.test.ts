/**
 * The sandbox's web console over HTTP (the page itself is driven in a real browser by
 * console.browser.test.ts): static files, the live stream, exchange details masked, the JSON API, and
 * the guards that keep other web pages out (Host, Origin, content type).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createSandbox, SEED_TRACKING_NUMBERS, type Sandbox } from '../../../lib/tools/sandbox/index.js';
import { startStubMerchant } from '../../helpers/stub-merchant.js';
import { maskForConsole, summarize } from '../../../lib/tools/sandbox/console/view.js';
import { trustedHost } from '../../../lib/tools/sandbox/console/index.js';

const GUID = '6a3c1f52-0d7e-4b9a-8f21-5c4e9d0b7a13';
let merchantUrl: string;
let sandbox: Sandbox;
let base: string;

let stub: Awaited<ReturnType<typeof startStubMerchant>>;
beforeAll(async () => {
  stub = await startStubMerchant();
  merchantUrl = stub.merchantUrl;
});
afterAll(async () => { await stub.close(); });
beforeEach(async () => {
  sandbox = createSandbox({ port: 0, merchantUrl, merchantGuid: GUID, documentsDelayMs: 0 });
  base = await sandbox.listen();
});
afterEach(async () => { await sandbox.close(); });

interface Reply { status: number; headers: Record<string, string | string[] | undefined>; text: string; json: () => any }

/** A request with full control of the headers (fetch would not let us set Host). */
function send(method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text, json: () => JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
const JSON_HEADERS = { 'content-type': 'application/json' };

/** Opens the event stream and collects its events until `until` says stop. */
function stream(until: (events: Array<{ event: string; data: any }>) => boolean): Promise<Array<{ event: string; data: any }>> {
  return new Promise((resolve, reject) => {
    const events: Array<{ event: string; data: any }> = [];
    let responded = false;
    const req = request(`${base}/_console/events`, (res) => {
      responded = true;
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
        }
        if (until(events)) { req.destroy(); resolve(events); }
      });
      res.on('close', () => resolve(events));
    });
    // A stream the server cuts (the sandbox closing) ends it; an error before any answer is a failure.
    req.on('error', (err) => { if (responded) resolve(events); else if (!req.destroyed) reject(err); });
    req.end();
  });
}

describe('the page', () => {
  test('GET / serves the console page with a strict CSP; its script and styles are served from the same origin', async () => {
    const page = await send('GET', '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.text).toContain('<script src="/_console/console.js" defer></script>');
    expect(page.text).not.toMatch(/(src|href)="(https?:)?\/\//); // nothing from a CDN: it works offline
    const js = await send('GET', '/_console/console.js');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.text).toContain('EventSource');
    expect((await send('GET', '/_console/console.css')).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  test('the service API still answers next to it, and an unknown console path is a JSON 404', async () => {
    const hub = await send('POST', '/Browsing/ActiveHubDetails', { ...JSON_HEADERS, authorization: 'Bearer x' }, {});
    expect(hub.status).not.toBe(404);
    const missing = await send('GET', '/_console/nope');
    expect(missing.status).toBe(404);
    expect(missing.json().code).toBe('NOT_FOUND');
  });

  test('console: false leaves / to the service API (its 404)', async () => {
    const bare = createSandbox({ port: 0, console: false });
    const url = await bare.listen();
    try {
      const res = await fetch(`${url}/`);
      expect(res.status).toBe(404);
      expect((await res.json()).Code).toBe('NOT_FOUND');
    } finally { await bare.close(); }
  });
});

describe('guards', () => {
  test('only localhost and IP-literal Host names are answered (no DNS rebinding)', async () => {
    for (const host of ['localhost:4010', 'console.localhost', '127.0.0.1:4010', '[::1]:4010', '192.168.1.20']) expect(trustedHost(host)).toBe(true);
    for (const host of ['evil.example', 'localhost.evil.example:4010', '127.0.0.1.nip.io', '', undefined]) expect(trustedHost(host)).toBe(false);
    const res = await send('GET', '/', { host: 'rebound.evil.example:4010' });
    expect(res.status).toBe(403);
    expect(res.text).not.toContain('<html');
    expect((await send('GET', '/_console/events', { host: 'rebound.evil.example' })).status).toBe(403);
  });

  test('state-changing calls need a JSON body from the same origin', async () => {
    const plain = await send('POST', '/_console/api/scenarios/order', { 'content-type': 'text/plain' }, {});
    expect(plain.status).toBe(403);
    const crossOrigin = await send('POST', '/_console/api/scenarios/order', { ...JSON_HEADERS, origin: 'http://evil.example' }, {});
    expect(crossOrigin.status).toBe(403);
    const crossSite = await send('PUT', '/_console/api/config', { ...JSON_HEADERS, 'sec-fetch-site': 'cross-site' }, { merchantUrl: 'http://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(sandbox.log.list()).toHaveLength(0);
    expect(sandbox.options.merchantUrl).toBe(merchantUrl);
    const sameOrigin = await send('POST', '/_console/api/scenarios/order', { ...JSON_HEADERS, origin: base, 'sec-fetch-site': 'same-origin' }, {});
    expect(sameOrigin.status).toBe(200);
    expect((await send('GET', '/_console/api/scenarios/order')).status).toBe(405);
  });
});

describe('scenarios and configuration', () => {
  test('a scenario runs against the merchant and answers its result; unknown names and a missing merchant URL are clear errors', async () => {
    const run = await send('POST', '/_console/api/scenarios/order-with-payment', JSON_HEADERS, {});
    expect(run.status).toBe(200);
    expect(run.json()).toMatchObject({ name: 'order-with-payment', ok: true });
    const unknown = await send('POST', '/_console/api/scenarios/nope', JSON_HEADERS, {});
    expect(unknown.status).toBe(404);
    expect(unknown.json().code).toBe('UNKNOWN_SCENARIO');

    const noMerchant = createSandbox({ port: 0 });
    const url = await noMerchant.listen();
    try {
      const res = await fetch(`${url}/_console/api/scenarios/order`, { method: 'POST', headers: JSON_HEADERS, body: '{}' });
      expect(res.status).toBe(409);
      expect((await res.json()).message).toMatch(/no merchantUrl/);
    } finally { await noMerchant.close(); }
  });

  test('GET/PUT config: the GUID only as its last 4; a change applies at once; a bad change is refused and changes nothing', async () => {
    const config = await send('GET', '/_console/api/config');
    expect(config.json()).toMatchObject({ merchantUrl, merchantGuid: '••••7a13', sandboxUrl: base });
    expect(config.text).not.toContain(GUID);

    const bad = await send('PUT', '/_console/api/config', JSON_HEADERS, { merchantUrl: 'ftp://nope', paths: { sendOrderToMerchant: '/x' } });
    expect(bad.status).toBe(409);
    expect(bad.json()).toMatchObject({ code: 'ERR_CBK_OPTION_INVALID' });
    expect(sandbox.options.paths.sendOrderToMerchant).toBe('/SendOrderToMerchant');

    const newGuid = '11111111-2222-4333-8444-55555555abcd';
    const ok = await send('PUT', '/_console/api/config', JSON_HEADERS, { merchantGuid: newGuid, paths: { sendOrderToMerchant: '/Elsewhere' } });
    expect(ok.status).toBe(200);
    expect(ok.json()).toMatchObject({ merchantGuid: '••••abcd', paths: { sendOrderToMerchant: '/Elsewhere' } });
    expect(sandbox.options.merchantGuid).toBe(newGuid);
    const run = (await send('POST', '/_console/api/scenarios/order', JSON_HEADERS, {})).json();
    expect(run.ok).toBe(false); // the merchant has nothing at /Elsewhere
    expect(sandbox.log.list()[0].request.url).toBe(`${merchantUrl}/Elsewhere`);
  });
});

describe('live stream and exchange detail', () => {
  test('a browser gets a snapshot, then every exchange, order change and run as it happens', async () => {
    const seen = stream((events) => events.some((e) => e.event === 'order' && e.data.timeline.some((t: { event: string }) => t.event === 'paid')));
    await new Promise((resolve) => setTimeout(resolve, 50)); // the stream is open before the run starts
    await send('POST', '/_console/api/scenarios/order-with-payment', JSON_HEADERS, {});
    const events = await seen;
    expect(events[0].event).toBe('snapshot');
    expect(events[0].data.scenarios.map((s: { name: string }) => s.name)).toContain('documents');
    expect(events[0].data.config.merchantGuid).toBe('••••7a13');
    const names = events.map((e) => e.event);
    expect(names).toEqual(expect.arrayContaining(['run', 'exchange', 'order']));
    const exchange = events.find((e) => e.event === 'exchange')!.data;
    expect(exchange).toMatchObject({ direction: 'to-merchant', kind: 'sendOrderToMerchant', scenario: 'order-with-payment', status: 200, failed: false, success: true });
    expect(JSON.stringify(events)).not.toContain(GUID);
    expect(JSON.stringify(events)).not.toContain('4111111111111111');
  });

  test('calls the merchant makes to the service API stream too, and so does a configuration change', async () => {
    const seen = stream((events) => events.some((e) => e.event === 'config') && events.some((e) => e.event === 'exchange' && e.data.direction === 'from-merchant'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const shipment = await fetch(`${base}/api/shipments/${SEED_TRACKING_NUMBERS.ok}`, { headers: { authorization: 'Bearer any' } });
    expect(shipment.status).toBe(200);
    await send('PUT', '/_console/api/config', JSON_HEADERS, { cartToken: 'cart-7' });
    const events = await seen;
    expect(events.find((e) => e.event === 'exchange')!.data).toMatchObject({
      direction: 'from-merchant', kind: 'getShipmentInformation', method: 'GET', path: `/api/shipments/${SEED_TRACKING_NUMBERS.ok}`, status: 200, failed: false,
    });
    expect(events.find((e) => e.event === 'config')!.data).toMatchObject({ cartToken: 'cart-7', merchantGuid: '••••7a13' });
  });

  test('exchange detail: pretty data, card number and CVV masked, MerchantGUID only as its last 4', async () => {
    await send('POST', '/_console/api/scenarios/order-with-payment', JSON_HEADERS, {});
    const detail = await send('GET', '/_console/api/exchanges/1');
    expect(detail.status).toBe(200);
    const { exchange, summary } = detail.json();
    const payment = exchange.request.body.order.PaymentDetails;
    expect(payment.CardNumber).toBe('************1111');
    expect(payment.CVVNumber).toBe('***');
    expect(exchange.request.body.order.MerchantGUID).toBe('••••7a13');
    expect(detail.text).not.toContain(GUID);
    expect(detail.text).not.toContain('4111111111111111');
    expect(summary.note).toContain('PaymentAmount 59.90');
    expect((await send('GET', '/_console/api/exchanges/999')).status).toBe(404);
  });

  test('the stream ends when the sandbox closes (close does not hang on an open console)', async () => {
    let snapshot!: () => void;
    const streaming = new Promise<void>((resolve) => { snapshot = resolve; });
    const open = stream((events) => { if (events.length > 0) snapshot(); return false; });
    await streaming;
    await sandbox.close();
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([open, new Promise((resolve) => { timer = setTimeout(() => resolve('still open'), 2000); })]);
    clearTimeout(timer);
    expect(outcome).not.toBe('still open');
    expect((outcome as Array<{ event: string }>)[0].event).toBe('snapshot');
  });
});

describe('what the console shows', () => {
  const exchange = (over: Record<string, unknown>) => ({
    id: 7, at: '2026-11-22T05:00:00.000Z', direction: 'to-merchant' as const, kind: 'sendOrderToMerchant' as const,
    request: { method: 'POST', url: 'http://m.example/cb/SendOrderToMerchant?x=1', headers: {} }, durationMs: 3, ...over,
  });

  test('failed: non-2xx, Success false (ResponseInfo or a service reply), or no reply at all', () => {
    expect(summarize(exchange({ response: { status: 200, headers: {}, body: { Success: true } }, responseInfo: { Success: true } })).failed).toBe(false);
    expect(summarize(exchange({ response: { status: 200, headers: {}, body: {} } })).failed).toBe(false);
    expect(summarize(exchange({ response: { status: 500, headers: {}, body: {} } })).failed).toBe(true);
    expect(summarize(exchange({ response: { status: 302, headers: {} } })).failed).toBe(true);
    expect(summarize(exchange({ response: { status: 200, headers: {}, body: { Success: false } }, responseInfo: { Success: false, ErrorCode: 'X1' } }))).toMatchObject({ failed: true, note: 'ErrorCode X1' });
    expect(summarize(exchange({ direction: 'from-merchant', response: { status: 200, headers: {}, body: { Success: false, Reason: 'Order not found' } } }))).toMatchObject({ failed: true, success: false, note: 'Reason Order not found' });
    expect(summarize(exchange({ error: 'no reply within 10 ms' }))).toMatchObject({ failed: true, note: 'no reply: no reply within 10 ms' });
    expect(summarize(exchange({ response: { status: 200, headers: {} } })).path).toBe('/cb/SendOrderToMerchant?x=1');
  });

  test('a "not found" page is no refusal (a framework 404 for a wrong path); the preflight\'s probe may be answered by one', () => {
    const page = { response: { status: 404, headers: {}, body: '<!DOCTYPE html><pre>Cannot POST /SendOrderToMerchant</pre>' } };
    expect(summarize(exchange({ expected: 'refusal', ...page }))).toMatchObject({ failed: true });
    expect(summarize(exchange({ expected: 'refusal', ...page })).refusedAsExpected).toBeUndefined();
    expect(summarize(exchange({ expected: 'refusal', response: { status: 404, headers: {}, body: { Success: false, ErrorCode: 'CART_NOT_FOUND' } }, responseInfo: { Success: false, ErrorCode: 'CART_NOT_FOUND' } })))
      .toMatchObject({ failed: false, refusedAsExpected: true });
    expect(summarize(exchange({ expected: 'probe', ...page }))).toMatchObject({ failed: false, refusedAsExpected: true, expected: 'probe' });
    expect(summarize(exchange({ expected: 'probe', response: { status: 400, headers: {}, body: { Success: false } }, responseInfo: { Success: false } }))).toMatchObject({ failed: false });
    expect(summarize(exchange({ expected: 'probe', response: { status: 500, headers: {}, body: {} } }))).toMatchObject({ failed: true });
    expect(summarize(exchange({ expected: 'probe', error: 'ECONNRESET' }))).toMatchObject({ failed: true });
  });

  test('a request sent to be refused: a 4xx or Success false is "refused as expected" (not failed); a 2xx success, a 5xx or no reply is failed', () => {
    const refusal = (over: Record<string, unknown>) => summarize(exchange({ expected: 'refusal', ...over }));
    expect(refusal({ response: { status: 401, headers: {}, body: { Success: false } }, responseInfo: { Success: false } })).toMatchObject({ failed: false, refusedAsExpected: true, expected: 'refusal' });
    expect(refusal({ response: { status: 400, headers: {}, body: 'bad json' } })).toMatchObject({ failed: false, refusedAsExpected: true });
    expect(refusal({ response: { status: 200, headers: {}, body: { Success: false } }, responseInfo: { Success: false } })).toMatchObject({ failed: false, refusedAsExpected: true });
    for (const over of [
      { response: { status: 200, headers: {}, body: { Success: true } }, responseInfo: { Success: true } },
      { response: { status: 500, headers: {}, body: {} } },
      { response: { status: 302, headers: {} } },
      { error: 'no reply within 10 ms' },
    ]) {
      const s = refusal(over);
      expect(s.failed).toBe(true);
      expect(s.refusedAsExpected).toBeUndefined();
    }
    // without the mark, the same 401 is a failure as before
    expect(summarize(exchange({ response: { status: 401, headers: {}, body: {} } }))).toMatchObject({ failed: true });
    expect(summarize(exchange({ response: { status: 401, headers: {}, body: {} } })).refusedAsExpected).toBeUndefined();
  });

  test('masks card data under any key spelling and the GUID in any field or text, even when the log did not', () => {
    const raw = {
      cardnumber: '5555555555554444', CVVNumber: '123', Nested: [{ CardNumber: 4111111111111111, cvv: 999 }],
      MerchantGUID: GUID, merchant_guid: GUID, Description: `GUID ${GUID} is not configured`, Other: 'kept',
    };
    const out = maskForConsole(raw, GUID);
    expect(out).toEqual({
      cardnumber: '************4444', CVVNumber: '***', Nested: [{ CardNumber: '************1111', cvv: '***' }],
      MerchantGUID: '••••7a13', merchant_guid: '••••7a13', Description: 'GUID ••••7a13 is not configured', Other: 'kept',
    });
  });
});

test('nothing of the console reaches a merchant\'s app: only the sandbox and the CLI import lib/tools/sandbox', () => {
  const lib = fileURLToPath(new URL('../../../lib/', import.meta.url));
  const files = (readdirSync(lib, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
  expect(files.length).toBeGreaterThan(20);
  const importers = files.filter((f) => !/^tools\/(sandbox|cli)\//.test(f))
    .filter((f) => /from '[^']*\/sandbox\/|import\('[^']*\/sandbox\//.test(readFileSync(`${lib}${f}`, 'utf8')));
  expect(importers).toEqual([]);
});
