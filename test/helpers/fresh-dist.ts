/**
 * dist/ as `npm run build` writes it, built only when the one on disk is not fresh (issue 51, item 8:
 * CI builds dist/ just before `npm test`, and a build costs ~20 s of a 2-core machine).
 *
 * Fresh: `npm run build` ran to its end after the last change to what it reads, and nothing wrote to
 * dist/ since. Every file of dist/ is newer than every file and folder of lib/ (a folder's time moves
 * when a file in it is added or deleted), package.json, package-lock.json, the tsconfigs and
 * .ci/bundle-dist.mjs; and none is newer than the sandbox console's static files, which the build copies
 * last (a bare `tsc -p tsconfig.build.json` after a build leaves dist/ not fresh). The build starts by
 * deleting dist/, so a fresh dist/ holds no file left by an older build.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const INPUTS = ['lib', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', '.ci/bundle-dist.mjs'];
const LAST_STEP = 'dist/tools/sandbox/console/static';

/** The modification times (ms) of a file, or of a folder and everything under it (folders included when asked). */
function times(at: string, folders: boolean, out: number[] = []): number[] {
  const stat = statSync(at);
  if (!stat.isDirectory()) { out.push(stat.mtimeMs); return out; }
  if (folders) out.push(stat.mtimeMs);
  for (const name of readdirSync(at)) times(path.join(at, name), folders, out);
  return out;
}

/** Whether dist/ is what `npm run build` would write now (see above). */
export function distIsFresh(root = ROOT): boolean {
  if (!existsSync(path.join(root, LAST_STEP))) return false;
  const dist = times(path.join(root, 'dist'), false);
  const newestInput = Math.max(...INPUTS.flatMap((p) => existsSync(path.join(root, p)) ? times(path.join(root, p), true) : []));
  const lastStep = Math.max(...times(path.join(root, LAST_STEP), false));
  return Math.min(...dist) > newestInput && Math.max(...dist) <= lastStep;
}

/** `npm run build` unless dist/ is fresh; whether it built. */
export function ensureFreshDist(root = ROOT): boolean {
  if (distIsFresh(root)) return false;
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  return true;
}
