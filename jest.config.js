/** Jest 30 + @swc/jest, native ESM (run with NODE_OPTIONS=--experimental-vm-modules). */
import { postgresTestConfig } from './test/setup/postgres-config.js';
import { browserTestIgnores } from './test/setup/browser-config.js';

const postgres = postgresTestConfig();

export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'es6' },
    }],
  },
  moduleNameMapper: {
    '^crossborder-merchant-kit$': '<rootDir>/lib/index.ts',
    '^crossborder-merchant-kit/express$': '<rootDir>/lib/bindings/express/index.ts',
    '^crossborder-merchant-kit/node$': '<rootDir>/lib/bindings/node/index.ts',
    '^crossborder-merchant-kit/store$': '<rootDir>/lib/store/index.ts',
    '^crossborder-merchant-kit/client$': '<rootDir>/lib/client/index.ts',
    '^crossborder-merchant-kit/customs$': '<rootDir>/lib/customs/index.ts',
    '^crossborder-merchant-kit/fetch$': '<rootDir>/lib/bindings/fetch/index.ts',
    '^crossborder-merchant-kit/fastify$': '<rootDir>/lib/bindings/fastify/index.ts',
    '^crossborder-merchant-kit/lambda$': '<rootDir>/lib/bindings/lambda/index.ts',
    '^crossborder-merchant-kit/testing$': '<rootDir>/lib/testing/index.ts',
    '^crossborder-merchant-kit/sandbox$': '<rootDir>/lib/tools/sandbox/index.ts',
    '^crossborder-merchant-kit/conformance$': '<rootDir>/lib/tools/conformance/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testTimeout: 30000,
  // test.concurrent cases of a file that run at once (test/testing/store-conformance.test.ts: the broken stores, mostly waiting out leases).
  maxConcurrency: 16,
  // Every core (jest's default leaves one for itself: on a 2-core machine that is ONE worker, the whole
  // suite in series). The main process only reports; most files spend their first second compiling the
  // kit's validators, which is CPU work two workers do side by side (issue 41, item 8: docs/safety-tests.md).
  maxWorkers: '100%',
  // the kit's default stderr log lines go to test-artifacts/kit-log-lines.ndjson, not into the report
  setupFiles: ['<rootDir>/test/setup/kit-log-lines.js'],
  // PostgreSQL for the *.pg.test.ts files (throwaway cluster, or TEST_DATABASE_URL); see test/setup/postgres-config.js.
  ...postgres,
  // Chromium for the *.browser.test.ts files (the sandbox web console); see test/setup/browser-config.js.
  testPathIgnorePatterns: [...(postgres.testPathIgnorePatterns ?? ['/node_modules/']), ...browserTestIgnores()],
};
