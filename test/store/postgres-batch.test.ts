/**
 * StatementBatcher (PostgresStore's claim and save batching), without a database: a runner whose
 * calls are recorded and answered by hand, so every test sees exactly what went out, and when.
 */
import { jest } from '@jest/globals';
import { StatementBatcher, type BatchRunner } from '../../lib/store/postgres-batch.js';

interface Call { kind: 'one' | 'many'; items: number[]; resolve(value: unknown): void; reject(err: unknown): void }

/** A runner whose calls stay under way until the test answers them; counts how many are under way at once. */
function manualRunner() {
  const calls: Call[] = [];
  const stats = { active: 0, maxActive: 0 };
  const start = (kind: Call['kind'], items: readonly number[]) => new Promise<any>((resolve, reject) => {
    stats.active++;
    stats.maxActive = Math.max(stats.maxActive, stats.active);
    let ended = false;
    const end = () => { if (!ended) { ended = true; stats.active--; } };
    calls.push({ kind, items: [...items], resolve: (v) => { end(); resolve(v); }, reject: (e) => { end(); reject(e); } });
  });
  const runner: BatchRunner<number, number> = { one: (item) => start('one', [item]), many: (items) => start('many', items) };
  /** Answers a call as a correct runner would: item * 10 for each item, in the order received. */
  const answer = (call: Call) => call.resolve(call.kind === 'one' ? call.items[0] * 10 : call.items.map((i) => i * 10));
  return { runner, calls, stats, answer };
}

/** A runner that answers at once (item * 10) and records what it was given. */
function autoRunner() {
  const calls: Array<{ kind: 'one' | 'many'; items: number[] }> = [];
  const runner: BatchRunner<number, number> = {
    one: async (item) => { calls.push({ kind: 'one', items: [item] }); return item * 10; },
    many: async (items) => { calls.push({ kind: 'many', items: [...items] }); return items.map((i) => i * 10); },
  };
  return { runner, calls };
}

/** Lets the batcher's setImmediate turns and the promise chains after them run. */
const turns = async (n = 5) => { for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r)); };

/** Whether a promise has settled yet (after the pending turns), without waiting for it. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(() => { done = true; }, () => { done = true; });
  await turns();
  return done;
}

describe('StatementBatcher', () => {
  test('items pushed in one turn while a batch is under way leave together, as one many() call; each caller gets its own result', async () => {
    const { runner, calls, answer } = manualRunner();
    const b = new StatementBatcher(runner, 1, 32);
    const first = b.push(1);
    await turns();
    expect(calls.map((c) => [c.kind, c.items])).toEqual([['one', [1]]]);
    const rest = [b.push(2), b.push(3), b.push(4)];
    await turns();
    expect(calls).toHaveLength(1); // the only slot is taken: they wait
    answer(calls[0]);
    expect(await first).toBe(10);
    await turns();
    expect(calls.map((c) => [c.kind, c.items])).toEqual([['one', [1]], ['many', [2, 3, 4]]]);
    answer(calls[1]);
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
  });

  test('items pushed in one turn on an idle batcher leave together too', async () => {
    const { runner, calls } = autoRunner();
    const b = new StatementBatcher(runner, 2, 32);
    expect(await Promise.all([b.push(7), b.push(8), b.push(9)])).toEqual([70, 80, 90]);
    expect(calls).toEqual([{ kind: 'many', items: [7, 8, 9] }]);
  });

  test('a lone item goes through one(), never many()', async () => {
    const { runner, calls } = autoRunner();
    const many = jest.spyOn(runner, 'many');
    const b = new StatementBatcher(runner, 2, 32);
    expect(await b.push(5)).toBe(50);
    expect(await b.push(6)).toBe(60);
    expect(calls).toEqual([{ kind: 'one', items: [5] }, { kind: 'one', items: [6] }]);
    expect(many).not.toHaveBeenCalled();
  });

  test('never more than maxInFlight runner calls under way at once', async () => {
    const { runner, calls, stats, answer } = manualRunner();
    const b = new StatementBatcher(runner, 2, 3);
    const results = Array.from({ length: 10 }, (_, i) => b.push(i));
    await turns();
    expect(calls.map((c) => c.items)).toEqual([[0, 1, 2], [3, 4, 5]]);
    await turns(); // still nothing more while both slots are taken
    expect(calls).toHaveLength(2);
    expect(stats.active).toBe(2);
    // Answer the oldest call under way, one at a time, until everything was sent and answered.
    for (let next = 0; next < calls.length; next++) {
      answer(calls[next]);
      await turns();
      expect(stats.active).toBeLessThanOrEqual(2);
    }
    expect(calls.map((c) => c.items)).toEqual([[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]);
    expect(stats.maxActive).toBe(2);
    expect(await Promise.all(results)).toEqual(Array.from({ length: 10 }, (_, i) => i * 10));
  });

  test('at most maxBatch items a batch (70 items, maxBatch 32), all answered', async () => {
    const { runner, calls } = autoRunner();
    const b = new StatementBatcher(runner, 2, 32);
    const items = Array.from({ length: 70 }, (_, i) => i + 1);
    expect(await Promise.all(items.map((i) => b.push(i)))).toEqual(items.map((i) => i * 10));
    expect(calls.map((c) => c.items.length)).toEqual([32, 32, 6]);
    expect(calls.flatMap((c) => c.items).sort((x, y) => x - y)).toEqual(items);
  });

  test('the order comparator sorts the items given to many(); results still reach their own callers', async () => {
    const { runner, calls } = autoRunner();
    const seen: Array<[number, number]> = [];
    const b = new StatementBatcher(runner, 2, 32, (x: number, y: number) => { seen.push([x, y]); return x - y; });
    const pushed = [5, 3, 9, 1, 7];
    expect(await Promise.all(pushed.map((i) => b.push(i)))).toEqual([50, 30, 90, 10, 70]);
    expect(calls).toEqual([{ kind: 'many', items: [1, 3, 5, 7, 9] }]);
    // The comparator is given the items themselves.
    expect(seen.length).toBeGreaterThan(0);
    for (const pair of seen) for (const v of pair) expect(pushed).toContain(v);
  });

  test('a rejected many() is retried item by item; a failing item rejects only its own caller', async () => {
    const { runner, calls, answer } = manualRunner();
    const b = new StatementBatcher(runner, 1, 32);
    const results = [1, 2, 3].map((i) => b.push(i));
    await turns();
    expect(calls.map((c) => [c.kind, c.items])).toEqual([['many', [1, 2, 3]]]);
    calls[0].reject(new Error('deadlock detected'));
    await turns();
    expect(calls.slice(1).map((c) => [c.kind, c.items])).toEqual([['one', [1]], ['one', [2]], ['one', [3]]]);
    const bad = new Error('item 2 is bad');
    answer(calls[1]);
    calls[2].reject(bad);
    answer(calls[3]);
    const outcomes = await Promise.allSettled(results);
    expect(outcomes).toEqual([
      { status: 'fulfilled', value: 10 },
      { status: 'rejected', reason: bad },
      { status: 'fulfilled', value: 30 },
    ]);
    // The slot was given back: the next item is sent and answered.
    const later = b.push(4);
    await turns();
    expect(calls[4]).toMatchObject({ kind: 'one', items: [4] });
    answer(calls[4]);
    expect(await later).toBe(40);
  });

  test('a many() that resolves with the wrong number of results rejects every caller, and retries none', async () => {
    const { runner, calls, answer } = manualRunner();
    const one = jest.spyOn(runner, 'one');
    const b = new StatementBatcher(runner, 1, 32);
    const results = [1, 2, 3].map((i) => b.push(i));
    await turns();
    calls[0].resolve([10, 20]);
    const outcomes = await Promise.allSettled(results);
    for (const o of outcomes) {
      expect(o.status).toBe('rejected');
      expect(String((o as PromiseRejectedResult).reason)).toMatch(/returned 2 results for 3 items/);
    }
    await turns();
    expect(one).not.toHaveBeenCalled();
    expect(calls).toHaveLength(1);
    // The slot was given back.
    const later = [b.push(4), b.push(5)];
    await turns();
    expect(calls[1]).toMatchObject({ kind: 'many', items: [4, 5] });
    answer(calls[1]);
    expect(await Promise.all(later)).toEqual([40, 50]);
  });

  test('when a call comes back, what queued behind it is sent: no item waits forever (singles, batches, failures alike)', async () => {
    const { runner, calls, answer } = manualRunner();
    const b = new StatementBatcher(runner, 1, 2);
    const results = [1, 2, 3, 4, 5].map((i) => b.push(i));
    const lone = b.push(6);
    await turns();
    expect(calls.map((c) => c.items)).toEqual([[1, 2]]);
    answer(calls[0]);
    await turns();
    expect(calls.map((c) => c.items)).toEqual([[1, 2], [3, 4]]);
    calls[1].reject(new Error('batch failed'));
    await turns();
    expect(calls.slice(2).map((c) => [c.kind, c.items])).toEqual([['one', [3]], ['one', [4]]]);
    expect(await settled(results[4])).toBe(false); // waits for the fallback to finish
    answer(calls[2]);
    answer(calls[3]);
    await turns();
    expect(calls[4]).toMatchObject({ kind: 'many', items: [5, 6] });
    answer(calls[4]);
    expect(await Promise.all([...results, lone])).toEqual([10, 20, 30, 40, 50, 60]);
    // A lone item that fails gives its slot back too.
    const failing = b.push(7);
    const after = failing.catch(() => b.push(8));
    await turns();
    calls[5].reject(new Error('no'));
    await expect(failing).rejects.toThrow('no');
    await turns();
    expect(calls[6]).toMatchObject({ kind: 'one', items: [8] });
    answer(calls[6]);
    expect(await after).toBe(80);
  });

  test('runs while jest fake timers are installed, without advancing them', async () => {
    jest.useFakeTimers();
    try {
      const calls: Array<[string, number[]]> = [];
      let release!: () => void;
      const gate = new Promise<void>((r) => { release = r; });
      let firstSent!: () => void;
      const sent = new Promise<void>((r) => { firstSent = r; });
      const runner: BatchRunner<number, number> = {
        one: async (item) => {
          calls.push(['one', [item]]);
          if (item === 1) { firstSent(); await gate; }
          return item * 10;
        },
        many: async (items) => { calls.push(['many', [...items]]); return items.map((i) => i * 10); },
      };
      const b = new StatementBatcher(runner, 1, 32);
      const first = b.push(1);
      await sent;
      const queued = [b.push(2), b.push(3)]; // the only slot is taken: they leave when it comes back
      release();
      expect(await first).toBe(10);
      expect(await Promise.all(queued)).toEqual([20, 30]);
      expect(calls).toEqual([['one', [1]], ['many', [2, 3]]]);
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  }, 5000);
});
