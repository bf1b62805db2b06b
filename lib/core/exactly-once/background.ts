/**
 * Work of the exactly-once module that goes on after the reply was sent: an adapter that timed out
 * is awaited under the OrderId lock (its late success stored), a success whose save failed is
 * retried, then the lock is released. Each such task is bounded by the lock's bound (its lease minus
 * a margin, settle.ts): it ends by then whatever the adapter or the store do. The kit tracks them:
 * `kit.idle()` resolves once every task started so far has ended (tests; a graceful shutdown).
 */
export class Background {
  readonly #running = new Set<Promise<void>>();

  /** Tracks a task until it ends (its failure is the task's own to log: it never rejects here). */
  track(task: Promise<void>): void {
    const tracked = task.catch(() => { /* each task logs its own failures */ }).finally(() => this.#running.delete(tracked));
    this.#running.add(tracked);
  }

  /** How many tasks are running. */
  get size(): number {
    return this.#running.size;
  }

  /**
   * Resolves once every task (also those the running ones start) has ended. The tasks' own timers
   * (a save's back-off, a late adapter's bound) do not keep Node running, so an idle server or a
   * Lambda invocation is not held; while a caller awaits this, a timer does, so a script awaiting
   * `kit.idle()` sees the tasks end rather than exit with the promise pending.
   */
  async idle(): Promise<void> {
    if (this.#running.size === 0) return;
    const keepAlive = setInterval(() => { /* only keeps the event loop running */ }, 60_000);
    try {
      while (this.#running.size > 0) await Promise.all(this.#running);
    } finally {
      clearInterval(keepAlive);
    }
  }
}
