/** A namespacedStore view of a MemoryStore keeps the whole Store contract and the kit's exactly-once, hold and attempt behaviour. */
import { attemptBehaviour } from '../idempotency/attempts-behaviour.js';
import { idempotencyBehaviour } from '../idempotency/behaviour.js';
import { holdsBehaviour } from '../idempotency/holds-behaviour.js';
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { runStoreConformance } from 'crossborder-merchant-kit/testing';
import { itCheckingSkips } from '../helpers/conformance-it.js';

/** The capability MemoryStore does not have (its checks are reported skipped, and asserted so). */
const LACKING = ['batching'];
import { namespacedStore } from '../../lib/store/namespace.js';
import { memoryFactory } from './harness.js';
import { namespacedFactory } from './namespaced-views.js';

const factory = namespacedFactory(memoryFactory);

// The view with another shop's view beside it on the same MemoryStore.
runStoreConformance(({ ttlMs }) => {
  const shared = new MemoryStore(ttlMs === undefined ? {} : { ttl: ttlMs });
  void namespacedStore(shared, 'shop-us').saveRecord({ key: 'k:O-1:a', callback: 'sendOrderToMerchant', orderId: 'O-1', hash: 'a', response: { Success: true }, payment: true });
  return namespacedStore(shared, 'shop-eu');
}, {
  describe, it: itCheckingSkips(LACKING), title: 'namespacedStore(MemoryStore) conformance', concurrency: Infinity,
  capabilities: ['payments', 'latest', 'attempts', 'merchantOrderIds', 'manualRelease', 'activeHolds'],
});
describe('namespacedStore(MemoryStore): exactly-once callbacks', () => { idempotencyBehaviour(factory); });
describe('namespacedStore(MemoryStore): fulfilment holds', () => { holdsBehaviour(factory); });
describe('namespacedStore(MemoryStore): attempts', () => { attemptBehaviour(factory); });
