/**
 * The store conformance suite (crossborder-merchant-kit/testing) catches broken stores: each
 * deliberately broken store below fails the check named for its breach, while the correct store it
 * was broken from passes the whole suite (here the core-only MapStore; MemoryStore and PostgresStore
 * in test/store/conformance*.test.ts).
 */
import { execFile } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { MemoryStore, type AcquireOptions, type NewRecord, type Store, type StoreLock, type StoredRecord } from 'crossborder-merchant-kit/store';
import { runStoreConformance, storeConformanceChecks, type MakeStore } from 'crossborder-merchant-kit/testing';
import { MapStore } from '../../examples/custom-store/map-store.js';
import { itCheckingSkips } from '../helpers/conformance-it.js';

// MapStore implements the core only: every capability's checks are reported skipped (asserted, not skipped here).
const EVERY_CAPABILITY = ['payments', 'latest', 'attempts', 'merchantOrderIds', 'manualRelease', 'activeHolds', 'batching'];
runStoreConformance(({ ttlMs }) => new MapStore({ ttlMs }), { describe, it: itCheckingSkips(EVERY_CAPABILITY), title: 'the core-only MapStore example', capabilities: [], concurrency: Infinity });

/** Runs the checks whose name contains `fragment`; resolves to the failure messages by check name. */
async function failures(makeStore: MakeStore, fragment: string, options: Parameters<typeof storeConformanceChecks>[1] = {}): Promise<Record<string, string>> {
  const checks = storeConformanceChecks(makeStore, options).filter((c) => c.name.includes(fragment));
  expect(checks.length).toBeGreaterThan(0);
  const failed: Record<string, string> = {};
  for (const c of checks) await c.run().catch((err: Error) => { failed[c.name] = err.message.split('\n')[0]; });
  return failed;
}

/** A lock over MapStore's lock map, broken as told. */
class BrokenLockStore extends MapStore {
  constructor(private readonly broken: { leaseFactor?: number; notAtomic?: boolean; releasesAnyHolder?: boolean; releaseIsNoop?: boolean; neverTakesOver?: boolean; recoveredAlways?: boolean }) {
    super();
  }

  override async acquire(orderId: string, { waitMs, leaseMs }: AcquireOptions): Promise<StoreLock | null> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const held = this.locks.get(orderId);
      const free = held === undefined || (!this.broken.neverTakesOver && held.expiresAt <= Date.now());
      if (free) {
        if (this.broken.notAtomic) await sleep(1); // read, then write: another claim slips in between
        const token = Symbol(orderId);
        this.locks.set(orderId, { token, expiresAt: Date.now() + leaseMs * (this.broken.leaseFactor ?? 1) });
        return {
          recovered: this.broken.recoveredAlways === true || held !== undefined,
          release: async () => {
            if (this.broken.releaseIsNoop) return;
            if (this.broken.releasesAnyHolder || this.locks.get(orderId)?.token === token) this.locks.delete(orderId);
          },
        };
      }
      if (Date.now() >= deadline) return null;
      await sleep(5);
    }
  }
}

/** A plain object with every method of `store` (bound), some replaced. */
function delegate(store: Store, overrides: Partial<Record<keyof Store, unknown>>): Store {
  const out: Record<string, unknown> = {};
  for (let o = store as object; o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const name of Object.getOwnPropertyNames(o)) {
      const v = (store as unknown as Record<string, unknown>)[name];
      if (name !== 'constructor' && typeof v === 'function' && !(name in out)) out[name] = v.bind(store);
    }
  }
  return Object.assign(out, overrides) as unknown as Store;
}

// The slow cases (most of their time is waiting out leases) are test.concurrent: each builds stores of
// its own, and jest runs the top-level concurrent tests of a file as one group, at once.
test.concurrent('the suite catches a broken store: a lease ended early (a tenth of leaseMs): "holder keeps its lock for its whole lease" fails', async () => {
  // Usually the other instance takes the lock past a tenth of the lease; on a loaded machine the same instance's
  // 150 ms wait can already outlast the shortened lease: either way the check names the lock taken too early.
  expect(await failures(() => new BrokenLockStore({ leaseFactor: 0.1 }), 'whole lease'))
    .toEqual({ 'core: lease: acquire gives up after waitMs (null) and the holder keeps its lock for its whole lease': expect.stringMatching(/^(a lock was taken over before its lease ended|acquire took a held lock)$/) });
});

test.concurrent('the suite catches a broken store: a claim that is not atomic (check, then set): "exactly once" fails', async () => {
  const failed = await failures(() => new BrokenLockStore({ notAtomic: true }), 'exactly once');
  expect(Object.values(failed)).toEqual([expect.stringMatching(/holders had the lock of one OrderId at once|the work ran \d+ times/)]);
});

test.concurrent("the suite catches a broken store: a release that frees whoever holds the lock: the crashed holder's late release is caught", async () => {
  const failed = await failures(() => new BrokenLockStore({ releasesAnyHolder: true }), 'lease: a holder that never releases');
  expect(Object.values(failed)).toEqual(["the crashed holder's late release freed its successor's lock"]);
  const twice = await failures(() => new BrokenLockStore({ releasesAnyHolder: true }), 'release on failure');
  expect(Object.values(twice)).toEqual(["a second release of an old lock freed the next holder's lock"]);
});

test.concurrent('the suite catches a broken store: a release that does nothing (the lock stays until its lease): "release on failure" fails', async () => {
  expect(Object.values(await failures(() => new BrokenLockStore({ releaseIsNoop: true }), 'release on failure')))
    .toEqual([expect.stringMatching(/resolved null although the OrderId was free/)]);
});

test.concurrent('the suite catches a broken store: a lock never taken over after a crash, or always reported recovered', async () => {
  expect(Object.values(await failures(() => new BrokenLockStore({ neverTakesOver: true }), 'lease: a holder that never releases')))
    .toEqual([expect.stringMatching(/resolved null although the OrderId was free/)]);
  expect(Object.values(await failures(() => new BrokenLockStore({ recoveredAlways: true }), 'waits for the release')))
    .toEqual(['a free OrderId was reported recovered']);
});

test.concurrent('the suite catches a broken store: a save that overwrites (last write wins) and a read that hands out the stored object', async () => {
  class Overwrites extends MapStore {
    override async saveRecord(record: NewRecord): Promise<void> { this.records.delete(record.key); await super.saveRecord(record); }
  }
  expect(Object.values(await failures(() => new Overwrites(), 'first reply saved'))).toEqual(['a later save replaced the first reply']);
  class Live extends MapStore {
    override async getRecord(key: string): Promise<StoredRecord | null> {
      const e = this.records.get(key);
      return e ? Object.assign(e.record, { createdAt: new Date(e.createdAt), expiresAt: new Date(e.expiresAt) }) : null;
    }
  }
  expect(Object.values(await failures(() => new Live(), 'as saved and as a copy'))).toEqual(['a reader changed the stored reply']);
  class KeepsCallersObject extends MapStore {
    override async saveRecord(record: NewRecord): Promise<void> {
      if (!this.records.has(record.key)) this.records.set(record.key, { record, createdAt: Date.now(), expiresAt: Date.now() + 60_000 });
    }
  }
  expect(Object.values(await failures(() => new KeepsCallersObject(), 'as saved and as a copy'))).toEqual([expect.stringMatching(/Expected values to be strictly deep-equal/)]);
});

test.concurrent('the suite catches a broken store: a store that ignores the ttl: the expiry check fails', async () => {
  expect(Object.values(await failures(() => new MapStore(), 'expires after the ttl'))).toEqual(['an expired reply was still returned']);
});

test.concurrent('the suite catches a broken store: holds that forget documents received before the order', async () => {
  class Forgets extends MapStore {
    override async recordDocuments(orderId: string, received: Parameters<MapStore['recordDocuments']>[1]) {
      return this.holds.has(orderId) ? super.recordDocuments(orderId, received) : null;
    }
  }
  expect(Object.values(await failures(() => new Forgets(), 'before the order count'))).toHaveLength(1);
});

test.concurrent('the suite catches a broken store: a capability present but wrong: the latest payment instead of the first, an outcome lost, the first merchant id kept', async () => {
  const latestPayment = (s: MemoryStore) => delegate(s, { getPayment: (o: string) => s.getLatestRecord(o, 'performOrderPayment') });
  expect(Object.values(await failures(() => latestPayment(new MemoryStore()), 'first successful payment'))).toEqual([expect.stringMatching(/must give the first payment/)]);
  const loses = (s: MemoryStore) => delegate(s, { endAttempt: (k: string) => s.endAttempt(k, null) });
  expect(Object.values(await failures(() => loses(new MemoryStore()), 'attempts are counted'))).toHaveLength(1);
  const firstWins = (s: MemoryStore) => delegate(s, {
    saveMerchantOrderIds: async (o: string, ids: string[]) => { for (const id of ids) if (await s.findOrderId(id) === null) await s.saveMerchantOrderIds(o, [id]); },
  });
  expect(Object.values(await failures(() => firstWins(new MemoryStore()), 'latest save wins'))).toEqual(['a later save for the same merchant id must win']);
});

test.concurrent('the suite catches a broken store: a claimOrReplay that waits for the lock instead of answering the stored reply', async () => {
  const waits = (s: MemoryStore) => delegate(s, { claimOrReplay: async (o: string, opts: AcquireOptions) => { const lock = await s.acquire(o, opts); return lock && { lock }; } });
  expect(Object.values(await failures(() => waits(new MemoryStore()), 'claimOrReplay takes the lock'))).toEqual(['a stored reply was not answered while the lock was held']);
});

test.concurrent('the suite catches a broken store: a misspelt capability method, and a store that does not have the capabilities it declares', async () => {
  const misspelt = () => delegate(new MapStore(), { findOrderID: async () => null } as never);
  expect(Object.values(await failures(misspelt, 'the kit accepts the store'))).toEqual(['The store has a method findOrderID; did you mean findOrderId? (a misspelt method is not used; see docs/stores.md) [ERR_CBK_OPTION_INVALID]']);
  expect(Object.values(await failures(() => new MapStore(), 'the kit accepts the store', { capabilities: ['payments'] })))
    .toEqual([expect.stringMatching(/does not implement exactly the declared capabilities/)]);
});

describe('runStoreConformance and its options', () => {
  test('registers one describe with one test per check, and refuses to run without describe and it', () => {
    const names: string[] = [];
    let title = '';
    runStoreConformance(() => new MapStore(), { describe: (t, body) => { title = t; body(); }, it: (n) => { names.push(n); }, capabilities: [] });
    expect(title).toBe('Store conformance');
    expect(names).toEqual(storeConformanceChecks(() => new MapStore()).map((c) => c.name));
    expect(names).toContain('core: exactly once: concurrent deliveries of one OrderId on two instances run the work once and all get its reply');
    const g = globalThis as Record<string, unknown>;
    const saved = g.describe;
    try {
      g.describe = undefined;
      expect(() => runStoreConformance(() => new MapStore())).toThrow(/needs the test framework's describe and it/);
    } finally {
      g.describe = saved;
    }
    expect(() => storeConformanceChecks(() => new MapStore(), { capabilities: ['payment' as never] })).toThrow(/unknown capabilities payment/);
    for (const concurrency of [0, 1.5, -1, NaN]) {
      expect(() => runStoreConformance(() => new MapStore(), { describe, it, concurrency })).toThrow(/concurrency must be a whole number of checks, 1 or more/);
    }
  });

  test('closes every store a check made, twins included', async () => {
    const closed: Store[] = [];
    const stores: Store[] = [];
    const [check] = storeConformanceChecks(() => { const s = new MapStore(); stores.push(s); return s; }, {
      twin: () => { const s = new MapStore(); stores.push(s); return s; }, close: (s) => { closed.push(s); },
    }).filter((c) => c.name.includes('another OrderId is not blocked'));
    await check.run();
    expect(stores).toHaveLength(2);
    expect(closed).toEqual(stores);
  });
});

/** Registers the checks with a recording describe/it (it.skip included when `withSkip`); resolves nothing, runs nothing. */
function register(makeStore: MakeStore, options: Parameters<typeof runStoreConformance>[1], withSkip = true) {
  const tests: { name: string; skipped: boolean; body: (...args: unknown[]) => Promise<void> }[] = [];
  const it = (name: string, body: () => Promise<void>) => { tests.push({ name, skipped: false, body }); };
  const skip = (name: string, body: () => Promise<void>) => { tests.push({ name, skipped: true, body }); };
  runStoreConformance(makeStore, { ...options, describe: (_t, body) => body(), it: withSkip ? Object.assign(it, { skip }) : it });
  return tests;
}
const capabilityChecks = storeConformanceChecks(() => new MapStore()).filter((c) => c.capability !== 'core');
const getPaymentCheck = 'payments: getPayment gives the first successful payment of the OrderId only';

describe('a capability the store lacks is skipped with the reason, never passed', () => {
  test('declared capabilities: the checks of every other capability are registered with it.skip, named with the reason', () => {
    const tests = register(() => new MapStore(), { capabilities: ['payments'] });
    const skipped = tests.filter((t) => t.skipped).map((t) => t.name);
    expect(skipped).toEqual(capabilityChecks.filter((c) => c.capability !== 'payments').map((c) => `${c.name} [skipped: the store does not declare the capability ${c.capability}]`));
    expect(tests.filter((t) => !t.skipped).map((t) => t.name)).toEqual(storeConformanceChecks(() => new MapStore()).filter((c) => ['core', 'payments'].includes(c.capability)).map((c) => c.name));
  });

  test('storeConformanceChecks: a check of an undeclared capability says so before it runs and resolves skipped without making a store', async () => {
    let made = 0;
    const checks = storeConformanceChecks(() => { made++; return new MapStore(); }, { capabilities: [] });
    const payment = checks.find((c) => c.name === getPaymentCheck)!;
    expect(payment.skip).toBe('the store does not declare the capability payments');
    expect(await payment.run()).toEqual({ status: 'skipped', reason: 'the store does not declare the capability payments' });
    expect(made).toBe(0);
    const core = checks.find((c) => c.name.includes('another OrderId is not blocked'))!;
    expect(core.skip).toBeUndefined();
    expect(await core.run()).toEqual({ status: 'passed' });
  });

  test('probed (no capabilities given): the check finds the capability missing and resolves skipped, naming the method', async () => {
    const payment = storeConformanceChecks(() => new MapStore()).find((c) => c.name === getPaymentCheck)!;
    expect(payment.skip).toBeUndefined();
    expect(await payment.run()).toEqual({ status: 'skipped', reason: 'the store does not implement payments (no getPayment method)' });
    const present = storeConformanceChecks(() => new MemoryStore()).find((c) => c.name === getPaymentCheck)!;
    expect(await present.run()).toEqual({ status: 'passed' });
  });

  test("probed: the test skips itself through the framework's context (node:test's t, vitest's context, mocha's this), or fails with the reason under jest", async () => {
    const payment = () => register(() => new MapStore(), {}).find((t) => t.name === getPaymentCheck)!;
    const reasons: unknown[] = [];
    await payment().body({ skip: (m: string) => { reasons.push(m); } });
    await payment().body.call({ skip: (m: string) => { reasons.push(m); } });
    expect(reasons).toEqual(Array(2).fill('skipped: the store does not implement payments (no getPayment method)'));
    await expect(payment().body()).rejects.toThrow(/^payments: getPayment .*: skipped, the store does not implement payments \(no getPayment method\); this test framework cannot skip a running test, so declare the store's capabilities/);
    // A present capability runs and passes without touching the context's skip.
    const present = register(() => new MemoryStore(), {}).find((t) => t.name === getPaymentCheck)!;
    await present.body({ skip: () => { throw new Error('skip called for a check that ran'); } });
  });

  test('declared, with an it that has no skip: the test reports the skip through the context, or fails', async () => {
    const tests = register(() => new MapStore(), { capabilities: [] }, false);
    const payment = tests.find((t) => t.name === getPaymentCheck)!;
    expect(payment.skipped).toBe(false);
    await expect(payment.body()).rejects.toThrow(/skipped, the store does not declare the capability payments/);
  });
});

test.concurrent('concurrency: each test waits for its own check, at most `concurrency` checks run at once, and a failure is reported by its own test only', async () => {
  class Overwrites extends MapStore {
    override async saveRecord(record: NewRecord): Promise<void> { this.records.delete(record.key); await super.saveRecord(record); }
  }
  const open = new Set<Store>();
  let most = 0;
  const tests = register(({ ttlMs }) => {
    const s = new Overwrites({ ttlMs });
    if (ttlMs === undefined) { open.add(s); most = Math.max(most, open.size); }
    return s;
  }, { capabilities: [], concurrency: 4, close: (s) => { open.delete(s); } });
  const results: Record<string, string> = {};
  for (const t of tests.filter((x) => !x.skipped)) results[t.name] = await t.body().then(() => 'passed', (e: Error) => e.message.split('\n')[0]);
  expect(Object.entries(results).filter(([, r]) => r !== 'passed')).toEqual([['core: replay: the first reply saved under a key is kept (also when saved from another instance)', 'a later save replaced the first reply']]);
  expect(Object.keys(results)).toHaveLength(14);
  expect(most).toBe(4);
  expect(open.size).toBe(0);
});

test.concurrent('under node:test: examples/custom-store/conformance.test.ts passes every core check and reports each capability check skipped', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', 'examples/custom-store/conformance.test.ts'], { timeout: 60_000 });
  expect(stdout).toMatch(/^# pass 14$/m);
  expect(stdout).toMatch(/^# fail 0$/m);
  expect(stdout).toMatch(new RegExp(`^# skipped ${capabilityChecks.length}$`, 'm'));
  expect(stdout).toContain('ok 10 - core: exactly once: concurrent deliveries of one OrderId on two instances run the work once and all get its reply');
  expect(stdout).toContain(`ok 15 - ${getPaymentCheck} [skipped: the store does not declare the capability payments] # SKIP`);
});

test.concurrent('under node:test, capabilities not declared: each check of a capability the store lacks skips itself with the reason', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', 'test/testing/fixtures/undeclared-capabilities.node-test.ts'], { timeout: 60_000 });
  expect(stdout).toMatch(/^# pass 14$/m);
  expect(stdout).toMatch(/^# fail 0$/m);
  expect(stdout).toMatch(new RegExp(`^# skipped ${capabilityChecks.length}$`, 'm'));
  expect(stdout).toContain(`ok 15 - ${getPaymentCheck} # SKIP skipped: the store does not implement payments (no getPayment method)`);
});

test.concurrent('the suite catches a broken store: records gone at once (before their ttl): the ttl checks fail', async () => {
  // A store that keeps nothing it is given a ttl for: read at once (in memory, well before TTL_MS), the
  // record must be there, so the presence checks give their verdict.
  const lost = (ttlMs: number | undefined) => {
    const store = new MemoryStore(ttlMs === undefined ? {} : { ttl: ttlMs });
    return ttlMs === undefined ? store : delegate(store, { getRecord: async () => null, getPayment: async () => null, findOrderId: async () => null });
  };
  const failed = await failures(({ ttlMs }) => lost(ttlMs), 'expire');
  expect(failed).toEqual(expect.objectContaining({
    'core: replay: a reply expires after the ttl, and its key may then be saved again': 'a reply was gone before its ttl',
    'payments: a payment expires with its reply': 'a payment was gone before its ttl',
    'merchantOrderIds: merchant ids expire after the ttl': 'a merchant id did not find its order before its ttl',
  }));
});
