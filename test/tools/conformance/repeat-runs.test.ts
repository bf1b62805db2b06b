/**
 * Checker runs never reuse an OrderId (issue 22, item 5): `check` run three times one after another,
 * each in its own process as a user runs it, against a merchant that remembers its orders and refuses
 * a second cancel with 409 — all three pass.
 */
import { spawn } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { BASE_PATH, createExampleApp, DEMO_MERCHANT_GUID } from '../../../examples/basic-merchant/app.js';
import { CHECK_IDS } from '../../../lib/tools/conformance/index.js';
import { newServiceOrderId } from '../../../lib/tools/conformance/payloads.js';
import { FAKE_CART, FAKE_GUID, startFakeMerchant } from './fake-merchant.js';
import { distIsFresh } from '../../helpers/fresh-dist.js';

// The CLI as users run it: the built bin when dist/ is fresh (CI builds it before `npm test`; each
// `--import tsx` process compiles lib/ anew, seconds on a busy 2-core machine), else the sources through tsx.
const CLI = distIsFresh()
  ? [fileURLToPath(new URL('../../../dist/tools/cli/bin.js', import.meta.url))]
  : ['--import', 'tsx', fileURLToPath(new URL('../../../lib/tools/cli/bin.ts', import.meta.url))];

function cliInAProcess(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI, ...args], {
      env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => { out += c; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}
const checkInAProcess = (url: string, guid = FAKE_GUID, cart = FAKE_CART) => cliInAProcess(['check', url, '--guid', guid, '--cart-token', cart, '--json']);

test('three check runs in a row against a stateful merchant all pass (no OrderId is reused across processes)', async () => {
  const merchant = await startFakeMerchant({ stateful: true });
  try {
    for (let run = 1; run <= 3; run++) {
      const { code, out } = await checkInAProcess(merchant.url);
      const failed = (JSON.parse(out) as { checks: Array<{ id: string; status: string; detail: string }> }).checks.filter((c) => c.status !== 'pass');
      expect({ run, failed }).toEqual({ run, failed: [] });
      expect(code).toBe(0);
    }
  } finally {
    await merchant.close();
  }
}, 60_000);

test('check twice, then trigger full, against the example shop (it refuses a re-cancel with 409 ORDER_CANCELED): all pass', async () => {
  const server: Server = createExampleApp().app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE_PATH}`;
  try {
    for (let run = 1; run <= 2; run++) {
      const { code, out } = await checkInAProcess(url, DEMO_MERCHANT_GUID, 'demo-cart');
      expect({ run, failed: (JSON.parse(out) as { checks: Array<{ status: string }> }).checks.filter((c) => c.status !== 'pass') }).toEqual({ run, failed: [] });
      expect(code).toBe(0);
    }
    const full = await cliInAProcess(['trigger', 'full', '--merchant-url', url, '--guid', DEMO_MERCHANT_GUID, '--cart-token', 'demo-cart', '--json']);
    const result = JSON.parse(full.out) as { ok: boolean; steps: Array<{ label: string; status: string; detail: string }> };
    expect(result.steps.filter((s) => s.status === 'fail')).toEqual([]);
    expect(result.ok).toBe(true);
    expect(full.code).toBe(0);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}, 60_000);

test('the stateful merchant does refuse a reused OrderId: a second cancel, another order under a known id are 409', async () => {
  const merchant = await startFakeMerchant({ stateful: true });
  try {
    const post = (path: string, body: unknown) => fetch(`${merchant.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const order = { OrderId: 'GE1SB', MerchantGUID: FAKE_GUID };
    expect((await post('/SendOrderToMerchant', order)).status).toBe(200);
    expect((await post('/UpdateOrderStatus', { ...order, StatusCode: 'canceled' })).status).toBe(200);
    expect((await post('/UpdateOrderStatus', { ...order, StatusCode: 'canceled' })).status).toBe(409);
    expect((await post('/SendOrderToMerchant', order)).status).toBe(200);
    expect((await post('/SendOrderToMerchant', { ...order, CartId: 'another' })).status).toBe(409);
  } finally {
    await merchant.close();
  }
});

test('OrderIds keep the GE…SB look and do not repeat', () => {
  const ids = Array.from({ length: 2000 }, () => newServiceOrderId());
  for (const id of ids) expect(id).toMatch(/^GE\d{13}SB$/);
  expect(new Set(ids).size).toBe(ids.length);
  expect(CHECK_IDS).toContain('status-cancel');
});
