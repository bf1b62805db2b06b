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

/**
 * In the parent: the instructions of each counted window of `script --child ...childArgs`, in order.
 * The child may signal `zero` … `dump` any number of times (each dump is one window, read from its
 * own dump file); the counts come back in the order of the child's dumps.
 */
export async function callgrindWindows(script: string, childArgs: string[], label: string): Promise<WindowCount[]> {
  const dir = mkdtempSync(join(tmpdir(), 'cbk-callgrind-'));
  const child = spawn('valgrind', ['--tool=callgrind', `--callgrind-out-file=${dir}/out.%p`, '--smc-check=all-non-file',
    process.execPath, '--predictable', '--predictable-gc-schedule', '--import', 'tsx', script, '--child', ...childArgs],
  { stdio: ['pipe', 'pipe', 'ignore'], env: process.env });
  let windows = 0;
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line === 'zero') {
      execFileSync('callgrind_control', ['--zero', String(child.pid)], { stdio: 'ignore' });
      child.stdin!.write('go\n');
    } else if (line === 'dump') {
      execFileSync('callgrind_control', [`--dump=window${windows++}`, String(child.pid)], { stdio: 'ignore' });
      child.stdin!.write('go\n');
    } else if (line === 'end') {
      child.stdin!.end();
      break;
    }
  }
  await new Promise((resolve) => child.once('exit', resolve));
  const counts: WindowCount[] = [];
  for (const f of readdirSync(dir)) {
    const text = readFileSync(join(dir, f), 'utf8');
    const trigger = /^desc: Trigger: .*window(\d+)/m.exec(text);
    const total = /^(?:summary|totals):\s*(\d+)/m.exec(text);
    if (trigger && total) counts[Number(trigger[1])] = { total: Number(total[1]), ...gcCounts(join(dir, f)) };
  }
  if (process.env.BENCH_CALLGRIND_KEEP) process.stderr.write(`callgrind dumps kept in ${dir}\n`);
  else rmSync(dir, { recursive: true });
  if (counts.length !== windows || counts.some((c) => c === undefined)) throw new Error(`callgrind: ${counts.length} of ${windows} windows counted for ${label}`);
  return counts;
}

/** One window's instructions: in all, in V8's garbage collector, and in V8's compilers (JIT tiers, run on the main thread under --predictable). */
export interface WindowCount { total: number; gc: number; jit: number }

/** V8's heap code: marking, sweeping, scavenging, compaction, the write barrier's marking, the heap's own functions. */
const GC = /v8::internal::\S*(Mark|Scaveng|Sweep|Evacuat|Compact|Remembered|SlotSet|Worklist|Barrier|IteratePointers|Visitor|FreeList|MemoryChunk|Heap::|HeapObject::SizeFromMap|IncrementalMarking)/;
/** V8's compilers (TurboFan, Maglev, Sparkplug, the bytecode generator). */
const JIT = /v8::internal::(compiler::|maglev::|baseline::|interpreter::Bytecode|Compiler::|\(anonymous namespace\)::Compile)|std::\S*compiler::/;

/** A dump's self (exclusive) instructions by function, summed into GC and JIT (callgrind_annotate; node's C++ symbols). */
export function gcCounts(file: string): { gc: number; jit: number } {
  const text = execFileSync('callgrind_annotate', ['--threshold=100', file], { encoding: 'utf8', maxBuffer: 256 << 20 });
  let gc = 0;
  let jit = 0;
  for (const line of text.split('\n')) {
    const m = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$/.exec(line);
    if (!m || m[2].includes('PROGRAM TOTALS')) continue;
    const n = Number(m[1].replaceAll(',', ''));
    if (GC.test(m[2])) gc += n;
    else if (JIT.test(m[2])) jit += n;
  }
  return { gc, jit };
}
