/**
 * The checker against the example merchant app (built with the kit): every check passes.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BASE_PATH, createExampleApp, DEMO_MERCHANT_GUID } from '../../../examples/basic-merchant/app.js';
import { runConformance } from '../../../lib/tools/conformance/index.js';
import { createSandbox } from '../../../lib/tools/sandbox/index.js';

let server: Server;
let merchantUrl: string;

beforeAll(async () => {
  server = createExampleApp().app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  merchantUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE_PATH}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

test('the example app passes every conformance check', async () => {
  const report = await runConformance({ merchantUrl, merchantGuid: DEMO_MERCHANT_GUID, cartToken: 'demo-cart' });
  expect(report.checks.filter((c) => c.status !== 'pass')).toEqual([]);
  expect(report.ok).toBe(true);
});

test('sandbox.runCheck runs the checker and records its exchanges (card masked) in the log', async () => {
  const sandbox = createSandbox({ port: 0, merchantUrl, merchantGuid: DEMO_MERCHANT_GUID, cartToken: 'demo-cart' });
  const finished: unknown[] = [];
  sandbox.log.subscribe((e) => { if (e.type === 'scenario-finished') finished.push(e.scenario); });
  try {
    const report = await sandbox.runCheck({ only: ['order-create', 'payment-amount-reported', 'no-store'] });
    expect(report.checks.map((c) => c.status)).toEqual(['pass', 'pass', 'pass']);
    const logged = sandbox.log.list({ scenario: 'check' });
    expect(logged.length).toBeGreaterThanOrEqual(3);
    expect(logged.every((e) => e.direction === 'to-merchant')).toBe(true);
    // the preflight's probes (an order with the GUID, then each callback with an empty body, sent to be refused) come first
    expect(logged.filter((e) => e.label?.startsWith('preflight: ')).length).toBeGreaterThanOrEqual(5);
    expect(logged.filter((e) => e.expected === undefined).every((e) => e.response?.status === 200)).toBe(true);
    expect(logged.filter((e) => e.expected === 'probe').length).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(logged)).not.toContain('4111111111111111');
    expect(finished).toEqual([expect.objectContaining({ name: 'check', ok: true, summary: '3 passed, 0 failed, 0 skipped' })]);
  } finally {
    await sandbox.close();
  }
});
