/**
 * DurableObjectStore passes the store conformance suite exported from /testing, with every
 * capability, against CallbackStoreObject running in workerd (Miniflare); its twin a second store on
 * a namespace client of its own over the same objects (as a second Worker isolate has). Each store
 * the checks make has objects of its own (a space, as each PostgresStore check has a schema). A
 * namespacedStore view of it, with another shop busy on the same objects, passes them too.
 */
import { DurableObjectStore } from 'crossborder-merchant-kit/store/durable-object';
import { namespacedStore, type Store } from 'crossborder-merchant-kit/store';
import { runStoreConformance } from 'crossborder-merchant-kit/testing';
import { startObjects, type Objects } from './durable-object-harness.js';

let objects: Objects;
// Storage in memory: a check's round trips are not held up by a loaded disk (its ttl is 300 ms).
beforeAll(async () => { objects = await startObjects({ persist: false }); }, 60_000);
afterAll(() => objects?.dispose());

const spaces = new WeakMap<Store, string>();
runStoreConformance(async ({ ttlMs }) => {
  const space = Math.random().toString(36).slice(2, 10);
  const store = new DurableObjectStore(objects.namespace(space), ttlMs === undefined ? {} : { ttl: ttlMs });
  spaces.set(store, space);
  return store;
}, {
  describe, it, title: 'DurableObjectStore conformance (workerd)', concurrency: 4,
  twin: async (store) => new DurableObjectStore(objects.namespace(spaces.get(store))),
  capabilities: ['payments', 'latest', 'attempts', 'merchantOrderIds', 'manualRelease', 'batching', 'activeHolds'],
});

const views = new WeakMap<object, string>();
runStoreConformance(async ({ ttlMs }) => {
  const space = Math.random().toString(36).slice(2, 10);
  const base = new DurableObjectStore(objects.namespace(space), ttlMs === undefined ? {} : { ttl: ttlMs });
  await namespacedStore(base, 'shop-us').saveRecord({ key: 'k:O-1:a', callback: 'sendOrderToMerchant', orderId: 'O-1', hash: 'a', response: { Success: true }, payment: true });
  const view = namespacedStore(base, 'shop-eu');
  views.set(view, space);
  return view;
}, {
  describe, it, title: 'namespacedStore(DurableObjectStore) conformance (workerd)', concurrency: 4,
  twin: (view) => namespacedStore(new DurableObjectStore(objects.namespace(views.get(view))), 'shop-eu'),
  capabilities: ['payments', 'latest', 'attempts', 'merchantOrderIds', 'manualRelease', 'batching', 'activeHolds'],
});
