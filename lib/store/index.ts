/**
 * `crossborder-merchant-kit/store`: the stores and the Store contract (docs/stores.md). MemoryStore
 * (one process) and PostgresStore (any number of processes; you pass the `pg` pool), the `Store`
 * interface and the types its methods take and return, and the fulfilment-hold helpers a custom
 * store uses so its holds follow the same rules as the kit's stores (docs/stores.md#your-own-store).
 * DynamoDBStore and RedisStore have entry points of their own (`/store/dynamodb`, `/store/redis`:
 * lib/store/dynamodb/, lib/store/redis/), so that their client libraries load only with them.
 * Everything else in lib/store/ (canonical JSON, the payload hash, key building, SQL) is internal.
 *
 * @module crossborder-merchant-kit/store
 */
export { MemoryStore, StoreFullError, type MemoryStoreOptions } from './memory.js';
export { PostgresStore, type PostgresStoreOptions, type PgPoolLike, type PgClientLike, type PgQuery } from './postgres.js';
export { LeaseLostError, StoreSchemaError } from './store-errors.js';
export { StoreHealthError, type HealthCheckCode } from './postgres-health.js';
export type {
  Store, StoreCore, StoreCapabilities, StoreCapability, StoreLock, AcquireOptions, PrefetchRequest, Prefetched, Claim, ClaimOptions, StoredAnswer, StoredRecord, NewRecord,
  DocumentRef, FulfilmentHold, AttemptOutcome, AttemptStart, PreviousAttempt, CountHoldsOptions,
} from './types.js';
export { namespacedStore } from './namespace.js';
export { applyPlace, applyDocuments, holdOf, emptyHoldState, type HoldState } from './holds.js';
