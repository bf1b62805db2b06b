/**
 * The callgrind driver shared by bench/instructions.ts and bench/stage-instructions.ts: the script
 * runs itself as a child under valgrind's callgrind (`--child` and its arguments), the child warms
 * up, asks for the counters to be zeroed (`signal('zero')`), does the counted work and asks for a
 * dump (`signal('dump')`); the parent answers each signal on the child's stdin and reads the
 * dump's total. Needs valgrind.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** In the child: asks the parent (on stdout) to zero or dump the counters, and waits until it did (it answers on stdin). */
export function signal(what: 'zero' | 'dump'): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.once('data', () => resolve());
    process.stdout.write(`${what}\n`);
  });
}

/** In the parent: instructions executed by `script --child ...childArgs` between its two signals. */
export async function callgrindCount(script: string, childArgs: string[], label: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'cbk-callgrind-'));
  const child = spawn('valgrind', ['--tool=callgrind', `--callgrind-out-file=${dir}/out.%p`, '--smc-check=all-non-file',
    // One thread, V8's hash seed fixed, GC scheduled by allocation only (not by time): two runs of one revision agree closely.
    process.execPath, '--predictable', '--predictable-gc-schedule', '--import', 'tsx', script, '--child', ...childArgs],
  { stdio: ['pipe', 'pipe', 'ignore'], env: process.env });
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line === 'zero') {
      execFileSync('callgrind_control', ['--zero', String(child.pid)], { stdio: 'ignore' });
      child.stdin!.write('go\n');
    } else if (line === 'dump') {
      execFileSync('callgrind_control', ['--dump=window', String(child.pid)], { stdio: 'ignore' });
      child.stdin!.end('go\n');
      break;
    }
  }
  await new Promise((resolve) => child.once('exit', resolve));
  const dumps = readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).filter((t) => /^desc: Trigger: .*window/m.test(t));
  rmSync(dir, { recursive: true });
  const total = dumps.map((t) => /^(?:summary|totals):\s*(\d+)/m.exec(t)).find(Boolean);
  if (!total) throw new Error(`no callgrind count for ${label}`);
  return Number(total[1]);
}
