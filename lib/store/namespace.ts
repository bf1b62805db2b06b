/**
 * One store, several shops: `namespacedStore(store, 'eu')` is a view of `store` in which every
 * OrderId, idempotency key and merchant order id is prefixed with `eu:` before it reaches the store
 * (and the prefix is taken off what comes back). Two routers (two MerchantGUIDs, two adapters) that
 * share one MemoryStore or PostgresStore through two namespaces never see each other's replies,
 * locks, payments or holds, even for the same OrderId (the stored hash leaves the MerchantGUID out,
 * so without namespaces the second shop would be answered with the first shop's reply).
 * See docs/multi-store.md.
 */
import { fail } from '../shared/options.js';
import type {
  AcquireOptions, Claim, ClaimOptions, CountHoldsOptions, DocumentRef, FulfilmentHold, NewRecord, Prefetched, PrefetchRequest, Store, StoreLock, StoredRecord,
} from './types.js';

const NAMESPACE = /^[A-Za-z0-9._-]{1,64}$/;

type Any = (...args: unknown[]) => unknown;

/** A view of `store` in which every OrderId, key and merchant order id lives under `namespace`. */
export function namespacedStore(store: Store, namespace: string): Store {
  if (typeof store !== 'object' || store === null || typeof store.acquire !== 'function') {
    fail('ERR_CBK_OPTION_INVALID', 'namespacedStore(store, namespace): store must be a store (new MemoryStore(), new PostgresStore({ pool }), …)');
  }
  if (typeof namespace !== 'string' || !NAMESPACE.test(namespace)) {
    fail('ERR_CBK_OPTION_INVALID', `namespacedStore(store, namespace): namespace must be 1 to 64 letters, digits, '.', '_' or '-' (e.g. 'eu'), got ${JSON.stringify(namespace)}`);
  }
  const prefix = `${namespace}:`;
  const into = (id: string) => `${prefix}${id}`;
  const outOf = (id: string) => (id.startsWith(prefix) ? id.slice(prefix.length) : id);
  const record = <R extends StoredRecord | null>(r: R): R => (r ? { ...r, key: outOf(r.key), orderId: outOf(r.orderId) } : r);
  const hold = (h: FulfilmentHold | null) => (h ? { ...h, orderId: outOf(h.orderId) } : h);
  const newRecord = (r: NewRecord): NewRecord => ({ ...r, key: into(r.key), orderId: into(r.orderId) });
  const prefetch = (p: PrefetchRequest): PrefetchRequest => ({ ...p, key: into(p.key) });
  const withPrefetch = <O extends AcquireOptions>(o: O): O => (o.prefetch ? { ...o, prefetch: prefetch(o.prefetch) } : o);
  const prefetched = (p: Prefetched): Prefetched => ({ ...p, record: record(p.record), payment: record(p.payment), latest: record(p.latest), hold: hold(p.hold) });
  const lock = (l: StoreLock | null): StoreLock | null => {
    if (!l) return l;
    const view: StoreLock = {
      recovered: l.recovered,
      release: () => l.release(),
      ...(l.prefetched ? { prefetched: prefetched(l.prefetched) } : {}),
      ...(l.saveAndRelease ? { saveAndRelease: (r: NewRecord, ids: readonly string[]) => l.saveAndRelease!(newRecord(r), ids.map(into)) } : {}),
    };
    return view;
  };
  const claim = (c: Claim | null): Claim | null => {
    if (!c) return c;
    if (c.stored) return { stored: { record: record(c.stored.record), payment: record(c.stored.payment) } };
    return { lock: lock(c.lock)! };
  };

  // Each mapped method is installed only where the store has it (below), so the capabilities are there when called.
  const full = store as Required<Store>;
  const mapped: Partial<Record<keyof Store, Any>> = {
    acquire: async (orderId, options) => lock(await full.acquire(into(orderId as string), withPrefetch(options as AcquireOptions))),
    claimOrReplay: async (orderId, options) => claim(await full.claimOrReplay(into(orderId as string), withPrefetch(options as ClaimOptions))),
    getRecord: async (key) => record(await full.getRecord(into(key as string))),
    getPayment: async (orderId) => record(await full.getPayment(into(orderId as string))),
    getLatestRecord: async (orderId, callback) => record(await full.getLatestRecord(into(orderId as string), callback as string)),
    saveRecord: (r) => full.saveRecord(newRecord(r as NewRecord)),
    beginAttempt: (key, orderId) => full.beginAttempt(into(key as string), into(orderId as string)),
    endAttempt: (key, outcome) => full.endAttempt(into(key as string), outcome as Parameters<Required<Store>['endAttempt']>[1]),
    placeFulfilmentHold: async (orderId, required) => hold(await full.placeFulfilmentHold(into(orderId as string), required as DocumentRef[])),
    recordDocuments: async (orderId, received) => hold(await full.recordDocuments(into(orderId as string), received as DocumentRef[])),
    getFulfilmentHold: async (orderId) => hold(await full.getFulfilmentHold(into(orderId as string))),
    releaseFulfilmentHold: (orderId) => full.releaseFulfilmentHold(into(orderId as string)),
    saveMerchantOrderIds: (orderId, ids) => full.saveMerchantOrderIds(into(orderId as string), (ids as string[]).map(into)),
    // Only this namespace's holds: the store counts the OrderIds under the prefix.
    countActiveHolds: (options) => full.countActiveHolds({ prefix: into((options as CountHoldsOptions | undefined)?.prefix ?? '') }),
    findOrderId: async (merchantOrderId) => {
      const found = await full.findOrderId(into(merchantOrderId as string));
      return found !== null && found.startsWith(prefix) ? outOf(found) : null;
    },
  };

  // Only what the store implements (a store's optional capabilities stay optional); anything else
  // a store offers (ping, close, …) is passed through bound to it.
  const view: Record<string, unknown> = {};
  for (let o: object | null = store; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const name of Object.getOwnPropertyNames(o)) {
      const value = (store as unknown as Record<string, unknown>)[name];
      if (name === 'constructor' || name in view || typeof value !== 'function') continue;
      view[name] = mapped[name as keyof Store] ?? (value as Any).bind(store);
    }
  }
  Object.defineProperty(view, 'namespace', { value: namespace, enumerable: true });
  return view as unknown as Store;
}

/** The MerchantGUIDs of the routers built on each store object (a namespaced view is its own object). */
const guidsOfStore = new WeakMap<object, ReadonlySet<string>>();

/**
 * Refuses, at construction, a second router on the same store object for other MerchantGUIDs
 * (another shop): without a namespace each, the shops would replay each other's replies for the
 * same OrderId. Routers sharing a GUID (a rebuilt router, a GUID rotation, the GUID in another
 * letter case) may share the store.
 */
export function claimStoreFor(store: Store, merchantGuids: unknown): void {
  // Compared as the kit's MerchantGUID check compares them (auth/merchant-guid.ts): trimmed, any letter case.
  const guids = (Array.isArray(merchantGuids) ? merchantGuids : [merchantGuids]).filter((g): g is string => typeof g === 'string')
    .map((g) => g.trim().toLowerCase());
  if (guids.length === 0) return;
  const known = guidsOfStore.get(store);
  if (known && !guids.some((g) => known.has(g))) {
    fail('ERR_CBK_OPTION_INVALID', 'Option store is already used by a router for another MerchantGUID: give each shop its own view of the shared store, store: namespacedStore(store, \'eu\') (see docs/multi-store.md)');
  }
  guidsOfStore.set(store, new Set([...(known ?? []), ...guids]));
}
