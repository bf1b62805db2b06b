/**
 * Work on one order, one piece at a time: the client's refunds of an order run in turn, so the
 * refund guard's sum of accepted refunds stays true under concurrency. A key is forgotten as soon as
 * its last piece of work settles: a long-running client keeps no entry per order it ever refunded.
 */
export class OrderQueue {
  readonly #tails = new Map<string, Promise<unknown>>();

  /** How many orders have work queued or running (0 once everything settled). */
  get size(): number {
    return this.#tails.size;
  }

  /** Runs `work` after the work queued before it for `key` settled (fulfilled or rejected); settles as `work`. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(key) ?? Promise.resolve();
    const mine = before.then(work, work);
    const tail = mine.catch(() => undefined);
    this.#tails.set(key, tail);
    try {
      return await mine;
    } finally {
      // Only the last piece of work forgets the key: one queued after it keeps its own tail.
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}
