/**
 * In-process per-key lock: a promise chain per key. A waiter gives up after `waitMs` (its place in
 * the chain is released at once, so later waiters are not held up), and a holder that never
 * releases is released after `leaseMs`.
 */
export type Release = () => void;
export interface Held { release: Release; /** The previous holder was released by its lease, not by itself. */ recovered: boolean }


export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly expired = new Set<string>();

  /** Number of keys with a holder or waiters (for tests and metrics). */
  get size(): number {
    return this.tails.size;
  }

  /** True while the key has a holder or waiters. */
  busy(key: string): boolean {
    return this.tails.has(key);
  }

  async acquire(key: string, waitMs: number, leaseMs: number): Promise<Held | null> {
    const queued = this.tails.get(key);
    let resolveMine = (): void => {};
    const mine = new Promise<void>((r) => { resolveMine = r; });
    // A free key: this holder is the whole chain (no settled predecessor to chain onto).
    const tail = queued ? queued.then(() => mine) : mine;
    this.tails.set(key, tail);
    void tail.then(() => { if (this.tails.get(key) === tail) this.tails.delete(key); });

    let released = false;
    let leaseTimer: NodeJS.Timeout | undefined;
    /** This holder's release: idempotent, stops its lease timer. */
    const release: Release = () => {
      if (released) return;
      released = true;
      clearTimeout(leaseTimer);
      resolveMine();
    };

    // A free key is taken at once: no wait timer, no race (the common, uncontended case).
    if (queued) {
      let waitTimer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<false>((resolve) => { waitTimer = setTimeout(() => resolve(false), Math.max(0, waitMs)); });
      const got = await Promise.race([queued.then(() => true as const), timedOut]);
      clearTimeout(waitTimer);
      if (!got) {
        release();
        return null;
      }
    }
    const recovered = this.expired.delete(key);
    leaseTimer = setTimeout(() => {
      if (!released) this.expired.add(key);
      release();
    }, leaseMs);
    leaseTimer.unref?.();
    return { release, recovered };
  }
}
