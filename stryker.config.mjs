// Mutation testing of the security paths (docs/safety-tests.md#mutation-testing).
// StrykerJS 9 with the command runner: jest's ESM mode runs as in `npm test`, one worker.
// Scope and tests come from the environment so that each run mutates a few files and runs only
// the tests that cover them (a mutant costs one jest start, ~5-10 s on a shared machine):
//   CBK_MUTATE  comma-separated files or `file:from-to` line ranges (default: the narrow CI scope below)
//   CBK_MUTATION_TESTS  the test files (and jest flags) run for every mutant
// The nightly scope is in docs/safety-tests.md.
const NARROW = [
  'lib/shared/compare.ts',
  'lib/client/request.ts:42-46', // mask(): the client's secret masking
  'lib/auth/jwt-hmac.ts:115-152', // the HS* verifier and its header cache
];
const NARROW_TESTS = 'test/shared/compare.test.ts test/client/mask.test.ts test/safety/guid-compare.test.ts '
  + 'test/auth/basic-compare.test.ts test/auth/jwt-hmac.test.ts test/safety/caches.test.ts';

const mutate = process.env.CBK_MUTATE ? process.env.CBK_MUTATE.split(',').map((s) => s.trim()).filter(Boolean) : NARROW;
const tests = process.env.CBK_MUTATION_TESTS ?? NARROW_TESTS;

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'command',
  commandRunner: { command: `CBK_CACHE_FUZZ_RUNS=100 NODE_OPTIONS=--experimental-vm-modules npx jest --maxWorkers=1 --silent --bail ${tests}` },
  mutate,
  coverageAnalysis: 'off',
  concurrency: 1,
  // TypeScript 7 has no compiler API: a tsconfig Stryker cannot find is left alone (it otherwise crashes rewriting it).
  tsconfigFile: 'tsconfig.stryker-none.json',
  checkers: [],
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  timeoutMS: 60_000,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  ignorePatterns: ['test-artifacts', 'reports', 'bench/results', '.stryker-tmp'],
};
