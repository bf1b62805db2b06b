/**
 * The checker is pointed at URLs people paste: a hostile merchant must not hang it, fill its memory
 * or send it elsewhere. Never answering, answering 1 GB, redirecting to another host, answering a
 * stack trace: every check ends (each request within timeoutMs, the time-out naming the budget) with
 * a clear FAIL, the run finishes, and nothing is followed off-origin.
 */
import { runConformance, type ConformanceReport } from '../../../lib/tools/conformance/runner.js';
import { startHostile, type Hostile, type HostileMode } from '../../helpers/hostile-merchant.js';

const GUID = 'b5f0c2d4-1e3a-4c8b-9d7f-2a6e8c0b4f11';
let servers: Hostile[] = [];
afterEach(async () => { await Promise.all(servers.map((s) => s.close())); servers = []; });
const start = async (mode: HostileMode, opts = {}) => { const s = await startHostile(mode, opts); servers.push(s); return s; };
const check = (merchantUrl: string, timeoutMs = 300): Promise<ConformanceReport> => runConformance({ merchantUrl, merchantGuid: GUID, timeoutMs, cartToken: 'cart-1' });
/** The checks that judge the merchant's answers (no-store needs order data to judge, and is skipped without any). */
const judged = (r: ConformanceReport) => r.checks.filter((c) => !['no-store', 'no-leak', 'response-time'].includes(c.id));

test('a merchant that never answers: every check FAILs naming the time-out, the run finishes', async () => {
  const h = await start('never');
  // Every request waits out the whole budget (nothing ever answers), one after another: a short one.
  const report = await check(h.url, 100);
  expect(report.ok).toBe(false);
  expect(report.checks.length).toBeGreaterThan(10);
  for (const c of judged(report)) {
    expect(c.status).toBe('fail');
    expect(c.detail).toContain('no reply within 100 ms');
  }
  expect(report.checks.find((c) => c.id === 'response-time')!.status).toBe('fail');
}, 60_000);

test('a merchant that answers 1 GB: replies are cut at 1 MiB and FAIL as such; the gigabyte is never read', async () => {
  const h = await start('huge');
  // room to read each first MiB on a loaded machine: what is tested is the cut, not the time
  const report = await check(h.url, 10_000);
  for (const c of judged(report)) {
    expect(c.status).toBe('fail');
    expect(c.detail).toMatch(/HTTP 200, reply larger than 1048576 bytes/);
  }
  // 37 requests, each stopped after its first MiB (plus what socket buffers hold)
  expect(h.bytesSent).toBeLessThan(37 * 8 * 1024 * 1024);
}, 60_000);

test('a merchant that redirects to another host: the redirect FAILs, the other host sees no request', async () => {
  const elsewhere = await start('stack');
  const h = await start('redirect', { redirectTo: elsewhere.url });
  const report = await check(h.url);
  for (const c of judged(report)) {
    expect(c.status).toBe('fail');
    expect(c.detail).toContain('HTTP 307');
  }
  expect(h.hits).toBeGreaterThan(10);
  expect(elsewhere.hits).toBe(0);
}, 60_000);

test('a merchant that answers a stack trace: no-leak FAILs naming it; nothing of the answer is run', async () => {
  const h = await start('stack');
  const report = await check(h.url);
  const leak = report.checks.find((c) => c.id === 'no-leak')!;
  expect(leak.status).toBe('fail');
  expect(leak.detail).toMatch(/a stack trace and a server file path/);
  for (const c of judged(report)) expect(c.status).toBe('fail');
}, 60_000);
