/**
 * Makes node:crypto, for the modules a test file imports after this call, a runtime's without the
 * one-shot `crypto.hash` (Node before 20.12, some other runtimes' node:crypto): call it at the top
 * of the file, then `await import(...)` the module under test.
 */
import { createRequire } from 'node:module';
import { jest } from '@jest/globals';

export function mockCryptoWithoutHash(): void {
  // The real module through require (an ESM import of it would get this very mock).
  const real = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  jest.unstable_mockModule('node:crypto', () => {
    const withoutHash = { ...real, hash: undefined };
    return { ...withoutHash, default: withoutHash };
  });
}
