/**
 * The idempotency options of a router/handler (`store`, `inFlightWaitMs`, `leaseMs`), checked once
 * at construction and shared by the idempotency and holds steps of that router.
 */
import { fail, positiveMs } from '../shared/options.js';
import type { ResolvedOptions } from '../callbacks/options.js';
import { MemoryStore } from './memory.js';
import { STORE_METHODS, type Store } from './types.js';

export interface IdempotencySettings {
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

const settings = new WeakMap<ResolvedOptions, IdempotencySettings>();

/** The settings of one router; resolved once, shared by the idempotency and holds steps. */
export function idempotencySettings(options: ResolvedOptions): IdempotencySettings {
  const cached = settings.get(options);
  if (cached) return cached;
  const raw = options.raw;
  const inFlightWaitMs = positiveMs(raw.inFlightWaitMs, 'inFlightWaitMs', DEFAULT_IN_FLIGHT_WAIT_MS);
  const leaseMs = positiveMs(raw.leaseMs, 'leaseMs', Math.max(DEFAULT_LEASE_MS, options.adapterTimeoutMs * 2));
  if (leaseMs <= options.adapterTimeoutMs) {
    fail('ERR_CBK_OPTION_INVALID', `Option leaseMs (${leaseMs}) must be greater than adapterTimeoutMs (${options.adapterTimeoutMs}): a lease shorter than an adapter call would let a retry run beside it`);
  }
  const store = raw.store === undefined ? new MemoryStore() : assertStore(raw.store);
  const resolved = { store, inFlightWaitMs, leaseMs };
  settings.set(options, resolved);
  return resolved;
}
