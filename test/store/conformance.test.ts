/** MemoryStore passes the store conformance suite exported from /testing (every capability but batching). */
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { runStoreConformance } from 'crossborder-merchant-kit/testing';
import { itCheckingSkips } from '../helpers/conformance-it.js';

/** The capability MemoryStore does not have (its checks are reported skipped, and asserted so). */
const LACKING = ['batching'];

runStoreConformance(({ ttlMs }) => new MemoryStore(ttlMs === undefined ? {} : { ttl: ttlMs }), {
  describe, it: itCheckingSkips(LACKING), title: 'MemoryStore conformance', concurrency: Infinity,
  capabilities: ['payments', 'latest', 'attempts', 'merchantOrderIds', 'manualRelease', 'activeHolds'],
});
