/**
 * The `crossborder-merchant-kit` command: sandbox (listens, answers, stops on a signal), trigger
 * (prints each exchange, exit code from the scenario), help and usage errors.
 */
import { main } from '../../../lib/tools/cli/main.js';
import type { CliIo } from '../../../lib/tools/cli/io.js';
import { FAKE_CART, FAKE_GUID, startFakeMerchant } from '../conformance/fake-merchant.js';

function capture(extra: Partial<CliIo> = {}) {
  const io = { out: '', err: '' };
  const cliIo: CliIo = { stdout: (t) => { io.out += t; }, stderr: (t) => { io.err += t; }, ...extra };
  return { io, cliIo };
}

test('sandbox listens, says where and what to try, answers the service API, logs each call, and stops on the signal', async () => {
  const controller = new AbortController();
  let url = '';
  let listening: () => void = () => undefined;
  const started = new Promise<void>((resolve) => { listening = resolve; });
  const { io, cliIo } = capture({ signal: controller.signal, onListening: (u) => { url = u; listening(); } });
  const running = main(['sandbox', '--port', '0', '--access-token', 'tok-1', '--guid', 'g-1', '--jwt-ttl-ms', '2000'], cliIo);
  try {
    await Promise.race([started, running.then((code) => { throw new Error(`sandbox exited ${code}: ${io.err}`); })]);
  } catch (err) {
    controller.abort();
    throw err;
  }
  expect(io.out).toMatch(/sandbox listening on http:\/\/127\.0\.0\.1:\d+/);
  expect(io.out).toMatch(/MerchantGUID g-1/);
  expect(io.out).toMatch(/JWT user sandbox-api \(tokens live 2000 ms\)/);
  expect(io.out).not.toContain('tok-1');
  const ok = await fetch(`${url}/api/shipments/SBX1000000001`, { headers: { authorization: 'Bearer tok-1' } });
  expect(ok.status).toBe(200);
  const wrong = await fetch(`${url}/api/shipments/SBX1000000001`, { headers: { authorization: 'Bearer other' } });
  expect(wrong.status).toBe(401);
  controller.abort();
  expect(await running).toBe(0);
  expect(io.out).toMatch(/← GET \/api\/shipments\/SBX1000000001\n {2}200 in \d+ ms/);
  expect(io.out).toMatch(/sandbox stopped/);
  await expect(fetch(`${url}/api/shipments/SBX1000000001`)).rejects.toThrow();
});

test('sandbox refuses bad flags with exit 2 and its usage', async () => {
  for (const argv of [['sandbox', '--port', 'abc'], ['sandbox', '--merchant-url', 'localhost:3000'], ['sandbox', '--prot', '1'], ['sandbox', 'extra'], ['sandbox', '--jwt-ttl-ms', '0']]) {
    const { io, cliIo } = capture();
    expect(await main(argv, cliIo)).toBe(2);
    expect(io.err).toMatch(/Usage: crossborder-merchant-kit sandbox/);
  }
  const { io, cliIo } = capture();
  expect(await main(['sandbox', '--port', '0', '--data', '/nonexistent/seed.json'], cliIo)).toBe(1);
  expect(io.err).toMatch(/cannot read seed data \/nonexistent\/seed.json/);
});

test('trigger runs one scenario, prints each exchange with its ResponseInfo, and exits 0', async () => {
  const merchant = await startFakeMerchant();
  try {
    const { io, cliIo } = capture();
    const code = await main(['trigger', 'order-with-payment', '--merchant-url', merchant.url, '--guid', FAKE_GUID, '--cart-token', FAKE_CART], cliIo);
    expect(io.err).toBe('');
    expect(code).toBe(0);
    expect(io.out).toMatch(/→ POST \/shop\/SendOrderToMerchant {3}SendOrderToMerchant with PaymentDetails/);
    expect(io.out).toMatch(/ {2}200 in \d+ ms {3}Success true, InternalOrderId FM-\d+, OrderId \d+, PaymentAmount 20.00, PaymentCurrencyCode EUR/);
    expect(io.out).toMatch(/PASS {2}order-with-payment/);
    expect(io.out).not.toContain('4111111111111111');
  } finally {
    await merchant.close();
  }
});

test('trigger exits 1 when the merchant does not answer as the service expects, and 2 on usage errors', async () => {
  const merchant = await startFakeMerchant();
  try {
    const { io, cliIo } = capture();
    expect(await main(['trigger', 'order', '--merchant-url', merchant.url, '--guid', 'not-the-merchants-guid'], cliIo)).toBe(1);
    expect(io.out).toMatch(/FAIL {2}order: SendOrderToMerchant — expected HTTP 2xx with Success true; got HTTP 401/);
  } finally {
    await merchant.close();
  }
  for (const argv of [['trigger'], ['trigger', 'oder', '--merchant-url', 'http://x'], ['trigger', 'order']]) {
    const { cliIo } = capture();
    expect(await main(argv, cliIo)).toBe(2);
  }
});

test('help and version', async () => {
  const { io, cliIo } = capture();
  expect(await main(['--help'], cliIo)).toBe(0);
  expect(io.out).toMatch(/sandbox .*\n.*trigger <scenario>.*\n.*check <url>/);
  expect(await main(['trigger', '--help'], cliIo)).toBe(0);
  expect(io.out).toMatch(/redelivery/);
  expect(await main(['--version'], cliIo)).toBe(0);
  expect(io.out).toMatch(/\d+\.\d+\.\d+\n$/);
});

test('sandbox --help names every path the sandbox\'s service API routes (service-api.ts, fulfilment.ts)', async () => {
  const { readFileSync } = await import('node:fs');
  const source = (f: string) => readFileSync(new URL(`../../../lib/tools/sandbox/${f}`, import.meta.url), 'utf8');
  const served = new Set<string>();
  for (const f of ['service-api.ts', 'fulfilment.ts']) {
    for (const m of source(f).matchAll(/(?:case |^\s*|, )'(\/[A-Za-z][\w/-]*)'(?=:)/gm)) served.add(m[1]);
  }
  const catalogue = source('catalogue.ts');
  for (const m of catalogue.matchAll(/path === '(\/[A-Za-z][\w/-]*)'/g)) served.add(m[1]);
  for (const m of catalogue.matchAll(/\^\\\/Browsing\\\/\(([A-Za-z|]+)\)\$/g)) for (const name of m[1].split('|')) served.add(`/Browsing/${name}`);
  expect(served.size).toBeGreaterThanOrEqual(25);
  const { io, cliIo } = capture();
  expect(await main(['sandbox', '--help'], cliIo)).toBe(0);
  const missing = [...served].filter((p) => !io.out.includes(p));
  expect(missing).toEqual([]);
});
