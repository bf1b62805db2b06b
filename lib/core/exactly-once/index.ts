/**
 * Exactly-once deliveries and their fulfilment holds (see docs/idempotency.md), in one vocabulary.
 * For one delivery of an entry with `exactlyOnce` (its key: `<callback>:<OrderId>:<fingerprint>`,
 * stages/key.ts):
 *
 * 1. lookup: a stored reply for the key is replayed; a payment request for an OrderId whose payment
 *    already succeeded gets that success, whatever its payload (storedAnswer, below);
 * 2. claim: otherwise the OrderId's lock is taken (waiting up to `inFlightWaitMs`, else 503 IN_FLIGHT,
 *    retryable) and the lookup repeated under it; a store with `claimOrReplay` (PostgresStore) does
 *    both in one round trip. The attempt is recorded, and what came before (`attempt`,
 *    `previousAttempt`, `previous`) and the order's hold handed to the run (AttemptFacts), whose
 *    adapter context is built with them;
 * 3. run: the hold policy's `beforeRun` (holds.ts), then the delivery's own work (deliver() passes
 *    it: the merchant-initiated lookup and the adapter); an accepted reply goes to the policy's `accepted`;
 * 4. settle: only a success is stored (declines and failures run again on a retry); a timed-out
 *    adapter is awaited under the lock; then the lock is released (settle.ts).
 *
 * The lock is held until the adapter's promise settles and its success is stored (a time-out or a
 * failing store do not release it early), at most until the lock's bound (its lease minus a margin).
 * What outlives the reply runs as a tracked background task (Background, settle.ts).
 *
 * This file is the folder's one entry (.ci/imports.mjs: nothing outside exactly-once/ imports its
 * other files): the delivery (lookup, claim, run) here; settle.ts ends the attempt (and holds the
 * store-call refusal and the background tasks every step shares); holds.ts is the hold policy;
 * merchant-action.ts what the adapter is told of the merchant's own call.
 */
import type { KitStore } from '../../store/capabilities.js';
import type { Prefetched, StoreLock, StoredRecord } from '../../store/types.js';
import type { ResponseInfo } from '../../payloads.js';
import type { ResolvedOptions } from '../options.js';
import type { AdapterOutcome, ContextFacts } from '../stages/adapter.js';
import { refused, type Answer } from '../stages/reply.js';
import type { Keyed } from '../stages/types.js';
import { createHoldPolicy, type HoldPolicy } from './holds.js';
import { accepted, Background, fromStore, prefetchedReads, retryable, Settler, storeReads, storeUnavailable, successRecord, type Reads, type RecordBase, type Settled } from './settle.js';

export { merchantInitiated } from './merchant-action.js';
export { isSuccess } from './settle.js';

/** What the attempt learnt under the lock, for the adapter's context (stages/adapter.ts builds it once, just before the adapter). */
export type AttemptFacts = Pick<ContextFacts, 'previous' | 'attempt' | 'previousAttempt' | 'fulfilmentHold'>;

/** The delivery's own work under the lock (the adapter), run once the claim is this delivery's, told what the attempt learnt. */
export type Run = (facts: AttemptFacts) => Promise<AdapterOutcome>;

/** How the work under a lock ended: the delivery's answer, and how its save settled (null: nothing was stored). */
interface Held {
  readonly answer: Answer;
  readonly settled: Settled | null;
}

/** Resolves true when `promise` settles within `ms`, false otherwise. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((r) => { timer = setTimeout(() => r(false), Math.max(0, ms)); });
  try {
    return await Promise.race([promise.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// ── Lookup: the stored answer of an exactly-once delivery, if there is one: its own reply (by key), or
// the order's earlier successful payment (a payment request, whatever its payload). A reply whose
// save is still being retried (kept in memory by the settler) counts as stored.

/** A stored reply as the answer (stages/reply.ts sends it with the replay header). */
export const replay = (record: Pick<StoredRecord, 'response'>, outcome: 'replayed' | 'payment_replayed'): Answer =>
  ({ kind: 'replayed', response: record.response, outcome });

/** What a lookup needs: where it reads, the replies kept in memory (the settler's), the hold policy (a replayed payment still places its hold). */
export interface Lookup { reads: Reads; settler: Settler; holds: HoldPolicy }

/**
 * The stored answer of this delivery, if any: its own reply, or the order's earlier successful
 * payment. A SendOrderToMerchant answered from the payment still places the fulfilment hold it announces.
 */
export async function storedAnswer(d: Keyed, { reads, settler, holds }: Lookup): Promise<Answer | null> {
  const pendingOwn = settler.unsaved.get(d.key);
  if (pendingOwn) return replay(pendingOwn, 'replayed');
  const own = await reads.record(d.key);
  if (own) return replay(own, 'replayed');
  if (!d.payment) return null;
  const paid: Pick<StoredRecord, 'hash' | 'callback' | 'response'> & { createdAt?: Date } | null =
    settler.unsavedPayments.get(d.orderId) ?? await reads.payment(d.orderId);
  if (!paid) return null;
  if (paid.hash !== d.fingerprint || paid.callback !== d.callback) {
    d.log.warn({ paidBy: paid.callback, paidAt: paid.createdAt?.toISOString() },
      'payment already succeeded for this OrderId; a payment request with a different payload got the stored success and did not reach the adapter');
  }
  await holds.replayed(d);
  return replay(paid, 'payment_replayed');
}

/**
 * For a store that looks for the stored answer in its claim (`claimOrReplay`): only what this process
 * keeps in memory (a reply whose save is being retried) is answered before it.
 */
export async function pendingAnswer(d: Keyed, lookup: Lookup): Promise<Answer | null> {
  const pendingOwn = lookup.settler.unsaved.get(d.key);
  if (pendingOwn) return replay(pendingOwn, 'replayed');
  // Rare (a store outage): read as a store without claimOrReplay would, so the key's own stored reply still comes first.
  if (d.payment && lookup.settler.unsavedPayments.has(d.orderId)) return storedAnswer(d, lookup);
  return null;
}

// ── The delivery: lookup → claim → run → settle.

export class ExactlyOnce {
  /** What outlives a reply (a late adapter awaited, a save retried, the lock's release after them). */
  readonly background = new Background();
  readonly #store: KitStore;
  readonly #orderCreation: ResolvedOptions['registry']['orderCreation'];
  readonly #inFlightWaitMs: number;
  readonly #leaseMs: number;
  /** The lock is released this long before its lease ends, so no one can take it over while it is still used. */
  readonly #margin: number;
  readonly #claims: boolean;
  readonly #holds: HoldPolicy;
  readonly #settler: Settler;
  /** Identical deliveries in flight in this process: the others wait for the first, then look up its reply. */
  readonly #running = new Map<string, Promise<void>>();

  constructor(options: ResolvedOptions) {
    const { store, inFlightWaitMs, leaseMs } = options.idempotency;
    this.#store = store;
    this.#orderCreation = options.registry.orderCreation;
    this.#inFlightWaitMs = inFlightWaitMs;
    this.#leaseMs = leaseMs;
    this.#margin = Math.min(1_000, Math.floor(leaseMs / 10));
    this.#claims = typeof store.claimOrReplay === 'function';
    this.#holds = createHoldPolicy(store);
    this.#settler = new Settler(store, this.#orderCreation, this.#holds);
  }

  /** One exactly-once delivery: lookup → claim → run → settle. */
  async deliver(d: Keyed, run: Run): Promise<Answer> {
    const deadline = Date.now() + this.#inFlightWaitMs;
    const early = await this.lookup(d);
    if (early) return early;
    const twin = this.#running.get(d.key);
    if (twin) {
      if (!(await within(twin, deadline - Date.now()))) return this.inFlight();
      const settled = await this.lookup(d);
      if (settled) return settled;
    }
    let finished = (): void => {};
    const mine = new Promise<void>((resolve) => { finished = resolve; });
    if (!this.#running.has(d.key)) this.#running.set(d.key, mine);
    try {
      return await this.claimAndRun(d, run, deadline);
    } finally {
      finished();
      if (this.#running.get(d.key) === mine) this.#running.delete(d.key);
    }
  }

  /** The stored answer before the lock; a store with claimOrReplay looks for it in the statement that claims the lock. */
  private lookup(d: Keyed): Promise<Answer | null> {
    const lookup: Lookup = { reads: storeReads(d, this.#store), settler: this.#settler, holds: this.#holds };
    return this.#claims ? pendingAnswer(d, lookup) : storedAnswer(d, lookup);
  }

  private inFlight(): Answer {
    return refused(retryable('IN_FLIGHT', `another delivery for this OrderId was still in progress after ${this.#inFlightWaitMs} ms`,
      'Another delivery for this order is still being processed; retry later'), 'in_flight');
  }

  /** Claims the OrderId lock, or the stored answer from a store that reads it in its claim; null: not within the wait. */
  private async claim(d: Keyed, deadline: number): Promise<StoreLock | Answer | null> {
    const store = this.#store;
    const waitMs = Math.max(0, deadline - Date.now());
    // A store able to (PostgresStore) reads what follows together with the lock: one round trip.
    const claim = { waitMs, leaseMs: this.#leaseMs, prefetch: { key: d.key, payment: d.payment, latestOf: this.#orderCreation, beginAttempt: true } };
    if (store.claimOrReplay === undefined) return fromStore(d.log, 'idempotency store', () => store.acquire(d.orderId, claim));
    const claimOrReplay = store.claimOrReplay.bind(store);
    const claimed = await fromStore(d.log, 'idempotency store', () => claimOrReplay(d.orderId, claim));
    if (!claimed?.stored) return claimed?.lock ?? null;
    const stored = await storedAnswer(d, { reads: prefetchedReads(claimed.stored), settler: this.#settler, holds: this.#holds });
    if (stored) return stored;
    d.log.error({}, 'idempotency store answered a claim with an empty stored answer');
    throw storeUnavailable('idempotency store');
  }

  /** Claims the lock and runs the attempt under it; the stored answer (or 503 IN_FLIGHT) when the claim gives no lock. */
  private async claimAndRun(d: Keyed, run: Run, deadline: number): Promise<Answer> {
    const claimed = await this.claim(d, deadline);
    if (!claimed) return this.inFlight();
    if (!('release' in claimed)) return claimed;
    return this.underLock(d, claimed, run);
  }

  /**
   * Holds `lock` while the attempt runs and releases it in one place, the `finally` below, on every
   * path (but when the store released it with the save: Settled `released`). The attempt answers by
   * returning (the answer goes out once the lock is released), or early through `answerNow` while it
   * keeps the lock (a late adapter awaited, a save retried): its rest is then a tracked background
   * task, bounded by the lock's bound. What it throws before answering is the delivery's, rethrown
   * after the release.
   */
  private underLock(d: Keyed, lock: StoreLock, run: Run): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      let early = false;
      let task: Promise<void> | undefined;
      const answerNow = (answer: Answer): void => {
        early = true;
        resolve(answer);
        if (task) this.background.track(task);
      };
      task = (async () => {
        let held: Held | undefined;
        let thrown: { err: unknown } | undefined;
        try {
          held = await this.attempt(d, lock, run, answerNow);
        } catch (err) {
          thrown = { err };
        } finally {
          if (held?.settled?.kind !== 'released') await this.#settler.release(d, lock);
        }
        if (early) return; // background work logs its own failures
        if (thrown) reject(thrown.err);
        else resolve(held!.answer);
      })();
      if (early) this.background.track(task);
    });
  }

  /** Under the lock: the stored answer if any, else the attempt begins, runs and settles. */
  private async attempt(d: Keyed, lock: StoreLock, run: Run, answerNow: (answer: Answer) => void): Promise<Held> {
    const bound = Date.now() + this.#leaseMs - this.#margin;
    const pre = lock.prefetched;
    if (lock.recovered) d.log.warn({}, 'the lease of an in-progress delivery for this OrderId expired (crash or stall); running again');
    const stored = await storedAnswer(d, { reads: pre ? prefetchedReads(pre) : storeReads(d, this.#store), settler: this.#settler, holds: this.#holds });
    if (stored) return { answer: stored, settled: null };
    const begun = await this.beginAttempt(d, pre);
    const outcome = await this.runAttempt(d, run, begun, pre);
    return this.settle(d, outcome, lock, bound, answerNow);
  }

  /** What the adapter is told of what came before: the created order's reply, the attempt number, an attempt that ended unknown. */
  private async beginAttempt(d: Keyed, pre: Prefetched | undefined): Promise<AttemptFacts> {
    const store = this.#store;
    const previous = pre ? pre.latest : await fromStore(d.log, 'idempotency store', () => store.getLatestRecord(d.orderId, this.#orderCreation));
    const start = pre?.attempt ?? await fromStore(d.log, 'idempotency store', () => store.beginAttempt(d.key, d.orderId));
    // start null: the store counts no attempts (docs/stores.md)
    const facts: AttemptFacts = { previous: previous?.response, attempt: start?.attempt, previousAttempt: start?.previousAttempt };
    if (start?.previousAttempt) {
      d.log.warn({ attempt: start.attempt, previousOutcome: start.previousAttempt.outcome },
        'the previous attempt for this delivery ended without a known result; the adapter is told (context.previousAttempt)');
    }
    return facts;
  }

  /** The hold policy around the delivery's work; a failure ends the attempt (recorded) and is rethrown. */
  private async runAttempt(d: Keyed, run: Run, begun: AttemptFacts, pre: Prefetched | undefined): Promise<AdapterOutcome> {
    try {
      const hold = await this.#holds.beforeRun(d, pre?.hold);
      const outcome = await run({ previous: begun.previous, attempt: begun.attempt, previousAttempt: begun.previousAttempt, fulfilmentHold: hold ?? undefined });
      if (accepted(outcome)) await this.#holds.accepted(d);
      return outcome;
    } catch (err) {
      await this.#settler.end(d, d.key, null);
      throw err;
    }
  }

  /**
   * After the adapter: a success is stored (Settled, settle.ts) or kept, its save retried after the
   * answer; a timed-out adapter is awaited after the answer; anything else ends the attempt.
   */
  private async settle(d: Keyed, outcome: AdapterOutcome, lock: StoreLock, bound: number, answerNow: (answer: Answer) => void): Promise<Held> {
    const settler = this.#settler;
    const base: RecordBase = { key: d.key, callback: d.callback, orderId: d.orderId, hash: d.fingerprint, payment: d.payment };
    if (accepted(outcome)) {
      // Card numbers in reply texts were masked when the reply was built (stages/adapter.ts).
      const record = successRecord(base, outcome.body as ResponseInfo);
      const saved = await settler.save(d, record, lock);
      switch (saved.kind) {
        case 'failed': {
          const saving = settler.keepSaving(d, record, lock, bound);
          answerNow(outcome);
          return { answer: outcome, settled: await saving };
        }
        // The lease was lost before the save (a stall): the stored reply, another attempt's, is the order's.
        case 'replayed': return { answer: replay(saved.winner, 'replayed'), settled: saved };
        case 'lost': throw storeUnavailable('idempotency store');
        default: return { answer: outcome, settled: saved };
      }
    }
    if (outcome.kind === 'timed-out') {
      await settler.end(d, d.key, 'timeout');
      const awaiting = settler.awaitLate(d, base, outcome.late, lock, bound);
      answerNow(outcome);
      return { answer: outcome, settled: await awaiting };
    }
    await settler.end(d, d.key, outcome.kind === 'invalid-result' ? 'invalid-result' : null);
    return { answer: outcome, settled: null };
  }
}
