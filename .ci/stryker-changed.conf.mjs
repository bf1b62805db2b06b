/**
 * stryker.conf.mjs (the area named by MUTATION_AREA, its tests, the command runner) limited to the
 * line ranges in MUTATION_RANGES (`file:from-to,...`), reported to reports/mutation/changed/<area>.json.
 * Used by .ci/mutation-changed.mjs, the CI step that mutates only the security lines a change touches.
 */
import base from '../stryker.conf.mjs';

const ranges = (process.env.MUTATION_RANGES ?? '').split(',').filter(Boolean);
if (ranges.length === 0) throw new Error('Set MUTATION_RANGES to the line ranges to mutate (file:from-to,...)');

export default {
  ...base,
  mutate: ranges,
  concurrency: 1,
  reporters: ['clear-text', 'progress-append-only', 'json'],
  jsonReporter: { fileName: `reports/mutation/changed/${process.env.MUTATION_AREA}.json` },
  incremental: false,
};
