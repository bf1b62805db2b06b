/**
 * A store as the kit uses it: the required core checked once, at construction, and each optional
 * capability probed; where one is absent, `completeStore` fills in what the kit then does instead
 * (docs/stores.md, "Capabilities"):
 * - payments (`getPayment`): each successful payment is also saved under `~payment:<OrderId>`
 *   (first write wins, as `saveRecord` promises), and read back from there;
 * - latest (`getLatestRecord`): none (adapters get no `context.previous`);
 * - attempts (`beginAttempt`/`endAttempt`): none (no `context.attempt`/`context.previousAttempt`);
 * - merchantOrderIds (`saveMerchantOrderIds`/`findOrderId`): not kept; `findOrderId` stays absent;
 * - batching (`claimOrReplay`, `lock.prefetched`, `lock.saveAndRelease`): used only by a store
 *   with every other capability (a full store), since what it reads and writes spans them all;
 * - activeHolds (`countActiveHolds`): absent too (the pipeline never counts; the `cbk.holds.active`
 *   gauge reports nothing for such a store).
 */
import { didYouMean } from '../shared/did-you-mean.js';
import { fail, methodNames } from '../shared/options.js';
import {
  STORE_CAPABILITIES, STORE_CORE_METHODS, type AcquireOptions, type AttemptOutcome, type AttemptStart, type Claim, type ClaimOptions,
  type CountHoldsOptions, type DocumentRef, type FulfilmentHold, type NewRecord, type Store, type StoreCapability, type StoreLock, type StoredRecord,
} from './types.js';

/** What the pipeline calls: every method there, whatever the store implements. */
export interface KitStore {
  /** The optional capabilities the store itself implements. */
  readonly capabilities: ReadonlySet<StoreCapability>;
  acquire(orderId: string, options: AcquireOptions): Promise<StoreLock | null>;
  /** Present only for a full store with batching. */
  claimOrReplay?(orderId: string, options: ClaimOptions): Promise<Claim | null>;
  getRecord(key: string): Promise<StoredRecord | null>;
  getPayment(orderId: string): Promise<StoredRecord | null>;
  /** Null also when the store keeps no latest reply. */
  getLatestRecord(orderId: string, callback: string): Promise<StoredRecord | null>;
  saveRecord(record: NewRecord): Promise<void>;
  /** Null when the store does not count attempts. */
  beginAttempt(key: string, orderId: string): Promise<AttemptStart | null>;
  endAttempt(key: string, outcome: AttemptOutcome | null): Promise<void>;
  placeFulfilmentHold(orderId: string, required: readonly DocumentRef[]): Promise<FulfilmentHold | null>;
  recordDocuments(orderId: string, received: readonly DocumentRef[]): Promise<FulfilmentHold | null>;
  getFulfilmentHold(orderId: string): Promise<FulfilmentHold | null>;
  saveMerchantOrderIds(orderId: string, merchantOrderIds: readonly string[]): Promise<void>;
  /** Present only when the store counts its active holds (read by the `cbk.holds.active` gauge, never by the pipeline). */
  countActiveHolds?(options?: CountHoldsOptions): Promise<number>;
  /** The namespace of a namespacedStore view (the gauge's `cbk.store.namespace`); absent for any other store. */
  readonly namespace?: string;
}

/** The key under which a store without `getPayment` keeps an order's first successful payment (no callback name starts with `~`). */
export const paymentKey = (orderId: string): string => `~payment:${orderId}`;

const CAPABILITY_METHODS: readonly string[] = Object.values(STORE_CAPABILITIES).flat();
const KNOWN: readonly string[] = [...STORE_CORE_METHODS, ...CAPABILITY_METHODS, 'ping', 'purgeExpired', 'migrate'];

const has = (value: object, name: string): boolean => typeof (value as Record<string, unknown>)[name] === 'function';

/** The capabilities a store implements; throws when the core is incomplete, a capability half there or a method name misspelt. */
export function probeStore(value: unknown, where = 'Option store'): Set<StoreCapability> {
  if (typeof value !== 'object' || value === null) {
    return fail('ERR_CBK_OPTION_INVALID', `${where} must be a store: new MemoryStore(), new PostgresStore({ pool }) or your own (see docs/stores.md)`);
  }
  const names = methodNames(value);
  for (const name of names) {
    // A typo: another case, or at most two edits without changing the length by more than one (a helper `findOrder` is fine).
    const guess = KNOWN.includes(name) ? undefined : didYouMean(name, KNOWN, 2);
    if (guess !== undefined && Math.abs(guess.length - name.length) <= 1 && !has(value, guess)) {
      fail('ERR_CBK_OPTION_INVALID', `${where} has a method ${name}; did you mean ${guess}? (a misspelt method is not used; see docs/stores.md)`);
    }
  }
  const missing = STORE_CORE_METHODS.filter((m) => !has(value, m));
  if (missing.length > 0) {
    fail('ERR_CBK_OPTION_INVALID', `${where} does not implement the Store core: missing ${missing.join(', ')} (see docs/stores.md)`);
  }
  const capabilities = new Set<StoreCapability>();
  for (const [capability, methods] of Object.entries(STORE_CAPABILITIES) as [StoreCapability, readonly string[]][]) {
    const present = methods.filter((m) => has(value, m));
    if (present.length === methods.length) capabilities.add(capability);
    else if (present.length > 0) {
      fail('ERR_CBK_OPTION_INVALID', `${where} implements ${present.join(', ')} but not ${methods.filter((m) => !present.includes(m)).join(', ')}: the ${capability} capability needs both (see docs/stores.md)`);
    }
  }
  return capabilities;
}

/** True when the store has every optional capability but `manualRelease` (which the kit never calls). */
const isFull = (c: ReadonlySet<StoreCapability>) => (['payments', 'latest', 'attempts', 'merchantOrderIds'] as const).every((k) => c.has(k));

/** The store as the pipeline calls it; see the file comment for what stands in for an absent capability. */
export function completeStore(store: Store, where?: string): KitStore {
  const capabilities = probeStore(store, where);
  const full = isFull(capabilities);
  const s = store as Required<Store>;
  const kit: KitStore = {
    capabilities,
    acquire: full
      ? (orderId, options) => s.acquire(orderId, options)
      : async (orderId, { waitMs, leaseMs }) => {
        // A partial store's lock is used as the core lock only: what it read or would save with it spans capabilities it lacks.
        const lock = await s.acquire(orderId, { waitMs, leaseMs });
        return lock && { recovered: lock.recovered, release: () => lock.release() };
      },
    getRecord: (key) => s.getRecord(key),
    getPayment: capabilities.has('payments') ? (orderId) => s.getPayment(orderId) : (orderId) => s.getRecord(paymentKey(orderId)),
    getLatestRecord: capabilities.has('latest') ? (orderId, callback) => s.getLatestRecord(orderId, callback) : async () => null,
    saveRecord: capabilities.has('payments') ? (record) => s.saveRecord(record) : async (record) => {
      // The payment copy first: once the delivery's own reply is stored, the order's payment is too.
      if (record.payment) await s.saveRecord({ ...record, key: paymentKey(record.orderId) });
      await s.saveRecord(record);
    },
    beginAttempt: capabilities.has('attempts') ? (key, orderId) => s.beginAttempt(key, orderId) : async () => null,
    endAttempt: capabilities.has('attempts') ? (key, outcome) => s.endAttempt(key, outcome) : async () => {},
    placeFulfilmentHold: (orderId, required) => s.placeFulfilmentHold(orderId, required),
    recordDocuments: (orderId, received) => s.recordDocuments(orderId, received),
    getFulfilmentHold: (orderId) => s.getFulfilmentHold(orderId),
    saveMerchantOrderIds: capabilities.has('merchantOrderIds') ? (orderId, ids) => s.saveMerchantOrderIds(orderId, ids) : async () => {},
  };
  if (full && capabilities.has('batching')) kit.claimOrReplay = (orderId, options) => s.claimOrReplay(orderId, options);
  if (capabilities.has('activeHolds')) kit.countActiveHolds = (options) => s.countActiveHolds(options);
  const namespace = (store as { namespace?: unknown }).namespace;
  return Object.freeze(typeof namespace === 'string' ? { ...kit, namespace } : kit);
}
