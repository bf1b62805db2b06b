/** Starts a throwaway PostgreSQL cluster when PostgreSQL tests are selected and TEST_DATABASE_URL is unset. */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { POSTGRES_SCRIPT } from './postgres-config.js';

function pgTestFiles(root) {
  return readdirSync(join(root, 'test'), { recursive: true })
    .filter((f) => String(f).endsWith('.pg.test.ts'))
    .map((f) => join(root, 'test', String(f)));
}

/** True unless the run was narrowed by path patterns that match no *.pg.test.ts file. */
function selected(globalConfig) {
  const p = globalConfig.testPathPatterns;
  const patterns = Array.isArray(p) ? p : (p?.patterns ?? []);
  if (patterns.length === 0) return true;
  const files = pgTestFiles(globalConfig.rootDir);
  return files.some((f) => patterns.some((pat) => {
    try { return new RegExp(pat, 'i').test(f) || new RegExp(pat, 'i').test(relative(globalConfig.rootDir, f)); } catch { return true; }
  }));
}

export default async function startPostgres(globalConfig) {
  if (process.env.TEST_DATABASE_URL || !selected(globalConfig)) return;
  const dir = mkdtempSync(join(tmpdir(), 'cbk-pg-'));
  const out = execFileSync('bash', [POSTGRES_SCRIPT, 'start', dir], { encoding: 'utf8' });
  const url = /TEST_DATABASE_URL=(\S+)/.exec(out)?.[1];
  if (!url) throw new Error(`could not start the throwaway PostgreSQL:\n${out}`);
  process.env.TEST_DATABASE_URL = url;
  process.env.CBK_TEST_PG_DIR = dir;
  // If jest exits or is killed before the teardown runs, the cluster still goes away.
  spawn('bash', [POSTGRES_SCRIPT, 'watch', String(process.pid), dir], { detached: true, stdio: 'ignore' }).unref();
  process.once('exit', () => {
    if (process.env.CBK_TEST_PG_DIR) execFileSync('bash', [POSTGRES_SCRIPT, 'stop', dir], { stdio: 'ignore' });
  });
}
