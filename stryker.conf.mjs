/**
 * StrykerJS mutation testing of the security paths (issue 26 item 6), one area a run.
 * Pick the area with MUTATION_AREA (see AREAS below); `npm run test:mutation` runs them all, one after
 * the other (.ci/mutation.mjs). Each area mutates a few files and runs ONLY the test files that cover
 * them, so a mutant costs one short jest run. Results: reports/mutation/<area>.{html,json}.
 *
 * Known constraints on these machines:
 * - the `command` runner (jest's ESM mode under NODE_OPTIONS=--experimental-vm-modules does not work
 *   with @stryker-mutator/jest-runner);
 * - TypeScript 7 has no compiler API: `tsconfigFile` points at a file that does not exist, so Stryker
 *   does not try to rewrite tsconfig.json (it crashes otherwise); no typescript checker;
 * - 2 shared cores: concurrency 1 (raise it with --concurrency on a machine of your own).
 */
import { AREAS } from './.ci/mutation-areas.mjs';

const name = process.env.MUTATION_AREA;
const area = AREAS[name];
if (!area) {
  throw new Error(`Set MUTATION_AREA to one of: ${Object.keys(AREAS).join(', ')} (got ${JSON.stringify(name)})`);
}

// MUTATION_TESTS (space-separated test files) replaces the area's list for one ad-hoc run.
const tests = process.env.MUTATION_TESTS ? process.env.MUTATION_TESTS.split(/\s+/).filter(Boolean) : area.tests;
const report = `reports/mutation/${name}${process.env.MUTATION_TESTS ? '.adhoc' : ''}`;
const jest = `NODE_OPTIONS=--experimental-vm-modules npx jest --maxWorkers=1 --bail --ci ${tests.join(' ')}`;

export default {
  $schema: './node_modules/@stryker-mutator/core/schema/stryker-schema.json',
  mutate: area.mutate,
  testRunner: 'command',
  commandRunner: { command: jest },
  // A file that does not exist on purpose: TypeScript 7 has no compiler API for Stryker's tsconfig rewrite.
  tsconfigFile: 'stryker-tsconfig-none.json',
  concurrency: 1,
  timeoutMS: 20000,
  dryRunTimeoutMinutes: 10,
  coverageAnalysis: 'off',
  ignoreStatic: false,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: `${report}.html` },
  jsonReporter: { fileName: `${report}.json` },
  incrementalFile: `${report}.incremental.json`,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  // Only what the tests need is copied into the sandbox.
  ignorePatterns: ['bench', 'docs', 'examples', 'dist', 'coverage', 'reports', '.pgdata', 'test-artifacts', '.scratch', '*.log'],
  thresholds: { high: 90, low: 80, break: null },
};
