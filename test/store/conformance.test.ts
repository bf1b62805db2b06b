/** MemoryStore passes the store conformance suite exported from /testing (every capability but batching). */
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { runStoreConformance } from 'crossborder-merchant-kit/testing';

runStoreConformance(({ ttlMs }) => new MemoryStore(ttlMs === undefined ? {} : { ttl: ttlMs }), {
  describe, it, title: 'MemoryStore conformance', concurrency: Infinity,
  capabilities: ['payments', 'latest', 'attempts', 'merchantOrderIds', 'manualRelease', 'activeHolds'],
});
