/**
 * A short script sees its time-out (issue 51, item 7): the client's time limit on the `accessToken`
 * function keeps Node running while the script awaits the call, so the script gets the documented
 * ACCESS_TOKEN_UNAVAILABLE rejection instead of exiting with the promise pending (exit code 13,
 * nothing printed). Run as its own process: in jest's worker something else always keeps Node up.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./fixtures/hung-access-token.ts', import.meta.url));

test('a script awaiting a call on a hung accessToken gets ACCESS_TOKEN_UNAVAILABLE (nothing sent) and exits 0', () => {
  const child = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000 });
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  const { code, attempts, message } = JSON.parse(child.stdout) as { code: string; attempts: number; message: string };
  expect({ code, attempts }).toEqual({ code: 'ACCESS_TOKEN_UNAVAILABLE', attempts: 0 });
  expect(message).toContain('did not answer within timeoutMs (200 ms)');
});
