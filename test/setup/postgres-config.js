/**
 * PostgreSQL for `npm test` (imported by jest.config.js). The *.pg.test.ts files need a database:
 * - TEST_DATABASE_URL set: they use it (each test file works in its own schema and drops it);
 * - else, PostgreSQL binaries installed: the global setup starts a throwaway cluster (.ci/postgres.sh)
 *   on a free loopback port and the global teardown stops and removes it;
 * - else: in CI (CI=true) the run fails at once; elsewhere those files are left out, with a warning.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const POSTGRES_SCRIPT = fileURLToPath(new URL('../../.ci/postgres.sh', import.meta.url));

export function postgresAvailable() {
  if (process.env.TEST_DATABASE_URL) return true;
  return spawnSync('bash', [POSTGRES_SCRIPT, 'has'], { stdio: 'ignore' }).status === 0;
}

export function postgresTestConfig() {
  const setup = {
    globalSetup: '<rootDir>/test/setup/postgres-global-setup.js',
    globalTeardown: '<rootDir>/test/setup/postgres-global-teardown.js',
  };
  if (postgresAvailable()) return setup;
  if (process.env.CI === 'true' || process.env.CI === '1') {
    throw new Error('CI: the PostgreSQL tests (*.pg.test.ts) cannot run: set TEST_DATABASE_URL or install PostgreSQL (bash .ci/postgres.sh install)');
  }
  process.stderr.write('\n[crossborder-merchant-kit] PostgreSQL tests (*.pg.test.ts) NOT RUN: no TEST_DATABASE_URL and no PostgreSQL binaries. '
    + 'Install PostgreSQL (bash .ci/postgres.sh install) or set TEST_DATABASE_URL to run them.\n\n');
  return { testPathIgnorePatterns: ['/node_modules/', '\\.pg\\.test\\.ts$'] };
}
