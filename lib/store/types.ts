/**
 * The Store interface: where the kit keeps what it needs for exactly-once callbacks and fulfilment
 * holds. MemoryStore (one process) and PostgresStore (any number of processes) implement it; see
 * docs/stores.md for writing your own.
 */
import type { ResponseInfo } from '../payloads.js';

/** A successful reply the kit stored; never the payload, never card data. */
export interface StoredRecord {
  /** `<callback>:<OrderId>:<sha256 of the canonical payload>`. */
  key: string;
  callback: string;
  orderId: string;
  /** SHA-256 (hex) of the canonical JSON of the payload (card values masked, MerchantGUID left out). */
  hash: string;
  /** The ResponseInfo the kit answered with. */
  response: ResponseInfo;
  /** True when the reply is a successful payment (PerformOrderPayment, or SendOrderToMerchant with PaymentDetails). */
  payment: boolean;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * A reply to store (`saveRecord`, `saveAndRelease`): a {@link StoredRecord} without its timestamps, which the store sets.
 */
export type NewRecord = Omit<StoredRecord, 'createdAt' | 'expiresAt'>;

/** The per-OrderId lock: while it is held, no other call for the OrderId runs (in any process sharing the store). */
export interface StoreLock {
  /** True when the lock was taken over from an in-progress record whose lease had expired (a crash or a stall). */
  readonly recovered: boolean;
  /** Releases the lock; safe to call more than once. */
  release(): Promise<void>;
  /**
   * Optional (batching; a store may leave it out): what `AcquireOptions.prefetch` asked for, read together
   * with the lock and exactly as a read made after taking the lock would see it. Absent when the
   * store could not guarantee that (then the kit reads each item itself).
   */
  readonly prefetched?: Prefetched;
  /**
   * Optional (batching): stores a successful reply, ends its attempt cleanly, keeps the merchant order ids
   * and releases the lock, all or nothing (one round trip for a database). When it rejects,
   * nothing of it happened and the lock is still held.
   */
  saveAndRelease?(record: NewRecord, merchantOrderIds: readonly string[]): Promise<void>;
}

/** What the kit would read right after taking an OrderId lock, for a store able to read it with the lock. */
export interface PrefetchRequest {
  /** The idempotency key of the delivery: its stored reply, and its attempt to begin. */
  key: string;
  /** Whether the order's first successful payment is wanted. */
  payment: boolean;
  /** The callback whose latest stored reply is wanted (`context.previous`). */
  latestOf: string;
  /** Begin the attempt for `key` (as `beginAttempt`) when no reply is stored for it nor, if `payment`, for the order. */
  beginAttempt: boolean;
}

/**
 * What a batching store read together with taking the lock (`StoreLock.prefetched`): the stored reply,
 * the first payment, the latest reply of the callback, the hold, and the attempt begun.
 */
export interface Prefetched {
  record: StoredRecord | null;
  /** Null also when no payment was asked for. */
  payment: StoredRecord | null;
  latest: StoredRecord | null;
  hold: FulfilmentHold | null;
  /** The begun attempt; absent when none was begun (a reply is stored, or the store left it to `beginAttempt`). */
  attempt?: AttemptStart;
}

/**
 * How `acquire` takes an OrderId's lock: how long to wait for it, how long it lasts without a release,
 * and what to read with it (optional).
 */
export interface AcquireOptions {
  /** How long to wait for the lock; past it `acquire` resolves to null. */
  waitMs: number;
  /** How long the lock stays valid without a release (a crashed holder blocks no longer than this). */
  leaseMs: number;
  /** Optional: reads a store may make together with taking the lock (see `StoreLock.prefetched`); a store may ignore it. */
  prefetch?: PrefetchRequest;
}

/** What `claimOrReplay` found stored for a delivery; it then took no lock. At least one of the two is set. */
export interface StoredAnswer {
  /** The stored reply for `prefetch.key` (as `getRecord` returns it), or null. */
  record: StoredRecord | null;
  /** Null when a reply for the key was found or no payment was asked for; else the order's first successful payment (as `getPayment`). */
  payment: StoredRecord | null;
}

/** What `claimOrReplay` resolves to: the delivery's stored answer, or the OrderId's lock. */
export type Claim = { stored: StoredAnswer; lock?: undefined } | { lock: StoreLock; stored?: undefined };

/** How `claimOrReplay` (batching stores) looks for a stored answer and otherwise takes the lock. */
export interface ClaimOptions extends AcquireOptions {
  /** What the delivery looks for (`key`, `payment`) and, when it gets the lock, what to read with it. */
  prefetch: PrefetchRequest;
}

/**
 * How an earlier attempt for the same idempotency key ended without a known result:
 * - 'crashed': it never finished (the process died, or its lease expired);
 * - 'timeout': the adapter did not settle within `adapterTimeoutMs` (and not with a success later);
 * - 'invalid-result': the adapter returned a result the kit refused (answered 500);
 * - 'unsaved': the adapter succeeded but its reply could not be stored.
 */
export type AttemptOutcome = 'crashed' | 'timeout' | 'invalid-result' | 'unsaved';

/**
 * The attempt before the current one for the same key, when it ended without a known result:
 * `context.previousAttempt` tells the adapter so it can check its own side before acting again
 * (e.g. whether the order was already created). See docs/idempotency.md.
 */
export interface PreviousAttempt {
  /** When the unfinished attempt started. */
  startedAt: Date;
  /** How it ended: crashed (lease expired), timed out, returned an invalid result, or its reply was not saved. */
  outcome: AttemptOutcome;
}

/** What `beginAttempt` tells the new attempt. */
export interface AttemptStart {
  /** 1 for the first attempt for the key, 2 and more afterwards (within the ttl). */
  attempt: number;
  /** The attempt before this one, when it ended without a known result; absent when it ended cleanly. */
  previousAttempt?: PreviousAttempt;
}

/** One awaited (or received) additional document, identified without its content. */
export interface DocumentRef {
  /** Normalised: a type name such as 'EAD' becomes its number ('11'). */
  DocumentTypeCode: string;
  ParcelCode?: string;
  TrackingNumber?: string;
}

/** An order that must not be fulfilled yet. */
export interface FulfilmentHold {
  orderId: string;
  /** The documents still awaited. */
  awaiting: DocumentRef[];
  /** When the hold was placed. */
  since: Date;
}

/**
 * The required core of a store: what every store implements, and all the kit needs for
 * exactly-once callbacks and fulfilment holds (see docs/stores.md). All methods may reject (the kit
 * answers 503, retryable). `runStoreConformance` (crossborder-merchant-kit/testing) proves a store.
 */
export interface StoreCore {
  /**
   * Claim under a lease: waits (up to `waitMs`) for the OrderId's lock; null when it is still held
   * by someone else. Exclusive across every instance sharing the data; a lock never released
   * (a crash) may be taken over once `leaseMs` has passed (then `recovered` is true), and the old
   * holder's `release()` must not release its successor's lock.
   */
  acquire(orderId: string, options: AcquireOptions): Promise<StoreLock | null>;
  /** Replay: the stored reply for a key, or null (also when expired). */
  getRecord(key: string): Promise<StoredRecord | null>;
  /** Save (the kit then releases the lock): stores a successful reply; a record already stored under the key is kept (first write wins). */
  saveRecord(record: NewRecord): Promise<void>;
  /** Places (or replaces the list of) a hold: awaiting = required − documents already received. Null when nothing is awaited. */
  placeFulfilmentHold(orderId: string, required: readonly DocumentRef[]): Promise<FulfilmentHold | null>;
  /** Counts received documents (also before the order arrives); releases the hold when nothing is left awaited. */
  recordDocuments(orderId: string, received: readonly DocumentRef[]): Promise<FulfilmentHold | null>;
  /** The order's hold, or null when it may be fulfilled. */
  getFulfilmentHold(orderId: string): Promise<FulfilmentHold | null>;
}

/**
 * Optional capabilities: the kit probes for each and, when one is absent, degrades as
 * docs/stores.md ("Capabilities") says. Methods of one capability come together (both or neither).
 */
export interface StoreCapabilities {
  /** payments: the first successful payment stored for the OrderId, or null. Absent: the kit keeps a copy of each payment reply under the key `~payment:<OrderId>`. */
  getPayment?(orderId: string): Promise<StoredRecord | null>;
  /** latest: the latest stored reply of `callback` for the OrderId, or null. Absent: adapters get no `context.previous`. */
  getLatestRecord?(orderId: string, callback: string): Promise<StoredRecord | null>;
  /**
   * attempts (with `endAttempt`): records the start of an attempt for a key (called under the
   * OrderId lock, before the adapter runs): counts it and returns how the previous attempt ended.
   * An attempt still marked running (never ended) is reported as 'crashed'. Kept for the ttl.
   * Absent: adapters get no `context.attempt` / `context.previousAttempt`.
   */
  beginAttempt?(key: string, orderId: string): Promise<AttemptStart>;
  /** attempts: records how the running attempt for a key ended: an outcome, or null when it ended cleanly (answered, or its reply stored). */
  endAttempt?(key: string, outcome: AttemptOutcome | null): Promise<void>;
  /**
   * merchantOrderIds (with `findOrderId`): remembers the merchant's ids of an order (the
   * SendOrderToMerchant reply's InternalOrderId and OrderId) for the ttl, so the order can be found
   * by them; a later call for the same id wins. Absent: the client's hold guard finds orders by
   * OrderId only.
   */
  saveMerchantOrderIds?(orderId: string, merchantOrderIds: readonly string[]): Promise<void>;
  /** merchantOrderIds: the service OrderId a merchant order id was last saved for, or null (also when expired). */
  findOrderId?(merchantOrderId: string): Promise<string | null>;
  /** manualRelease: releases a hold by hand (documents received another way); no-op without a hold. The kit never calls it. */
  releaseFulfilmentHold?(orderId: string): Promise<void>;
  /**
   * batching (used only by a store with every other capability; see `StoreLock.prefetched` and
   * `StoreLock.saveAndRelease`): a delivery's stored answer or its OrderId's lock, in one round
   * trip for a database. Resolves `{ stored }` — without taking the lock, and without waiting for
   * it — when `getRecord(prefetch.key)` or, if `prefetch.payment`, `getPayment(orderId)` would
   * return a record; otherwise does what `acquire(orderId, options)` does and resolves `{ lock }`,
   * or null once `waitMs` passed. While it waits for the lock it may resolve `{ stored }` as soon
   * as an answer is stored.
   */
  claimOrReplay?(orderId: string, options: ClaimOptions): Promise<Claim | null>;
  /**
   * activeHolds (read-only): how many fulfilment holds are active now (orders still awaiting
   * documents, whoever placed or released them, in any process sharing the data) — in the whole
   * store, or among the OrderIds that start with `prefix` (a namespacedStore view counts its own
   * namespace). One cheap read; the kit calls it only for the `cbk.holds.active` gauge
   * (docs/observability.md), never on a delivery. Absent: the gauge reports nothing for the store.
   */
  countActiveHolds?(options?: CountHoldsOptions): Promise<number>;
}

/** What `countActiveHolds` counts. */
export interface CountHoldsOptions {
  /** Count only the holds whose OrderId starts with this (default: every hold). */
  prefix?: string;
}

/** What the kit stores: the required core and the optional capabilities it probes. */
export interface Store extends StoreCore, StoreCapabilities {
  /** Optional (checkHealth): one round trip to where the store keeps its data; rejects when it fails or takes longer than `timeoutMs`. The pipeline never calls it. */
  ping?(options?: { timeoutMs?: number }): Promise<void>;
}

/** The methods every store has. */
export const STORE_CORE_METHODS = [
  'acquire', 'getRecord', 'saveRecord', 'placeFulfilmentHold', 'recordDocuments', 'getFulfilmentHold',
] as const satisfies readonly (keyof StoreCore)[];

/** The optional capabilities, by name, with their methods (all or none of a capability's). */
export const STORE_CAPABILITIES = {
  payments: ['getPayment'],
  latest: ['getLatestRecord'],
  attempts: ['beginAttempt', 'endAttempt'],
  merchantOrderIds: ['saveMerchantOrderIds', 'findOrderId'],
  manualRelease: ['releaseFulfilmentHold'],
  batching: ['claimOrReplay'],
  activeHolds: ['countActiveHolds'],
} as const satisfies Record<string, readonly (keyof StoreCapabilities)[]>;

/**
 * The name of an optional store capability ({@link StoreCapabilities}): `payments`, `latest`,
 * `attempts`, `merchantOrderIds`, `manualRelease`, `batching`, `activeHolds`. A store has all of a
 * capability's methods or none.
 */
export type StoreCapability = keyof typeof STORE_CAPABILITIES;

/** How long a stored reply is kept by default: 30 days. */
export const DEFAULT_TTL_MS = 30 * 24 * 60 * 60 * 1000;
