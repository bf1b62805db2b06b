/** lib/shared/sha256.ts on this runtime (Node 20.12+: the one-shot crypto.hash). */
import { sha256, sha256Hex } from '../../lib/shared/sha256.js';
import { sha256Cases } from '../helpers/sha256-cases.js';

describe('sha256 helpers (crypto.hash)', () => {
  sha256Cases(sha256, sha256Hex);
});
