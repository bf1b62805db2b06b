/**
 * Exactly-once on a real engine (issue 49, items 4 and 5), shared by the RedisStore and DynamoDBStore
 * tests: two stores over the same data, each on a client of its own, stand for two app processes.
 * - the fence is the engine's own: a save whose lease another holder took is refused there;
 * - 20 concurrent deliveries of one order across two handlers: the adapter once, every answer the
 *   same InternalOrderId or a retryable 503;
 * - a save stalled in the network past its lease keeps nothing; the process that took over is the order's;
 * - the server stopped mid-delivery: 503 meanwhile, and after it returns the reply is stored once and replayed.
 */
import type { Store, StoreLock } from 'crossborder-merchant-kit/store';
import { order } from '../helpers/orders.js';
import { sleep, testKit } from '../helpers/kit.js';
import { record } from './harness.js';

type Full = Store & Required<Pick<Store, 'findOrderId' | 'getPayment'>>;

export interface EnginePair {
  a: Full;
  b: Full;
  /** Holds back what `a` sends to the server (only when the pair was asked for with `stallable`). */
  stall(ms: number): void;
  /** Makes the OrderId's lease another holder's, as a take-over the holder did not see would (written straight into the engine). */
  steal(orderId: string): Promise<void>;
}

export interface EngineHarness {
  /** `timeoutMs`: the stores' own bound on a call (default 5000, wide for a loaded CI machine). */
  pair(options?: { stallable?: boolean; timeoutMs?: number }): Promise<EnginePair>;
  /** Kills the server; start() brings it back with what it had written. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

let seq = 0;
const uid = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${seq++}`;

const lockOf = async (store: Store, orderId: string, leaseMs = 10_000): Promise<StoreLock> => {
  const lock = await store.acquire(orderId, { waitMs: 5_000, leaseMs });
  if (!lock) throw new Error(`no lock for ${orderId}`);
  return lock;
};

export function engineBehaviour(name: string, harness: () => EngineHarness): void {
  describe(`${name}: exactly once on the real engine`, () => {
    test('the fence is the engine\'s: a save whose lease was taken over is refused there, stores nothing and frees nothing', async () => {
      const h = harness();
      const { a, b, steal } = await h.pair();
      const o = uid('FENCE');
      const key = `sendOrderToMerchant:${o}:aaa`;
      const lock = await lockOf(a, o);
      await steal(o); // the holder still believes its lease is good: only the engine can refuse
      await expect(lock.saveAndRelease!(record({ key, orderId: o, response: { Success: true, InternalOrderId: 'INT-A' } }), ['INT-A-' + o]))
        .rejects.toMatchObject({ code: 'ERR_CBK_LEASE_LOST' });
      expect(await b.getRecord(key)).toBeNull();
      expect(await b.findOrderId('INT-A-' + o)).toBeNull();
      expect(await b.acquire(o, { waitMs: 100, leaseMs: 1_000 })).toBeNull(); // the thief's lease stands
    });

    test('a lease that ended is lost: the save is refused (nothing stored) and the successor keeps its lock', async () => {
      const h = harness();
      const { a, b } = await h.pair();
      const o = uid('LEASE');
      const key = `sendOrderToMerchant:${o}:aaa`;
      const first = await lockOf(a, o, 300);
      const next = await lockOf(b, o); // waits out the first lease
      expect(next.recovered).toBe(true);
      await expect(first.saveAndRelease!(record({ key, orderId: o }), [])).rejects.toMatchObject({ code: 'ERR_CBK_LEASE_LOST' });
      await first.release();
      expect(await a.getRecord(key)).toBeNull();
      expect(await a.acquire(o, { waitMs: 100, leaseMs: 1_000 })).toBeNull();
      await next.saveAndRelease!(record({ key, orderId: o, response: { Success: true, InternalOrderId: 'INT-B' } }), ['INT-B-' + o]);
      expect((await a.getRecord(key))?.response.InternalOrderId).toBe('INT-B');
      expect(await a.findOrderId('INT-B-' + o)).toBe(o);
      await (await lockOf(a, o)).release(); // released by the save
    });

    test('20 concurrent deliveries of one order across two handlers with their own clients: the adapter once, one answer or a retryable 503', async () => {
      const h = harness();
      const { a, b } = await h.pair();
      let n = 0;
      const answers = { sendOrderToMerchant: async () => { await sleep(30); return { InternalOrderId: `INT-${++n}` }; } };
      const kits = [testKit({ store: a, answers }), testKit({ store: b, answers })];
      const body = order({ OrderId: uid('RACE') });
      const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => kits[i % 2].deliver('sendOrderToMerchant', body)));
      expect(kits[0].calls('sendOrderToMerchant').length + kits[1].calls('sendOrderToMerchant').length).toBe(1);
      for (const r of replies) {
        if (r.status === 200) expect(r.body).toMatchObject({ Success: true, InternalOrderId: 'INT-1' });
        else expect(r).toMatchObject({ status: 503, headers: { 'retry-after': expect.any(String) } });
      }
      expect(replies.filter((r) => r.status === 200).length).toBeGreaterThan(0);
      for (const kit of kits) expect(await kit.deliver('sendOrderToMerchant', body)).toMatchObject({ status: 200, body: { InternalOrderId: 'INT-1' } });
    });

    test('a save stalled past its lease keeps nothing and answers nothing of its own; the handler that took over is the order\'s', async () => {
      const h = harness();
      // The stores' call bound (5 s) past the lease: the stalled save is bounded by what is left of its lease.
      const { a, b, stall } = await h.pair({ stallable: true });
      const options = { leaseMs: 1_500, adapterTimeoutMs: 300, inFlightWaitMs: 6_000 };
      const kitA = testKit({ store: a, answers: { sendOrderToMerchant: () => { stall(2_500); return { InternalOrderId: 'INT-A' }; } }, ...options });
      const kitB = testKit({ store: b, answers: { sendOrderToMerchant: () => ({ InternalOrderId: 'INT-B' }) }, ...options });
      const o = uid('STALL');
      const body = order({ OrderId: o });
      const first = kitA.deliver('sendOrderToMerchant', body);
      while (kitA.calls('sendOrderToMerchant').length === 0) await sleep(5);
      const retry = await kitB.deliver('sendOrderToMerchant', body); // waits out A's lease, then takes over
      const lost = await first;
      stall(0);
      expect(kitB.calls('sendOrderToMerchant')).toHaveLength(1);
      expect(kitB.calls('sendOrderToMerchant')[0].context).toMatchObject({ attempt: 2, previousAttempt: { outcome: 'crashed' } });
      expect(retry).toMatchObject({ status: 200, body: { InternalOrderId: 'INT-B' } });
      expect(JSON.stringify(lost.body)).not.toContain('INT-A');
      if (lost.status !== 200) expect(lost).toMatchObject({ status: 503, body: { ErrorCode: 'STORE_UNAVAILABLE' } });
      // Through A's connection, behind its stalled save (bytes stay in order): by now the save reached the server, and was refused there.
      expect(await a.findOrderId('INT-A')).toBeNull();
      for (const kit of [kitA, kitB]) expect(await kit.deliver('sendOrderToMerchant', body)).toMatchObject({ status: 200, body: { InternalOrderId: 'INT-B' } });
      expect(kitA.calls('sendOrderToMerchant').length + kitB.calls('sendOrderToMerchant').length).toBe(2);
      await (await lockOf(b, o)).release(); // a later claim of the order (DynamoDBStore completes a save kept in the lock item then)
      expect(await b.findOrderId('INT-A')).toBeNull(); // brought nothing of A's either
      expect(await b.findOrderId('INT-B')).toBe(o);
    });

    test('the server stopped mid-delivery: 503 while it is down, and once it returns the reply is stored once and replayed', async () => {
      const h = harness();
      const { a, b } = await h.pair({ timeoutMs: 1_000 }); // a stopped server fails a call within 1 s
      const options = { leaseMs: 15_000, adapterTimeoutMs: 5_000, inFlightWaitMs: 12_000 };
      const kitA = testKit({ store: a, answers: { sendOrderToMerchant: async () => { await h.stop(); return { InternalOrderId: 'INT-1' }; } }, ...options });
      const kitB = testKit({ store: b, ...options, answers: { sendOrderToMerchant: () => ({ InternalOrderId: 'INT-2' }) } });
      const body = order({ OrderId: uid('DOWN') });
      try {
        // The adapter succeeded, its reply could not be stored: answered, kept, and its save retried under the lock.
        expect(await kitA.deliver('sendOrderToMerchant', body)).toMatchObject({ status: 200, body: { InternalOrderId: 'INT-1' } });
        const down = await kitB.deliver('sendOrderToMerchant', body);
        expect(down).toMatchObject({ status: 503, body: { ErrorCode: 'STORE_UNAVAILABLE' }, headers: { 'retry-after': expect.any(String) } });
      } finally {
        await h.start();
      }
      // B waits for A's lock: A's retried save lands and releases it; B replays the stored reply.
      expect(await kitB.deliver('sendOrderToMerchant', body)).toMatchObject({ status: 200, body: { InternalOrderId: 'INT-1' } });
      expect(await kitA.deliver('sendOrderToMerchant', body)).toMatchObject({ status: 200, body: { InternalOrderId: 'INT-1' } });
      expect(kitA.calls('sendOrderToMerchant')).toHaveLength(1);
      expect(kitB.calls('sendOrderToMerchant')).toHaveLength(0);
      expect(await b.findOrderId('INT-1')).toBe(body.OrderId);
    });
  });
}
