/**
 * The per-order queue of the client's refunds (lib/client/order-queue.ts): work on one order runs in
 * turn, work on another order does not wait, a failure does not stop what was queued after it, and a
 * key is forgotten once its work settled (a client that refunds many orders keeps no entry for them).
 */
import { OrderQueue } from '../../lib/client/order-queue.js';

/** A piece of work that ends when told to, recording when it started and ended. */
function gate(log: string[], name: string, fail = false) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => { open = resolve; });
  const work = async () => {
    log.push(`${name} start`);
    await opened;
    log.push(`${name} end`);
    if (fail) throw new Error(`${name} failed`);
    return name;
  };
  return { work, open };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('OrderQueue', () => {
  test('work on one order runs in turn, in the order it was queued; the key is forgotten after the last', async () => {
    const queue = new OrderQueue();
    const log: string[] = [];
    const a = gate(log, 'a');
    const b = gate(log, 'b');
    const first = queue.run('GE1', a.work);
    const second = queue.run('GE1', b.work);
    await tick();
    expect(log).toEqual(['a start']);
    expect(queue.size).toBe(1);
    a.open();
    await expect(first).resolves.toBe('a');
    await tick();
    expect(log).toEqual(['a start', 'a end', 'b start']);
    // a's end must not forget the key while b runs: a third piece still waits for b
    expect(queue.size).toBe(1);
    const c = gate(log, 'c');
    const third = queue.run('GE1', c.work);
    await tick();
    expect(log).not.toContain('c start');
    b.open();
    c.open();
    await expect(second).resolves.toBe('b');
    await expect(third).resolves.toBe('c');
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
    expect(queue.size).toBe(0);
  });

  test('a failure is its caller\'s, and what was queued after it still runs; the key is forgotten', async () => {
    const queue = new OrderQueue();
    const log: string[] = [];
    const a = gate(log, 'a', true);
    const b = gate(log, 'b');
    const first = queue.run('GE1', a.work);
    const second = queue.run('GE1', b.work);
    a.open();
    b.open();
    await expect(first).rejects.toThrow('a failed');
    await expect(second).resolves.toBe('b');
    expect(queue.size).toBe(0);
    // a failure alone is forgotten too
    await expect(queue.run('GE2', async () => { throw new Error('no'); })).rejects.toThrow('no');
    expect(queue.size).toBe(0);
  });

  test('another order does not wait', async () => {
    const queue = new OrderQueue();
    const log: string[] = [];
    const a = gate(log, 'a');
    const first = queue.run('GE1', a.work);
    await expect(queue.run('GE2', async () => 'other')).resolves.toBe('other');
    expect(queue.size).toBe(1);
    a.open();
    await first;
    expect(queue.size).toBe(0);
  });

  test('1,000 orders refunded one after the other leave no entry (no leak)', async () => {
    const queue = new OrderQueue();
    for (let i = 0; i < 1000; i++) await queue.run(`GE${i}`, async () => i);
    expect(queue.size).toBe(0);
  });
});
