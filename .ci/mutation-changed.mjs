/**
 * `npm run test:mutation:changed [-- --list]` (a step of .ci/run; `--list`: the areas and lines, no Stryker): StrykerJS on the security LINES a change adds or
 * alters, not on whole files (issue 26 item 6; docs/safety-tests.md, "In CI: the changed lines").
 *
 * - The change: `git diff -U0 $MUTATION_BASE HEAD` (default base `HEAD^1`, the first parent: on main, the
 *   landing merge against the main it landed on). No parent (a shallow clone, the first commit) or no
 *   changed line in an area's `mutate` entries (.ci/mutation-areas.mjs) → "no security lines changed", exit 0.
 * - Each affected area runs stryker.conf.mjs through .ci/stryker-changed.conf.mjs with `mutate` = those
 *   lines only (an entry already limited to `file:from-to` is intersected), concurrency 1, one area at a time.
 * - A budget, MUTATION_BUDGET_MINUTES (default 25) for all areas together: once Stryker has counted the
 *   mutants and timed its initial test run, an area whose estimate (mutants × that run × 1.25) does not
 *   fit what is left is stopped and reported as skipped (exit 0, the nightly command named); a run that
 *   still overruns is killed at the budget's end and reported the same way. Never a failure: the budget
 *   is CI's.
 * - The gate (mutation-lines.mjs `gate`): exit 1 when the score of the changed lines is below
 *   MUTATION_THRESHOLD (default 90) AND a survivor is not listed in .ci/mutation-equivalents.json;
 *   exit 1 too when Stryker itself fails (its initial test run, a config error); exit 2 on a bad base or
 *   a test file of an affected area that does not exist.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { AREAS } from './mutation-areas.mjs';
import { areaRanges, changedLines, gate, mutatedFiles } from './mutation-lines.mjs';

const say = (s) => console.log(`[mutation:changed] ${s}`);
const minutes = (ms) => `${(ms / 60000).toFixed(1)} min`;
const nightly = (areas) => `npm run test:mutation -- ${areas.join(' ')}   (the nightly run, docs/safety-tests.md)`;

function git(args) {
  return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
}

/** The base commit, or null when the default base (the first parent) does not exist. */
function resolveBase() {
  const asked = process.env.MUTATION_BASE;
  try {
    return git(['rev-parse', '--verify', '--quiet', `${asked || 'HEAD^1'}^{commit}`]).trim();
  } catch {
    if (!asked) return null;
    console.error(`[mutation:changed] MUTATION_BASE=${asked} is not a commit of this clone (fetch more history?)`);
    process.exit(2);
  }
}

// Mutant runs measured 0.75–1.25 × the initial test run (a mutant that hangs costs its time-out): the estimate's margin.
const MARGIN = 1.25;
const TMP = '.stryker-tmp';   // stryker.conf.mjs tempDirName
const sandboxDirs = () => (existsSync(TMP) ? readdirSync(TMP).filter((d) => d.startsWith('sandbox-')) : []);

/** Stops Stryker and everything it started (jest runs included): it runs in its own process group. */
function killGroup(child) {
  try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
  setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, 5000).unref();
}

/**
 * One area under Stryker, its output passed through. Resolves to { status, mutants, estimateMs, report }:
 * status 'done' | 'error' (Stryker's exit code was not 0) | 'empty' (no mutant on those lines: stopped
 * before its initial test run) | 'skipped' (the estimate did not fit the budget) | 'overran' (killed at
 * the budget's end).
 */
function runArea({ area, ranges }, deadline) {
  const report = `reports/mutation/changed/${area}.json`;
  rmSync(report, { force: true });
  return new Promise((resolve) => {
    const sandboxes = new Set(sandboxDirs());
    const child = spawn('npx', ['stryker', 'run', '.ci/stryker-changed.conf.mjs'], {
      detached: true, stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, MUTATION_AREA: area, MUTATION_RANGES: ranges.join(',') },
    });
    const state = { status: 'done', mutants: undefined, estimateMs: undefined, report };
    let dryStarted;
    const overrun = setTimeout(() => { state.status = 'overran'; killGroup(child); }, Math.max(0, deadline - Date.now()));
    const onLine = (line) => {
      const counted = /Instrumented \d+ source file\(s\) with (\d+) mutant\(s\)/.exec(line);
      if (counted) state.mutants = Number(counted[1]);
      if (state.mutants === 0 && state.status === 'done') { state.status = 'empty'; killGroup(child); }   // no dry run for nothing
      if (line.includes('Starting initial test run')) dryStarted = Date.now();
      if (line.includes('Initial test run succeeded') && dryStarted !== undefined && state.mutants !== undefined) {
        const perMutant = Date.now() - dryStarted;
        state.estimateMs = state.mutants * perMutant * MARGIN;
        say(`${area}: ${state.mutants} mutant(s) × ${(perMutant / 1000).toFixed(1)} s (the initial test run) × ${MARGIN} ≈ ${minutes(state.estimateMs)}; budget left ${minutes(deadline - Date.now())}`);
        if (Date.now() + state.estimateMs > deadline) { state.status = 'skipped'; killGroup(child); }
      }
    };
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream.on('data', (chunk) => {
        const text = rest + chunk.toString();
        const lines = text.split('\n');
        rest = lines.pop();
        for (const line of lines) { process.stdout.write(`${line}\n`); onLine(line); }
      });
      stream.on('end', () => { if (rest) { process.stdout.write(`${rest}\n`); onLine(rest); } });
    }
    child.on('close', (code) => {
      clearTimeout(overrun);
      // A killed Stryker leaves its sandbox copy behind: remove the ones this run made.
      if (state.status !== 'done') for (const dir of sandboxDirs()) if (!sandboxes.has(dir)) rmSync(`${TMP}/${dir}`, { recursive: true, force: true });
      if (state.status === 'done' && code !== 0) state.status = 'error';
      resolve(state);
    });
  });
}

async function main() {
  const started = Date.now();
  const budgetMinutes = Number(process.env.MUTATION_BUDGET_MINUTES ?? 25);
  const threshold = Number(process.env.MUTATION_THRESHOLD ?? 90);
  if (!(budgetMinutes > 0) || !(threshold >= 0 && threshold <= 100)) {
    console.error('[mutation:changed] MUTATION_BUDGET_MINUTES must be a number of minutes > 0, MUTATION_THRESHOLD a percentage');
    return 2;
  }
  const deadline = started + budgetMinutes * 60000;
  const base = resolveBase();
  if (base === null) {
    say('no security lines changed (HEAD has no parent here: the first commit, a depth-1 clone or no git; set MUTATION_BASE)');
    return 0;
  }
  const files = mutatedFiles(AREAS).filter((f) => existsSync(f));
  const diff = git(['diff', '-U0', '--no-color', '--no-ext-diff', base, 'HEAD', '--', ...files]);
  const work = areaRanges(AREAS, changedLines(diff));
  if (work.length === 0) {
    say(`no security lines changed (${base.slice(0, 12)}..HEAD touches none of the mutated lines of .ci/mutation-areas.mjs)`);
    return 0;
  }
  say(`${base.slice(0, 12)}..HEAD changes security lines in ${work.length} area(s); budget ${budgetMinutes} min, gate ${threshold} %`);
  for (const { area, ranges } of work) say(`  ${area}: ${ranges.join(', ')}`);
  if (process.argv.includes('--list')) return 0;
  const missing = work.flatMap(({ area }) => AREAS[area].tests).filter((f) => !existsSync(f));
  if (missing.length > 0) {
    console.error(`[mutation:changed] test files listed in .ci/mutation-areas.mjs but missing (moved?): ${missing.join(', ')}`);
    return 2;
  }

  const equivalents = JSON.parse(readFileSync(new URL('./mutation-equivalents.json', import.meta.url), 'utf8')).equivalents;
  const reports = [];
  const notRun = [];
  const errors = [];
  for (const item of work) {
    if (Date.now() >= deadline) { notRun.push(item.area); continue; }
    say(`=== ${item.area}: stryker on ${item.ranges.length} range(s)`);
    const t = Date.now();
    const result = await runArea(item, deadline);
    say(`=== ${item.area}: ${result.status}, ${result.mutants ?? '?'} mutant(s), ${Math.round((Date.now() - t) / 1000)} s`);
    if (result.status === 'empty') say(`${item.area}: no mutant on those lines (comments, types, imports)`);
    else if (result.status === 'done' && existsSync(result.report)) reports.push(JSON.parse(readFileSync(result.report, 'utf8')));
    else if (result.status === 'done' || result.status === 'error') errors.push(item.area);
    else notRun.push(item.area);
  }

  const verdict = gate(reports, equivalents, threshold);
  say('--- result (the changed security lines only) ---');
  if (reports.length > 0) {
    say(`score ${verdict.score.toFixed(1)} %: ${verdict.detected} of ${verdict.valid} mutant(s) killed; ${verdict.documented.length} documented equivalent(s) survived, ${verdict.undocumented.length} other survivor(s)`);
  }
  for (const s of verdict.documented) say(`  equivalent  ${s.file}:${s.line} ${s.mutator}: ${s.original} → ${s.replacement}`);
  for (const s of verdict.undocumented) say(`  SURVIVED    ${s.file}:${s.line} ${s.mutator}: ${s.original} → ${s.replacement}`);
  if (notRun.length > 0) {
    say(`NOT MEASURED (did not fit the ${budgetMinutes}-minute budget: MUTATION_BUDGET_MINUTES): ${notRun.join(', ')}; run ${nightly(notRun)}`);
  }
  if (errors.length > 0) {
    say(`FAILED: Stryker did not complete for ${errors.join(', ')} (see its output above)`);
    return 1;
  }
  say(`${Math.round((Date.now() - started) / 1000)} s in all`);
  if (verdict.failed) {
    say(`FAILED: ${verdict.score.toFixed(1)} % < ${threshold} % with survivors that are not documented equivalents.`);
    say('For each SURVIVED line: write the test that kills it (assert what a user sees), or, if no input can tell');
    say('the mutant apart, add it to .ci/mutation-equivalents.json and explain it in docs/safety-tests.md.');
    return 1;
  }
  say(reports.length > 0 ? 'passed' : `passed: nothing measured${notRun.length > 0 ? ' (see NOT MEASURED above)' : ''}`);
  return 0;
}

process.exitCode = await main();
