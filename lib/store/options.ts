/**
 * The idempotency options of a router/handler (`store`, `inFlightWaitMs`, `leaseMs`), checked once
 * at construction and shared by the idempotency and holds steps of that router.
 */
import { fail, positiveMs } from '../shared/options.js';
import { MemoryStore } from './memory.js';
import { claimStoreFor } from './namespace.js';
import { STORE_METHODS, type Store } from './types.js';

export interface StoreSettings {
  store: Store;
  inFlightWaitMs: number;
  leaseMs: number;
}

export const DEFAULT_IN_FLIGHT_WAIT_MS = 10_000;
export const DEFAULT_LEASE_MS = 60_000;

export function assertStore(value: unknown): Store {
  if (typeof value !== 'object' || value === null) {
    return fail('ERR_CBK_OPTION_INVALID', 'Option store must be a store: new MemoryStore(), new PostgresStore({ pool }) or your own (see docs/stores.md)');
  }
  const missing = STORE_METHODS.filter((m) => typeof (value as Record<string, unknown>)[m] !== 'function');
  if (missing.length > 0) {
    fail('ERR_CBK_OPTION_INVALID', `Option store does not implement the Store interface: missing ${missing.join(', ')} (see docs/stores.md)`);
  }
  return value as Store;
}

/**
 * The settings of one router, from its options (`store`, `inFlightWaitMs`, `leaseMs`, and
 * `merchantGuid` to refuse a store shared by two shops without namespaces; other keys are not read):
 * resolved once, at construction, shared by the idempotency and holds steps.
 */
export function resolveStoreSettings(options: { store?: unknown; inFlightWaitMs?: unknown; leaseMs?: unknown; merchantGuid?: unknown }, adapterTimeoutMs: number): StoreSettings {
  const inFlightWaitMs = positiveMs(options.inFlightWaitMs, 'inFlightWaitMs', DEFAULT_IN_FLIGHT_WAIT_MS);
  const leaseMs = positiveMs(options.leaseMs, 'leaseMs', Math.max(DEFAULT_LEASE_MS, adapterTimeoutMs * 2));
  if (leaseMs <= adapterTimeoutMs) {
    fail('ERR_CBK_OPTION_INVALID', `Option leaseMs (${leaseMs}) must be greater than adapterTimeoutMs (${adapterTimeoutMs}): a lease shorter than an adapter call would let a retry run beside it`);
  }
  const store = options.store === undefined ? new MemoryStore() : assertStore(options.store);
  claimStoreFor(store, options.merchantGuid);
  return Object.freeze({ store, inFlightWaitMs, leaseMs });
}
