/**
 * The idempotency step (lib/callbacks/steps/idempotency.ts) on a store with the batching capability
 * (claimOrReplay, lock.prefetched, lock.saveAndRelease; PostgresStore has it, MemoryStore does not):
 * the shared exactly-once and attempt suites over test/idempotency/batching-store.ts, so the batching
 * path runs without a database; then what only that path does.
 */
import { inspect } from 'node:util';
import type { StoreFactory } from '../store/harness.js';
import { attemptBehaviour } from '../idempotency/attempts-behaviour.js';
import { idempotencyBehaviour } from '../idempotency/behaviour.js';
import { BatchingMemoryStore } from '../idempotency/batching-store.js';

const batchingFactory: StoreFactory = async () => {
  const store = new BatchingMemoryStore();
  return {
    store,
    twin: () => store,
    scan: async () => inspect(store, { depth: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity }),
    withTtl: (ms) => new BatchingMemoryStore({ ttl: ms }),
  };
};

describe('exactly-once callbacks on a batching store', () => {
  idempotencyBehaviour(batchingFactory);
});

describe('attempts on a batching store', () => {
  attemptBehaviour(batchingFactory);
});
