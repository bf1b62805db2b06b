/**
 * The idempotency options of a router/handler (`store`, `inFlightWaitMs`, `leaseMs`), checked once
 * at construction and shared by the exactly-once module (lib/core/exactly-once/) of that router.
 */
import { fail, positiveMs } from '../shared/options.js';
import { completeStore, probeStore, type KitStore } from './capabilities.js';
import { MemoryStore } from './memory.js';
import { claimStoreFor } from './namespace.js';
import type { Store } from './types.js';

export interface StoreSettings {
  /** The router's store as the pipeline calls it (absent capabilities filled in; see capabilities.ts). */
  store: KitStore;
  inFlightWaitMs: number;
  leaseMs: number;
}

export const DEFAULT_IN_FLIGHT_WAIT_MS = 10_000;
export const DEFAULT_LEASE_MS = 60_000;

/** Checks a store option (the core, capability pairs, misspelt method names); see capabilities.ts. */
export function assertStore(value: unknown): Store {
  probeStore(value);
  return value as Store;
}

/**
 * The settings of one router, from its options (`store`, `inFlightWaitMs`, `leaseMs`, and
 * `merchantGuid` to refuse a store shared by two shops without namespaces; other keys are not read):
 * resolved once, at construction, shared by the exactly-once module (lib/core/exactly-once/).
 */
export function resolveStoreSettings(options: { store?: unknown; inFlightWaitMs?: unknown; leaseMs?: unknown; merchantGuid?: unknown }, adapterTimeoutMs: number): StoreSettings {
  const inFlightWaitMs = positiveMs(options.inFlightWaitMs, 'inFlightWaitMs', DEFAULT_IN_FLIGHT_WAIT_MS);
  const leaseMs = positiveMs(options.leaseMs, 'leaseMs', Math.max(DEFAULT_LEASE_MS, adapterTimeoutMs * 2));
  if (leaseMs <= adapterTimeoutMs) {
    fail('ERR_CBK_OPTION_INVALID', `Option leaseMs (${leaseMs}) must be greater than adapterTimeoutMs (${adapterTimeoutMs}): a lease shorter than an adapter call would let a retry run beside it`);
  }
  const userStore = options.store === undefined ? new MemoryStore() : assertStore(options.store);
  claimStoreFor(userStore, options.merchantGuid);
  const store = completeStore(userStore);
  return Object.freeze({ store, inFlightWaitMs, leaseMs });
}
