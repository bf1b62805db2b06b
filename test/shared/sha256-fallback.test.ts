/**
 * lib/shared/sha256.ts on a runtime whose node:crypto has no one-shot `hash` (Node before 20.12,
 * some other runtimes' node:crypto): both forms fall back to createHash with the same digests.
 */
import { createRequire } from 'node:module';
import { jest } from '@jest/globals';
import { sha256Cases } from '../helpers/sha256-cases.js';

// The real module through require (an ESM import of it here would get this very mock).
const real = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
jest.unstable_mockModule('node:crypto', () => {
  const withoutHash = { ...real, hash: undefined };
  return { ...withoutHash, default: withoutHash };
});
const { sha256, sha256Hex } = await import('../../lib/shared/sha256.js');

describe('sha256 helpers without crypto.hash', () => {
  sha256Cases(sha256, sha256Hex);
});
