/**
 * DurableObjectStore passes the store conformance suite exported from /testing, with every
 * capability, against CallbackStoreObject running in workerd (Miniflare); its twin a second store on
 * a namespace client of its own over the same objects (as a second Worker isolate has). Each store
 * the checks make has objects of its own (a space, as each PostgresStore check has a schema).
 */
import { DurableObjectStore } from 'crossborder-merchant-kit/store/durable-object';
import type { Store } from 'crossborder-merchant-kit/store';
import { runStoreConformance } from 'crossborder-merchant-kit/testing';
import { startObjects, type Objects } from './durable-object-harness.js';

let objects: Objects;
beforeAll(async () => { objects = await startObjects(); }, 60_000);
afterAll(() => objects?.dispose());

const spaces = new WeakMap<Store, string>();
runStoreConformance(async ({ ttlMs }) => {
  const space = Math.random().toString(36).slice(2, 10);
  const store = new DurableObjectStore(await objects.namespace(space), ttlMs === undefined ? {} : { ttl: ttlMs });
  spaces.set(store, space);
  return store;
}, {
  describe, it, title: 'DurableObjectStore conformance (workerd)', concurrency: 4,
  twin: async (store) => new DurableObjectStore(await objects.namespace(spaces.get(store))),
  capabilities: ['payments', 'latest', 'attempts', 'merchantOrderIds', 'manualRelease', 'batching', 'activeHolds'],
});
