/**
 * A short script sees its time-out (issue 51, item 7). The kit's own timers keep Node running while a
 * caller awaits what they bound, and not otherwise: a script awaiting a delivery whose adapter hangs
 * gets the adapter time-out's 500; a script awaiting `kit.idle()` while a reply's save backs off sees
 * the save end; a script that does not await the late adapter, or the retried save, exits without
 * waiting for the lock's bound. Each runs as its own process (in jest's worker something else always keeps Node up): before,
 * both scripts exited with the promise pending (exit code 13, nothing printed).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./fixtures/short-script.ts', import.meta.url));
function run(mode: string): { status: number; lines: string[] } {
  const child = spawnSync(process.execPath, ['--import', 'tsx', script, mode], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000 });
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  return JSON.parse(child.stdout) as { status: number; lines: string[] };
}

test('a script awaiting a delivery whose adapter never settles gets the time-out\'s 500, and exits without waiting for the lock\'s bound', () => {
  const seen = run('adapter-hangs');
  expect(seen.status).toBe(500);
  expect(seen.lines).toContain('adapter sendOrderToMerchant failed');
  // leaseMs is 10 min: the process ended long before the late adapter's bound, which nothing awaited (issue 48:
  // the bound's timer made to keep Node running held it until spawnSync's 60 s limit, status null)
  expect(seen.lines.join('\n')).not.toMatch(/reached its bound/);
});

test('a script awaiting kit.idle() while a reply\'s save backs off sees the save end', () => {
  const seen = run('save-backing-off');
  expect(seen.status).toBe(200);
  expect(seen.lines[0]).toBe('idempotency store failed to keep a successful reply; keeping the OrderId lock and retrying');
  expect(seen.lines.at(-1)).toBe('a successful reply that could not be stored at first is now stored');
});

test('a script that does not await kit.idle() while a reply\'s save keeps failing exits without waiting for the lock\'s bound', () => {
  const seen = run('save-failing');
  expect(seen.status).toBe(200);
  expect(seen.lines).toContain('idempotency store failed to keep a successful reply; keeping the OrderId lock and retrying');
  // The save's back-off pauses do not keep Node running (an idle server, a Lambda invocation is not held): the
  // process ends with the reply. A pause made to keep it (issue 48: keepSaving's `{ ref: false }` → `{}`, or
  // `ref: true`) held it through every retry until the lock's bound, 10 min: spawnSync's 60 s limit, status null.
});
