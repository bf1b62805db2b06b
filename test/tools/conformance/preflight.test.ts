/**
 * The checker never passes by accident (issue 41, items 1 and 2): a preflight line for nothing
 * mounted at the URL and for a MerchantGUID the app refuses; refusal checks pass only on a refusal
 * the interface defines (never a framework's 404 page); callbacks the merchant does not implement
 * are SKIP with the reason, on every binding; `--callbacks` names them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { MerchantAdapter } from '../../../lib/index.js';
import { createCallbackRouter } from '../../../lib/bindings/express/index.js';
import { CHECK_IDS, runConformance, type ConformanceReport } from '../../../lib/tools/conformance/index.js';
import { main } from '../../../lib/tools/cli/main.js';
import { BINDINGS } from '../../helpers/bindings.js';
import { FAKE_CART, FAKE_GUID, startFakeMerchant } from './fake-merchant.js';

const GUID = '5d2c8e1a-7b3f-4a6d-9c0e-1f2a3b4c5d6e';
/** The README's minimal adapter: only the two required callbacks. */
const minimalAdapter = (): MerchantAdapter => ({
  async sendOrderToMerchant(order) {
    return { InternalOrderId: `A-${String(order.OrderId)}`, ...(order.PaymentDetails ? { PaymentAmount: '20.00', PaymentCurrencyCode: 'EUR' } : {}) };
  },
  async updateOrderStatus(status) { return { InternalOrderId: `A-${String(status.OrderId)}` }; },
});

/** Whether a skip's reason names a callback the minimal adapter does not implement. */
const notImplemented = (detail: string) => {
  const named = /^(\w+) is not mounted/.exec(detail)?.[1];
  return named !== undefined && !(named in minimalAdapter());
};

async function serve(app: http.RequestListener | http.Server): Promise<{ origin: string; close(): Promise<void> }> {
  const server = app instanceof http.Server ? app : http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => { server.closeAllConnections(); await new Promise((r) => server.close(r)); },
  };
}

async function cli(argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (t) => { out += t; }, stderr: (t) => { err += t; } });
  return { code, out, err };
}

const statusOf = (r: ConformanceReport, id: string) => r.checks.find((c) => c.id === id)!;

test('the right host, the wrong path (Express\'s HTML 404): one preflight line naming the path, no refusal check passes', async () => {
  const app = express();
  app.use('/crossborder', createCallbackRouter({ merchantGuid: GUID, logger: false, adapter: minimalAdapter() }));
  const s = await serve(app as unknown as http.RequestListener);
  try {
    const report = await runConformance({ merchantUrl: s.origin, merchantGuid: GUID });
    expect(report.preflight).toBe(`every callback answered 404: is the path right? Give the URL the callbacks are mounted under, e.g. ${s.origin}/crossborder (or --paths)`);
    expect(report.ok).toBe(false);
    expect(report.checks.filter((c) => c.status !== 'fail')).toEqual([]);
    const run = await cli(['check', s.origin, '--guid', GUID]);
    expect(run.code).toBe(1);
    expect(run.out.split('\n')[2]).toMatch(/^PREFLIGHT FAILED: every callback answered 404: is the path right\?/);
    expect(run.out).not.toMatch(/\bPASS\b/);
  } finally {
    await s.close();
  }
});

test('the wrong path on a kit binding that answers unknown paths itself (NOT_FOUND JSON): the same preflight line', async () => {
  const [, mountNode] = BINDINGS.find(([name]) => name === 'node:http')!;
  const s = await serve(mountNode({ merchantGuid: GUID, adapter: minimalAdapter() }) as http.Server);
  try {
    const report = await runConformance({ merchantUrl: `${s.origin}/elsewhere`, merchantGuid: GUID });
    expect(report.preflight).toMatch(/^every callback answered 404: is the path right\? .*e\.g\. http:\/\/127\.0\.0\.1:\d+\/<where your router is mounted>/);
    // and at the right path the minimal adapter passes
    const right = await runConformance({ merchantUrl: `${s.origin}/cb`, merchantGuid: GUID });
    expect(right.preflight).toBeUndefined();
    expect(right.failed).toBe(0);
  } finally {
    await s.close();
  }
});

test('a wrong --guid: one line saying the app refuses this MerchantGUID, instead of nine separate 401s', async () => {
  const merchant = await startFakeMerchant();
  try {
    const report = await runConformance({ merchantUrl: merchant.url, merchantGuid: '11111111-2222-4333-8444-555555555555', cartToken: FAKE_CART });
    expect(report.preflight).toBe("the app refuses this MerchantGUID (an order with --guid got HTTP 401): compare --guid with your app's merchantGuid (or, if it checks a header, give it with --header)");
    expect(report.ok).toBe(false);
    expect(report.passed).toBe(0);
    // the right GUID: no preflight line
    const right = await runConformance({ merchantUrl: merchant.url, merchantGuid: FAKE_GUID, cartToken: FAKE_CART });
    expect(right.preflight).toBeUndefined();
    expect(right.ok).toBe(true);
  } finally {
    await merchant.close();
  }
});

test.each<[string, { guid?: number; json?: number }, string[]]>([
  ['answers a wrong or missing GUID with a framework 404 page', { guid: 404 }, ['guid-wrong-refused', 'guid-missing-refused']],
  ['answers malformed JSON with a 404 page', { json: 404 }, ['malformed-json-refused']],
  ['answers a wrong GUID with 500', { guid: 500 }, ['guid-wrong-refused', 'guid-missing-refused']],
])('a merchant that %s fails the refusal check (a page that is not the merchant\'s answer is no refusal)', async (_name, answer, expected) => {
  const merchant = await startFakeMerchant({ refusalAnsweredWith: answer });
  try {
    const report = await runConformance({ merchantUrl: merchant.url, merchantGuid: FAKE_GUID, cartToken: FAKE_CART });
    expect(report.checks.filter((c) => c.status === 'fail').map((c) => c.id).sort()).toEqual([...expected].sort());
    expect(statusOf(report, expected[0]).detail).toMatch(answer.guid === 500 || answer.json === 500 ? /a 5xx is a crash/ : /not the merchant's answer/);
  } finally {
    await merchant.close();
  }
});

test('an unknown cart answered with a 404 page (not a ResponseInfo): SKIP as not mounted, or with --callbacks naming it, FAIL', async () => {
  const merchant = await startFakeMerchant({ refusalAnsweredWith: { cart: 404 } });
  try {
    const found = await runConformance({ merchantUrl: merchant.url, merchantGuid: FAKE_GUID, cartToken: FAKE_CART });
    expect(statusOf(found, 'cart-info-token-required')).toMatchObject({ status: 'skip', detail: expect.stringMatching(/^getCheckoutCartInfo is not mounted/) });
    const callbacks = ['getCheckoutCartInfo', 'performOrderPayment', 'receiveAdditionalRequiredDocuments'];
    const report = await runConformance({ merchantUrl: merchant.url, merchantGuid: FAKE_GUID, cartToken: FAKE_CART, callbacks });
    expect(report.checks.filter((c) => c.status === 'fail').map((c) => c.id)).toEqual(['cart-info-token-required']);
    expect(statusOf(report, 'cart-info-token-required').detail).toMatch(/no token was not refused \(HTTP 404; that is a "not found" page/);
  } finally {
    await merchant.close();
  }
});

describe.each(BINDINGS)('%s, the README\'s minimal adapter (two callbacks)', (_name, mount) => {
  test('the callbacks it does not implement are SKIP with the reason, nothing fails', async () => {
    const s = await serve(mount({ merchantGuid: GUID, adapter: minimalAdapter() }) as http.Server);
    try {
      const report = await runConformance({ merchantUrl: `${s.origin}/cb`, merchantGuid: GUID, cartToken: 'any' });
      expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
      expect(report.ok).toBe(true);
      const skipped = Object.fromEntries(report.checks.filter((c) => c.status === 'skip').map((c) => [c.id, c.detail]));
      // Each skip names a callback the adapter does not implement (whichever checks send one: no list of them here).
      expect(Object.keys(skipped)).toEqual(expect.arrayContaining(['cart-info-get', 'cart-info-post', 'cart-info-token-required', 'documents-webhook', 'parcel-dispatch-exactly-once', 'payment-replay', 'return-exactly-once']));
      for (const [id, detail] of Object.entries(skipped)) expect([id, notImplemented(detail)]).toEqual([id, true]);
      expect(skipped['return-exactly-once']).toMatch(/^receiveRmaInfo is not mounted/);
      expect(skipped['parcel-dispatch-exactly-once']).toMatch(/^receiveParcelDispatch is not mounted/);
      expect(skipped['payment-replay']).toMatch(/^performOrderPayment is not mounted \(POST \/PerformOrderPayment answered HTTP 404\)/);
      expect(skipped['documents-webhook']).toMatch(/^receiveAdditionalRequiredDocuments is not mounted/);
      expect(skipped['cart-info-get']).toMatch(/^getCheckoutCartInfo is not mounted \(GET \/GetCheckoutCartInfo answered HTTP 404\)/);
    } finally {
      await s.close();
    }
  });
});

test('--callbacks names what the app implements: the others are SKIP without a request; a named one answering 404 FAILs', async () => {
  const merchant = await startFakeMerchant({ unmounted: ['/PerformOrderPayment'] });
  const seen: string[] = [];
  try {
    const report = await runConformance({
      merchantUrl: merchant.url, merchantGuid: FAKE_GUID, cartToken: FAKE_CART,
      callbacks: ['getCheckoutCartInfo', 'performOrderPayment'], onExchange: (c) => { seen.push(c.kind); },
    });
    expect(statusOf(report, 'documents-webhook')).toMatchObject({ status: 'skip', detail: 'receiveAdditionalRequiredDocuments is not in --callbacks' });
    expect(seen).not.toContain('receiveAdditionalRequiredDocuments');
    expect(statusOf(report, 'payment-replay').status).toBe('fail');
    expect(statusOf(report, 'payment-replay').detail).toMatch(/HTTP 404/);
    const run = await cli(['check', merchant.url, '--guid', FAKE_GUID, '--callbacks', 'getCheckoutCartInfo', '--json']);
    const json = JSON.parse(run.out) as { checks: Array<{ id: string; status: string; detail: string }> };
    const skips = json.checks.filter((c) => c.status === 'skip');
    expect(skips.map((c) => c.id)).toEqual(expect.arrayContaining(['cart-info-get', 'cart-info-post', 'documents-webhook', 'parcel-dispatch-exactly-once', 'payment-replay', 'return-exactly-once']));
    // without --cart-token the cart checks; otherwise each skip names a callback that is not in --callbacks
    for (const c of skips) expect([c.id, /cart-token/.test(c.detail) || /^(?!getCheckoutCartInfo\b)\w+ is not in --callbacks$/.test(c.detail)]).toEqual([c.id, true]);
    expect(run.code).toBe(0);
    expect((await cli(['check', merchant.url, '--guid', FAKE_GUID, '--callbacks', 'performOrderPaymnt'])).err).toMatch(/did you mean "performOrderPayment"/);
    await expect(runConformance({ merchantUrl: merchant.url, merchantGuid: FAKE_GUID, callbacks: ['nope'] })).rejects.toMatchObject({ code: 'ERR_CBK_OPTION_INVALID' });
  } finally {
    await merchant.close();
  }
});

test('every check id still runs in the fixed order after the preflight', async () => {
  const merchant = await startFakeMerchant();
  try {
    const report = await runConformance({ merchantUrl: merchant.url, merchantGuid: FAKE_GUID, cartToken: FAKE_CART });
    expect(report.checks.map((c) => c.id)).toEqual(CHECK_IDS);
  } finally {
    await merchant.close();
  }
});

test('no-leak and response-time judge only the replies that arrived: a path that drops the connection is no slow reply', async () => {
  const merchant = await startFakeMerchant({ dropConnection: ['/PerformOrderPayment'] });
  try {
    const report = await runConformance({ merchantUrl: merchant.url, merchantGuid: FAKE_GUID, cartToken: FAKE_CART, timeoutMs: 5000 });
    expect(report.preflight).toBeUndefined();
    expect(statusOf(report, 'payment-replay')).toMatchObject({ status: 'fail', detail: expect.stringMatching(/no reply/) });
    const leak = statusOf(report, 'no-leak');
    expect(leak.status).toBe('pass');
    expect(leak.detail).toMatch(/^\d+ replies checked \(\d+ requests got no reply\)$/);
    const time = statusOf(report, 'response-time');
    expect(time.status).toBe('pass');
    const [, judged] = /^(\d+) replies, slowest/.exec(time.detail)!;
    const [, checked] = /^(\d+) replies checked/.exec(leak.detail)!;
    expect(judged).toBe(checked);
  } finally {
    await merchant.close();
  }
});
