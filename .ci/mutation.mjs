/**
 * `npm run test:mutation [-- area ...] [--incremental]`: StrykerJS on the security paths, one area after
 * the other (areas in .ci/mutation-areas.mjs; all of them when none is named). Not part of .ci/run: the
 * full scope takes too long for CI on 2 cores; run it nightly (docs/safety-tests.md). CI runs
 * .ci/mutation-changed.mjs instead: only the security lines the commit changes.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { AREAS } from './mutation-areas.mjs';

const args = process.argv.slice(2);
// Flags go to Stryker (`--incremental`, `--concurrency 4`); other words are area names.
const flags = [];
const named = [];
for (let i = 0; i < args.length; i++) {
  if (!args[i].startsWith('--')) named.push(args[i]);
  else if (i + 1 < args.length && !args[i + 1].startsWith('--') && !(args[i + 1] in AREAS) && !args[i].includes('=')) flags.push(args[i], args[++i]);
  else flags.push(args[i]);
}
const unknown = named.filter((a) => !(a in AREAS));
if (unknown.length > 0) {
  console.error(`Unknown area(s) ${unknown.join(', ')}; areas: ${Object.keys(AREAS).join(', ')}`);
  process.exit(2);
}
const areas = named.length > 0 ? named : Object.keys(AREAS);
const missing = areas.flatMap((a) => [...AREAS[a].mutate, ...AREAS[a].tests]).map((f) => f.replace(/:[\d:-]+$/, '')).filter((f) => !existsSync(f));
if (missing.length > 0) {
  console.error(`Listed in .ci/mutation-areas.mjs but missing (moved?): ${missing.join(', ')}`);
  process.exit(2);
}

let failed = 0;
for (const area of areas) {
  console.log(`\n=== mutation area ${area}: ${AREAS[area].mutate.join(', ')}`);
  const started = Date.now();
  const run = spawnSync('npx', ['stryker', 'run', 'stryker.conf.mjs', ...flags], {
    stdio: 'inherit', env: { ...process.env, MUTATION_AREA: area },
  });
  console.log(`=== ${area}: exit ${run.status}, ${Math.round((Date.now() - started) / 1000)} s`);
  if (run.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
