/**
 * The security paths under mutation testing, one area per run (issue 26 item 6): which files are
 * mutated and which test files cover them. Keep each area's test list short: every mutant runs it once.
 * Paths are those of 2026-11-25; when a file moves (issue 27 reorganises lib/callbacks/steps/), move
 * it here too. Stryker would quietly report 0 mutants for a path that matches nothing, so
 * .ci/mutation.mjs refuses to start when a listed file does not exist.
 */
export const AREAS = {
  compare: {
    mutate: ['lib/shared/compare.ts'],
    tests: ['test/shared/compare.test.ts', 'test/auth/merchant-guid.test.ts', 'test/auth/header-url-parameter.test.ts'],
  },
  'merchant-guid': {
    mutate: ['lib/callbacks/steps/merchant-guid.ts', 'lib/auth/merchant-guid.ts'],
    tests: ['test/callbacks/merchant-guid.test.ts', 'test/auth/merchant-guid.test.ts'],
  },
  'card-mask': {
    mutate: ['lib/callbacks/steps/card-mask.ts'],
    tests: ['test/callbacks/card-mask.test.ts', 'test/safety/card-data.test.ts'],
  },
  'ip-allow-list': {
    mutate: ['lib/auth/ip-allow-list.ts'],
    tests: ['test/auth/ip-allow-list.test.ts'],
  },
};
