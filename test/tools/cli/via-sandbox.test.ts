/**
 * Runs through a running sandbox (issue 41, item 3): the commands npm start's banner prints go
 * through the sandbox, so its console shows them — the exchanges, the orders a check creates, and
 * the latest results, kept for a page opened later. Plus the CLI's hints (item 4): the sandbox
 * banner's console URL, a --port hint on EADDRINUSE, a did-you-mean for a misspelt flag.
 */
import net from 'node:net';
import { main } from '../../../lib/tools/cli/main.js';
import type { CliIo } from '../../../lib/tools/cli/io.js';
import { startLoop, type Loop } from '../../../examples/basic-merchant/loop.js';
import { CHECK_IDS } from '../../../lib/tools/conformance/index.js';

let loop: Loop;
beforeAll(async () => { loop = await startLoop({ merchantPort: 0, sandboxPort: 0, logger: { info() {}, warn() {}, error() {}, debug() {} } as never }); });
afterAll(async () => { await loop.close(); });

async function cli(argv: string[], extra: Partial<CliIo> = {}) {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (t) => { out += t; }, stderr: (t) => { err += t; }, ...extra });
  return { code, out, err };
}

/** The first event of the console's stream (the snapshot a page gets when it opens or reloads). */
async function snapshot(): Promise<{ results: Array<{ kind: string; name: string; ok: boolean; data: any }>; orders: Array<{ orderId: string; source: string }> }> {
  const controller = new AbortController();
  const res = await fetch(`${loop.sandboxUrl}/_console/events`, { signal: controller.signal });
  const reader = res.body!.getReader();
  let text = '';
  while (!/event: snapshot\ndata: .*\n\n/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
  controller.abort();
  return JSON.parse(/event: snapshot\ndata: (.*)\n\n/.exec(text)![1]);
}

test('npm start\'s banner prints the commands through the sandbox, and the console URL', () => {
  expect(loop.banner).toContain(`npm run cli -- trigger full --sandbox ${loop.sandboxUrl}`);
  expect(loop.banner).toContain(`npm run cli -- check --sandbox ${loop.sandboxUrl}`);
  expect(loop.banner).toContain(`web console                 ${loop.sandboxUrl}/`);
});

test('trigger --sandbox runs the scenario in the sandbox: its exchanges and result are there for the console', async () => {
  const before = loop.sandbox.log.total;
  const run = await cli(['trigger', 'order', '--sandbox', loop.sandboxUrl]);
  expect(run.err).toBe('');
  expect(run.code).toBe(0);
  expect(run.out).toMatch(/Scenario order: all \d+ step\(s\) as the service expects\./);
  expect(loop.sandbox.log.total).toBeGreaterThan(before);
  expect(loop.sandbox.log.list({ sinceId: before }).every((e) => e.scenario === 'order')).toBe(true);
  const snap = await snapshot();
  expect(snap.results).toContainEqual(expect.objectContaining({ kind: 'scenario', name: 'order', ok: true }));
});

test('check --sandbox runs the checks in the sandbox: the orders they create are under Orders, the table is kept', async () => {
  const run = await cli(['check', '--sandbox', loop.sandboxUrl, '--json']);
  expect(run.err).toBe('');
  expect(run.code).toBe(0);
  const json = JSON.parse(run.out) as { checks: Array<{ id: string; status: string }>; failed: number; durationMs: number };
  expect(json.checks.map((c) => c.id)).toEqual(CHECK_IDS);
  expect(json.failed).toBe(0);
  expect(json.durationMs).toBeGreaterThan(0); // the sandbox's timing, not a placeholder 0
  const fromCheck = loop.sandbox.orders.list().filter((o) => o.source === 'check');
  expect(fromCheck.length).toBeGreaterThanOrEqual(8);
  expect(fromCheck.every((o) => o.created)).toBe(true);
  expect(fromCheck.some((o) => o.cancelled)).toBe(true);
  expect(fromCheck.some((o) => o.paid !== null)).toBe(true);
  expect(fromCheck.some((o) => o.documentsDelivered)).toBe(true);
  // the wrong-GUID and broken-JSON orders were refused: no order for them
  const refused = loop.sandbox.log.list({ scenario: 'check' }).filter((e) => e.expected === 'refusal' && e.orderId).map((e) => e.orderId);
  expect(fromCheck.filter((o) => refused.includes(o.orderId))).toEqual([]);
  const snap = await snapshot();
  const check = snap.results.find((r) => r.kind === 'check')!;
  expect(check).toMatchObject({ name: 'check', ok: true });
  expect(check.data.checks.map((c: { id: string }) => c.id)).toEqual(CHECK_IDS);
  expect(snap.orders.filter((o) => o.source === 'check').length).toBe(fromCheck.length);
  // the table as the command prints it
  const table = await cli(['check', '--sandbox', loop.sandboxUrl]);
  expect(table.out).toMatch(new RegExp(`${CHECK_IDS.length} passed, 0 failed, 0 skipped \\(\\d+ ms\\)`));
  expect(table.out).not.toMatch(/skipped \(0 ms\)/); // the sandbox's timing, not a placeholder
});

test('--sandbox refuses merchant flags (the sandbox drives its own merchant) and says when no sandbox answers', async () => {
  const both = await cli(['check', loop.merchantUrl, '--sandbox', loop.sandboxUrl, '--guid', 'x']);
  expect(both.code).toBe(2);
  expect(both.err).toMatch(/with --sandbox the sandbox drives the merchant it is configured for; drop <url>, --guid/);
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise((r) => probe.close(r));
  const none = await cli(['trigger', 'order', '--sandbox', `http://127.0.0.1:${port}`]);
  expect(none.code).toBe(1);
  expect(none.err).toContain(`cannot reach the sandbox at http://127.0.0.1:${port} (ECONNREFUSED): is it running (npm start, or crossborder-merchant-kit sandbox)?`);
  expect((await cli(['trigger', 'order', '--sandbox', 'not a url'])).err).toMatch(/--sandbox must be the running sandbox's URL/);
});

test('a misspelt flag gets a did-you-mean (as a misspelt command does)', async () => {
  const run = await cli(['trigger', 'order', '--merchant-ur', 'http://127.0.0.1:1']);
  expect(run.code).toBe(2);
  expect(run.err).toContain('Unknown option \'--merchant-ur\'; did you mean "--merchant-url"?');
  expect((await cli(['check', 'http://x', '--gud', 'g'])).err).toContain('did you mean "--guid"?');
});

test('the sandbox command: its banner names the console URL; a port in use gets a --port hint', async () => {
  const port = Number(new URL(loop.sandboxUrl).port);
  const busy = await cli(['sandbox', '--port', String(port)]);
  expect(busy.code).toBe(1);
  expect(busy.err).toContain(`the port is in use (another sandbox, or npm start?): choose another with --port, e.g. --port ${port + 1}, or --port 0 for any free port`);
  const controller = new AbortController();
  let url = '';
  const running = cli(['sandbox', '--port', '0', '--merchant-url', loop.merchantUrl], { signal: controller.signal, onListening: (u) => { url = u; controller.abort(); } });
  const done = await running;
  expect(done.code).toBe(0);
  expect(done.out).toContain(`  web console: ${url}/`);
  // commands a user of the installed package can paste: its bin is not on PATH, npx finds it
  expect(done.out).toContain(`npx crossborder-merchant-kit trigger full --sandbox ${url}; npx crossborder-merchant-kit check --sandbox ${url}`);
});
