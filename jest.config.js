/** Jest 30 + @swc/jest, native ESM (run with NODE_OPTIONS=--experimental-vm-modules). */
import { availableParallelism } from 'node:os';
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
    '^crossborder-merchant-kit/store/redis$': '<rootDir>/lib/store/redis/index.ts',
    '^crossborder-merchant-kit/store/dynamodb$': '<rootDir>/lib/store/dynamodb/index.ts',
    '^crossborder-merchant-kit/store/durable-object$': '<rootDir>/lib/store/durable-object.ts',
    '^crossborder-merchant-kit/client$': '<rootDir>/lib/client/index.ts',
    '^crossborder-merchant-kit/customs$': '<rootDir>/lib/customs/index.ts',
    '^crossborder-merchant-kit/prices$': '<rootDir>/lib/prices/index.ts',
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
  // One and a half workers per core (3 on a 2-core machine): most files spend most of their time
  // waiting (leases, ttls, time-outs, child processes, the browser), so a third worker fills the
  // cores while the other two wait. Measured on a shared 2-core machine (issue 41, item 8:
  // docs/safety-tests.md#how-long-npm-test-takes-and-what-it-prints): 160 s with 2 workers, 128 s with 3, before the waits
  // were cut. jest's percentage form stops at 100 %, hence the computation.
  maxWorkers: Math.max(2, Math.round(availableParallelism() * 1.5)),
  // the kit's default stderr log lines go to test-artifacts/kit-log-lines.ndjson, not into the report
  setupFiles: ['<rootDir>/test/setup/kit-log-lines.js'],
  // PostgreSQL for the *.pg.test.ts files (throwaway cluster, or TEST_DATABASE_URL); see test/setup/postgres-config.js.
  ...postgres,
  // Both global hooks: the throwaway PostgreSQL when postgres is available, and one Chromium shared by the
  // *.browser.test.ts files (test/setup/browser-global-setup.js), each only when its tests are in the run.
  globalSetup: '<rootDir>/test/setup/global-setup.js',
  globalTeardown: '<rootDir>/test/setup/global-teardown.js',
  // Chromium for the *.browser.test.ts files (the sandbox web console); see test/setup/browser-config.js.
  testPathIgnorePatterns: [...(postgres.testPathIgnorePatterns ?? ['/node_modules/']), ...browserTestIgnores()],
};
