/**
 * The batching MemoryStore the exactly-once tests use to drive the kit's batching path without a
 * database (test/idempotency/batching-store.ts) passes the store conformance suite, batching included.
 */
import { runStoreConformance } from 'crossborder-merchant-kit/testing';
import { BatchingMemoryStore } from './batching-store.js';

runStoreConformance(({ ttlMs }) => new BatchingMemoryStore(ttlMs === undefined ? {} : { ttl: ttlMs }), {
  describe, it, title: 'BatchingMemoryStore conformance',
  capabilities: ['payments', 'latest', 'attempts', 'merchantOrderIds', 'manualRelease', 'activeHolds', 'batching'],
});
