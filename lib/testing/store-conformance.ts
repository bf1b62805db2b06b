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

/**
 * Options of `runStoreConformance`: your test framework's `describe` and `it`, a second instance over
 * the same data (to prove the store across processes), and how the checks run. See docs/stores.md,
 * "Writing your own".
 */
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
   * exactly these, and the checks of every other capability are registered as skipped (`it.skip`),
   * each named with the reason. Default: probed when each check runs; a check of a capability the
   * store lacks is then skipped from inside the test where the framework can (node:test, vitest,
   * mocha) and fails naming the capability where it cannot (jest: declare `capabilities` there).
   * Never reported as passed.
   */
  capabilities?: readonly StoreCapability[];
  /**
   * How many checks run at once (default 1: one at a time). Each test still waits for its own check
   * and reports its own failure; the checks use ids and stores of their own, so a store that keeps
   * the contract passes either way, in about the time of the longest check (1–2 s) instead of the
   * sum of their waits (2–4 s). With a name filter (jest -t), up to `concurrency - 1` checks after
   * a selected one may also run. `Infinity`: every check at once.
   */
  concurrency?: number;
  /** The title of the describe block; default 'Store conformance'. */
  title?: string;
}

/** How a check ended when it did not throw: it passed, or it did not apply to the store (and why). */
export type StoreCheckOutcome = { status: 'passed' } | { status: 'skipped'; reason: string };

/** One check: its name (prefixed with 'core' or its capability) and the function that throws when the store breaches it. */
export interface StoreCheck {
  name: string;
  capability: 'core' | StoreCapability;
  /** Set when the check is known to be skipped before it runs (its capability was not declared): why. */
  skip?: string;
  /** Rejects (an AssertionError naming the breach) when the store breaches the check; resolves to how it ended otherwise. */
  run(): Promise<StoreCheckOutcome>;
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
    ...capabilityChecks(),
  ];
  const check = (d: CheckDefinition): StoreCheck => {
    const skip = d.capability !== 'core' && declared && !declared.includes(d.capability)
      ? `the store does not declare the capability ${d.capability}` : undefined;
    return {
      name: `${d.capability}: ${d.name}`,
      capability: d.capability,
      ...(skip ? { skip } : {}),
      run: async () => {
        if (skip) return { status: 'skipped', reason: skip };
        const made: Store[] = [];
        const track = async (s: Store | Promise<Store>) => { const store = await s; made.push(store); return store; };
        try {
          const store = await track(makeStore({}));
          if (d.capability !== 'core' && !hasCapability(store, d.capability)) {
            return { status: 'skipped', reason: `the store does not implement ${d.capability} (no ${CAPABILITY_PROBE[d.capability]} method)` };
          }
          await d.body({
            store,
            twin: async () => (options.twin ? track(options.twin(store)) : store),
            withTtl: (ttlMs) => track(makeStore({ ttlMs })),
            id: (prefix) => `${prefix}-${run}-${counter++}`,
          });
          return { status: 'passed' };
        } finally {
          if (options.close) for (const s of new Set(made)) await options.close(s);
        }
      },
    };
  };
  return definitions.map(check);
}

const CAPABILITY_PROBE: Record<StoreCapability, keyof Store> = {
  payments: 'getPayment', latest: 'getLatestRecord', attempts: 'beginAttempt', merchantOrderIds: 'findOrderId',
  manualRelease: 'releaseFulfilmentHold', batching: 'claimOrReplay', activeHolds: 'countActiveHolds',
};
const hasCapability = (store: Store, capability: StoreCapability) => typeof store[CAPABILITY_PROBE[capability]] === 'function';

type It = NonNullable<StoreConformanceOptions['it']> & { skip?: (name: string, body: () => unknown) => unknown };
/** What node:test (`t`), vitest (`context`) and mocha (`this`) hand a test, to skip it from inside. */
type TestContext = { skip?: (message?: string) => unknown } | undefined;

/**
 * Registers the conformance checks as tests: one `describe` with one `it` per check. The checks of
 * a capability the store does not implement are skipped, visibly, with the reason (never passed):
 * registered with `it.skip` when `capabilities` is declared, else skipped from inside the test
 * (node:test, vitest, mocha) or failed with the reason (jest cannot skip a running test). Call it
 * at the top level of a test file:
 *   runStoreConformance(() => new MyStore(), { describe, it, capabilities: [] });
 */
export function runStoreConformance(makeStore: MakeStore, options: StoreConformanceOptions = {}): void {
  const g = globalThis as { describe?: StoreConformanceOptions['describe']; it?: StoreConformanceOptions['it'] };
  const describe = options.describe ?? g.describe;
  const it = (options.it ?? g.it) as It | undefined;
  if (typeof describe !== 'function' || typeof it !== 'function') {
    throw new TypeError("runStoreConformance needs the test framework's describe and it: runStoreConformance(makeStore, { describe, it }) (node:test: import { describe, it } from 'node:test')");
  }
  const concurrency = options.concurrency ?? 1;
  if (!(Number.isInteger(concurrency) || concurrency === Infinity) || concurrency < 1) throw new TypeError(`runStoreConformance: concurrency must be a whole number of checks, 1 or more (got ${String(concurrency)})`);
  const checks = storeConformanceChecks(makeStore, options);
  const runnable = checks.filter((c) => !c.skip);
  const started = new Map<StoreCheck, Promise<StoreCheckOutcome>>();
  const start = (c: StoreCheck) => {
    let p = started.get(c);
    if (!p) {
      p = c.run();
      p.catch(() => { /* reported by its own test */ });
      started.set(c, p);
    }
    return p;
  };
  describe(options.title ?? 'Store conformance', () => {
    for (const c of checks) {
      if (c.skip && typeof it.skip === 'function') {
        it.skip(`${c.name} [skipped: ${c.skip}]`, () => undefined);
        continue;
      }
      // `function` with a rest parameter: mocha's `this`, node:test's and vitest's context, and a length of 0 (no done callback).
      it(c.name, async function (this: TestContext, ...args: unknown[]) {
        const at = runnable.indexOf(c);
        if (at >= 0) for (const next of runnable.slice(at + 1, at + concurrency)) void start(next);
        const outcome = await start(c);
        if (outcome.status === 'passed') return;
        const context = [args[0] as TestContext, this].find((x) => typeof x?.skip === 'function');
        if (context) return void context.skip!(`skipped: ${outcome.reason}`);
        throw new Error(`${c.name}: skipped, ${outcome.reason}; this test framework cannot skip a running test, so declare the store's capabilities (runStoreConformance(makeStore, { capabilities: [...] })): the checks of the others are then registered as skipped`);
      });
    }
  });
}
