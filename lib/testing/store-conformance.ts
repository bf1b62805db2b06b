/**
 * The store conformance suite: proves that a store (yours, MemoryStore, PostgresStore) keeps the
 * Store contract the kit relies on — the required core always, each optional capability the store
 * implements. Framework-free: `runStoreConformance` registers one test per check with the
 * `describe`/`it` you pass (jest, vitest, node:test, mocha); `storeConformanceChecks` gives the
 * checks as named async functions that throw on a breach, for anything else. See docs/stores.md.
 */
import assert from 'node:assert/strict';
import { probeStore } from '../store/capabilities.js';
import { STORE_CAPABILITIES, type Store, type StoreCapability } from '../store/types.js';
import { capabilityChecks } from './store-checks-capabilities.js';
import type { CheckDefinition } from './store-check-types.js';
import { coreChecks } from './store-checks-core.js';

/** What `makeStore` is asked for. */
export interface StoreSettings {
  /** When set, the store's records (replies, attempts, merchant ids) expire after this many milliseconds. */
  ttlMs?: number;
}

/** Builds a fresh store (empty, or at least sharing no ids with earlier checks: each check uses ids of its own). */
export type MakeStore = (settings: StoreSettings) => Store | Promise<Store>;

export interface StoreConformanceOptions {
  /** The test framework's `describe` (jest, vitest and mocha globals; `import { describe } from 'node:test'`). Default: the global one. */
  describe?: (name: string, body: () => void) => unknown;
  /** The test framework's `it` or `test`. Default: the global `it`. */
  it?: (name: string, body: () => Promise<void>) => unknown;
  /**
   * Another instance over the same data as `store`, as a second process would have (a second client
   * of the same database). Default: the same instance — then nothing proves the store across
   * processes; pass it for any store meant to run in more than one process.
   */
  twin?(store: Store): Store | Promise<Store>;
  /** Called for each store and twin a check made, after it (close a connection, drop a schema). */
  close?(store: Store): void | Promise<void>;
  /**
   * The optional capabilities the store implements. Given, the first check asserts the store has
   * exactly these, and only their checks are registered. Default: probed when each check runs (the
   * checks of a capability the store lacks then pass without checking anything).
   */
  capabilities?: readonly StoreCapability[];
  /** The title of the describe block; default 'Store conformance'. */
  title?: string;
}

/** One check: its name (prefixed with 'core' or its capability) and the function that throws when the store breaches it. */
export interface StoreCheck {
  name: string;
  capability: 'core' | StoreCapability;
  run(): Promise<void>;
}

let runs = 0;

/** The checks for the store `makeStore` builds: the core ones, and those of each capability it implements. */
export function storeConformanceChecks(makeStore: MakeStore, options: StoreConformanceOptions = {}): StoreCheck[] {
  if (typeof makeStore !== 'function') throw new TypeError('storeConformanceChecks(makeStore): makeStore must be a function returning a store');
  const run = `${process.pid.toString(36)}${Date.now().toString(36)}${(runs++).toString(36)}`;
  let counter = 0;
  const declared = options.capabilities;
  if (declared !== undefined) {
    const unknown = declared.filter((c) => !(c in STORE_CAPABILITIES));
    if (!Array.isArray(declared) || unknown.length > 0) throw new TypeError(`storeConformanceChecks: unknown capabilities ${unknown.join(', ')} (known: ${Object.keys(STORE_CAPABILITIES).join(', ')})`);
  }
  const definitions: CheckDefinition[] = [
    {
      name: 'the kit accepts the store (the core complete, each capability whole, no misspelt method name)',
      capability: 'core',
      body: async (c) => {
        const found = probeStore(c.store, 'The store');
        if (declared) assert.deepEqual([...found].sort(), [...declared].sort(), 'the store does not implement exactly the declared capabilities');
      },
    },
    ...coreChecks(),
    ...capabilityChecks().filter((d) => !declared || declared.includes(d.capability as StoreCapability)),
  ];
  const check = (d: CheckDefinition): StoreCheck => ({
    name: `${d.capability}: ${d.name}`,
    capability: d.capability,
    run: async () => {
      const made: Store[] = [];
      const track = async (s: Store | Promise<Store>) => { const store = await s; made.push(store); return store; };
      try {
        const store = await track(makeStore({}));
        if (d.capability !== 'core' && !hasCapability(store, d.capability)) return;
        await d.body({
          store,
          twin: async () => (options.twin ? track(options.twin(store)) : store),
          withTtl: (ttlMs) => track(makeStore({ ttlMs })),
          id: (prefix) => `${prefix}-${run}-${counter++}`,
        });
      } finally {
        if (options.close) for (const s of new Set(made)) await options.close(s);
      }
    },
  });
  return definitions.map(check);
}

const CAPABILITY_PROBE: Record<StoreCapability, keyof Store> = {
  payments: 'getPayment', latest: 'getLatestRecord', attempts: 'beginAttempt', merchantOrderIds: 'findOrderId',
  manualRelease: 'releaseFulfilmentHold', batching: 'claimOrReplay', activeHolds: 'countActiveHolds',
};
const hasCapability = (store: Store, capability: StoreCapability) => typeof store[CAPABILITY_PROBE[capability]] === 'function';

/**
 * Registers the conformance checks as tests: one `describe` with one `it` per check. A capability
 * the store does not implement is not checked (its checks pass without running). Call it at the
 * top level of a test file:
 *   runStoreConformance(() => new MyStore(), { describe, it });
 */
export function runStoreConformance(makeStore: MakeStore, options: StoreConformanceOptions = {}): void {
  const g = globalThis as { describe?: StoreConformanceOptions['describe']; it?: StoreConformanceOptions['it'] };
  const describe = options.describe ?? g.describe;
  const it = options.it ?? g.it;
  if (typeof describe !== 'function' || typeof it !== 'function') {
    throw new TypeError("runStoreConformance needs the test framework's describe and it: runStoreConformance(makeStore, { describe, it }) (node:test: import { describe, it } from 'node:test')");
  }
  const checks = storeConformanceChecks(makeStore, options);
  describe(options.title ?? 'Store conformance', () => {
    for (const c of checks) it(c.name, () => c.run());
  });
}
