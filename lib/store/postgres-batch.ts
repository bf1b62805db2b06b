/**
 * Statement batching for PostgresStore: the claims (and the saves) that concurrent deliveries ask
 * for while earlier ones are on their way to PostgreSQL go together, as one statement.
 *
 * Each round trip costs both sides far more than the work it carries (on a 2-core machine the
 * socket write alone was ~50 µs of the kit's CPU per statement, and PostgreSQL spends ~100 µs per
 * statement on protocol, transaction and commit). A delivery leaves after the current turn of the
 * event loop, with every other delivery of its kind read in that turn (an idle store adds no timer
 * wait, only the turn), as long as fewer than `maxInFlight` batches are under way; while that many
 * are, deliveries queue and leave together when one comes back (at most `maxBatch` a statement).
 *
 * A batch is one statement and so one transaction: its items run one after another, in the order
 * given (the store sorts them by OrderId, so two processes' batches take row locks in one order).
 * When the batch statement fails because of one item (a deadlock with another process, one bad item:
 * `perItem(err)`), nothing of it was kept, and every item is sent again on its own: each then
 * succeeds or fails exactly as it would have without batching. Any other failure (the connection,
 * a time-out, a cancel) is every item's: they all fail at once, without a second wait. A batch of
 * one is always sent as the single statement.
 */

import { setImmediate } from 'node:timers';

export interface BatchRunner<I, R> {
  /** Sends one item as its own statement. */
  one(item: I): Promise<R>;
  /** Sends several items as one statement; resolves with one result per item, in their order. */
  many(items: readonly I[]): Promise<R[]>;
}

/**
 * node:timers' own setImmediate, which fake timers (they replace the global) leave alone: batching
 * adds no wait that a test's fake clock would have to advance.
 */
const defer = setImmediate;

interface Waiting<I, R> { item: I; resolve(value: R): void; reject(err: unknown): void }

export class StatementBatcher<I, R> {
  private queue: Array<Waiting<I, R>> = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly runner: BatchRunner<I, R>,
    private readonly maxInFlight: number,
    private readonly maxBatch: number,
    private readonly order?: (a: I, b: I) => number,
    private readonly perItem: (err: unknown) => boolean = () => true,
  ) {}

  push(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /**
   * What waits leaves after the current turn of the event loop (so the deliveries read in that turn
   * go together) while fewer than maxInFlight batches are under way, else when one comes back.
   */
  private schedule(): void {
    if (this.scheduled || this.queue.length === 0 || this.inFlight >= this.maxInFlight) return;
    this.scheduled = true;
    defer(() => {
      this.scheduled = false;
      while (this.queue.length > 0 && this.inFlight < this.maxInFlight) this.send(this.queue.splice(0, this.maxBatch));
    });
  }

  private send(batch: Array<Waiting<I, R>>): void {
    this.inFlight++;
    const done = () => {
      this.inFlight--;
      this.schedule();
    };
    if (batch.length === 1) {
      const [w] = batch;
      this.runner.one(w.item).then(w.resolve, w.reject).finally(done);
      return;
    }
    if (this.order) batch.sort((a, b) => this.order!(a.item, b.item));
    this.runner.many(batch.map((w) => w.item)).then(
      (results) => {
        if (results.length === batch.length) batch.forEach((w, i) => w.resolve(results[i]));
        else {
          // Cannot happen with the store's statements (json_agg: one result per element). The batch
          // committed, so it is not sent again; a lock it claimed stays until its lease ends.
          const err = new Error(`batch statement returned ${results.length} results for ${batch.length} items`);
          for (const w of batch) w.reject(err);
        }
        done();
      },
      (err: unknown) => {
        if (!this.perItem(err)) {
          for (const w of batch) w.reject(err);
          done();
          return;
        }
        // Nothing of the batch was kept (one transaction): each item on its own, as without batching.
        void Promise.allSettled(batch.map((w) => this.runner.one(w.item).then(w.resolve, w.reject))).then(done);
      },
    );
  }
}
