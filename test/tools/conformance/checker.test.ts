/**
 * The conformance checker against a hand-written merchant: the correct one passes every check; each
 * deliberate flaw fails exactly the checks that should catch it, and the command exits 1.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHECK_IDS, runConformance, toJson } from '../../../lib/tools/conformance/index.js';
import { main } from '../../../lib/tools/cli/main.js';
import { FAKE_CART, FAKE_GUID, startFakeMerchant, type Flaws } from './fake-merchant.js';

async function withMerchant<T>(flaws: Flaws, run: (url: string) => Promise<T>): Promise<T> {
  const merchant = await startFakeMerchant(flaws);
  try {
    return await run(merchant.url);
  } finally {
    await merchant.close();
  }
}

async function cli(argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (t) => { out += t; }, stderr: (t) => { err += t; } });
  return { code, out, err };
}

test('a correct merchant passes every check, in the fixed order, and check exits 0', async () => {
  await withMerchant({}, async (url) => {
    const report = await runConformance({ merchantUrl: url, merchantGuid: FAKE_GUID, cartToken: FAKE_CART });
    expect(report.checks.filter((c) => c.status !== 'pass')).toEqual([]);
    expect(report.checks.map((c) => c.id)).toEqual(CHECK_IDS);
    expect(report).toMatchObject({ passed: CHECK_IDS.length, failed: 0, skipped: 0, ok: true });
    const run = await cli(['check', url, '--guid', FAKE_GUID, '--cart-token', FAKE_CART]);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(new RegExp(`${CHECK_IDS.length} passed, 0 failed, 0 skipped`));
  });
});

test('the check ids the issue names are all there', () => {
  expect(CHECK_IDS).toEqual(expect.arrayContaining([
    'cart-info-get', 'cart-info-post', 'cart-info-token-required', 'order-create', 'order-replay-same-reply',
    'order-concurrent-duplicates', 'payment-amount-reported', 'payment-replay', 'status-cancel', 'guid-wrong-refused',
    'guid-missing-refused', 'malformed-json-refused', 'encoded-fields-accepted', 'no-store', 'no-leak', 'documents-webhook', 'response-time',
  ]));
});

test.each<[string, Flaws, string[]]>([
  ['no GUID check', { noGuidCheck: true }, ['guid-wrong-refused', 'guid-missing-refused']],
  ['a stack trace in a 500', { stackTraceIn500: true }, ['no-leak']],
  ['a non-idempotent create', { nonIdempotentCreate: true }, ['order-replay-same-reply', 'order-concurrent-duplicates']],
  ['no no-store', { noNoStore: true }, ['no-store']],
  ['no cart-token validation', { noCartTokenCheck: true }, ['cart-info-token-required']],
  ['bad input answered with a 500 (never a refusal)', { badInputAs500: true }, ['guid-wrong-refused', 'guid-missing-refused', 'malformed-json-refused']],
])('a merchant with %s fails exactly the expected checks and check exits 1', async (_name, flaws, expected) => {
  await withMerchant(flaws, async (url) => {
    const dir = mkdtempSync(join(tmpdir(), 'cbk-junit-'));
    try {
      const junit = join(dir, 'report.xml');
      const run = await cli(['check', url, '--guid', FAKE_GUID, '--cart-token', FAKE_CART, '--json', '--junit', junit]);
      expect(run.code).toBe(1);
      const json = JSON.parse(run.out) as ReturnType<typeof toJson>;
      expect(json.checks.filter((c) => c.status === 'fail').map((c) => c.id).sort()).toEqual([...expected].sort());
      expect(json).toMatchObject({ failed: expected.length, skipped: 0, passed: CHECK_IDS.length - expected.length });
      for (const c of json.checks) expect(Object.keys(c).sort()).toEqual(['detail', 'durationMs', 'id', 'status', 'title']);
      for (const c of json.checks) expect(c.durationMs).toBeGreaterThanOrEqual(0);
      // the run's own duration, not a placeholder 0 (every check sent at least one request)
      expect(json.durationMs).toBeGreaterThan(0);
      const xml = readFileSync(junit, 'utf8');
      expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
      expect(xml.match(/<testcase /g)).toHaveLength(CHECK_IDS.length);
      expect(xml.match(/<failure /g)).toHaveLength(expected.length);
      for (const id of expected) expect(xml).toMatch(new RegExp(`<testcase classname="conformance" name="${id}"[^>]*>\\s*<failure `));
      // the report never carries the card data it sent, even from a leaking merchant
      expect(run.out + xml).not.toMatch(/4111\s?1111\s?1111\s?1111/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('without a cart token the cart checks are skipped, not passed; --strict then exits 1', async () => {
  await withMerchant({}, async (url) => {
    const run = await cli(['check', url, '--guid', FAKE_GUID, '--json']);
    const json = JSON.parse(run.out) as ReturnType<typeof toJson>;
    const skipped = json.checks.filter((c) => c.status === 'skip');
    expect(skipped.map((c) => c.id)).toEqual(['cart-info-get', 'cart-info-post']);
    expect(skipped[0].detail).toMatch(/cart token/);
    expect(run.code).toBe(0);
    expect((await cli(['check', url, '--guid', FAKE_GUID, '--strict', '--only', 'cart-info-get,order-create'])).code).toBe(1);
  });
});

test('a merchant that is not there: one preflight line, every check FAILs "not run" with it, nothing passes', async () => {
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  const port = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r)); // nothing listens there now
  const url = `http://127.0.0.1:${port}/none`;
  const report = await runConformance({ merchantUrl: url, merchantGuid: FAKE_GUID, timeoutMs: 2000 });
  expect(report.preflight).toBe(`cannot reach ${url} (ECONNREFUSED): is your app running?`);
  expect(report.ok).toBe(false);
  expect(report.checks.map((c) => c.id)).toEqual(CHECK_IDS);
  for (const c of report.checks) expect(c).toMatchObject({ status: 'fail', detail: `not run: ${report.preflight!}` });
  const run = await cli(['check', url, '--guid', FAKE_GUID]);
  expect(run.code).toBe(1);
  expect(run.out).toContain(`PREFLIGHT FAILED: cannot reach ${url} (ECONNREFUSED): is your app running?`);
  expect(run.out).not.toMatch(/\bPASS\b/);
});

test('a slow merchant fails response-time with the budget given by --timeout-ms', async () => {
  const { createServer } = await import('node:http');
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((_req, res) => {
    const t = setTimeout(() => { timers.delete(t); res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end('{"Success":true,"InternalOrderId":"S-1"}'); }, 400);
    timers.add(t);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  try {
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const run = await cli(['check', url, '--guid', FAKE_GUID, '--timeout-ms', '100', '--only', 'order-create,response-time', '--json']);
    const json = JSON.parse(run.out) as ReturnType<typeof toJson>;
    expect(json.checks.find((c) => c.id === 'response-time')).toMatchObject({ status: 'fail', detail: expect.stringMatching(/missed 100 ms/) });
    expect(run.code).toBe(1);
  } finally {
    for (const t of timers) clearTimeout(t);
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

test('usage errors exit 2 with the command\'s usage', async () => {
  const noGuid = await cli(['check', 'http://127.0.0.1:1']);
  expect(noGuid.code).toBe(2);
  expect(noGuid.err).toMatch(/--guid/);
  expect((await cli(['check', 'not a url', '--guid', 'g'])).err).toMatch(/absolute http\(s\) URL/);
  expect((await cli(['check', 'http://x', '--guid', 'g', '--only', 'no-such-check'])).err).toMatch(/unknown check id/);
  expect((await cli(['check', 'http://x', '--guid', 'g', '--paths', 'sendOrderToMerchnt=/x'])).err).toMatch(/did you mean "sendOrderToMerchant"/);
  expect((await cli(['chek'])).err).toMatch(/did you mean "check"/);
  expect((await cli(['check', '--nope'])).code).toBe(2);
});
