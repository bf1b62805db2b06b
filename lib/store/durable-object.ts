/**
 * `crossborder-merchant-kit/store/durable-object`: the kit's store on Cloudflare Durable Objects
 * (docs/stores.md#durableobjectstore). `DurableObjectStore`, the client each Worker isolate builds
 * on its namespace binding (durable-object-store.ts), and `CallbackStoreObject`, the Durable Object
 * class the Worker exports (durable-object-object.ts); their protocol is internal
 * (durable-object-protocol.ts).
 *
 * @module crossborder-merchant-kit/store/durable-object
 */
export { DurableObjectStore, type DurableObjectStoreOptions, type DurableObjectNamespaceLike, type DurableObjectStubLike } from './durable-object-store.js';
export { CallbackStoreObject, type DurableObjectStateLike, type DurableObjectStorageLike } from './durable-object-object.js';
