/**
 * PostgresStore's OrderId lock: a lease row claimed with one atomic statement (no read-then-write),
 * polled with back-off while someone else holds it. No connection is held while the adapter runs,
 * so waiting deliveries cannot exhaust the pool. Within one process, waiters queue on an in-memory
 * chain first, so only one of them polls.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { storeKeyPart } from '../json/canonical.js';
import { isLeaseLost, LeaseLostError } from './store-errors.js';
import type { KeyedMutex } from './mutex.js';
import { prefetchedOf, prefetchedOfClaim, storedAnswerOf } from './postgres-rows.js';
import type { StatementName } from './postgres-sql.js';
import type { AcquireOptions, Claim, ClaimOptions, Prefetched, StoredAnswer, StoreLock } from './types.js';

/**
 * One delivery's claim, as the claim statements take it (one-letter names: the batch statement
 * reads them from a JSON array): OrderId, owner, lease ms, key, payment wanted, latest-of
 * callback, begin the attempt, ttl ms, the statement's bound and lock time-out in ms (0: none).
 */
export interface ClaimItem { o: string; w: string; l: number; k: string; p: boolean; c: string; b: boolean; t: number; x: number; y: number }
/**
 * One save-and-release: key, callback, OrderId, hash, response, payment, ttl ms, merchant ids,
 * owner, the statement's bound (the lease's remaining time, at most the statement time-out) and
 * lock time-out in ms.
 */
export interface SaveItem { k: string; c: string; o: string; h: string; r: unknown; p: boolean; t: number; i: string[]; w: string; x: number; y: number }

export const claimValues = (i: ClaimItem): unknown[] => [i.o, i.w, i.l, i.k, i.p, i.c, i.b, i.t, i.x, i.y];
export const saveValues = (i: SaveItem): unknown[] => [i.k, i.c, i.o, i.h, JSON.stringify(i.r), i.p, i.t, i.i, i.w, i.x, i.y];
/** Batches run in OrderId order, so two processes' batches take the lock rows in one order. */
export const byOrderId = (a: { o: string }, b: { o: string }): number => (a.o < b.o ? -1 : a.o > b.o ? 1 : 0);

/** What the lock needs of its store. */
export interface Locking {
  /** A statement; `late`: called with its rows when it runs after the client gave up on it (its time limit). */
  query(name: StatementName, values: unknown[], late?: (rows: Record<string, any>[]) => void): Promise<Record<string, any>[]>;
  /** The claim statement's JSON result (alone or in a batch). */
  claim(item: ClaimItem): Promise<Record<string, any> | undefined>;
  /** Stores a reply and releases the lock (alone or in a batch). */
  save(item: SaveItem): Promise<unknown>;
  readonly mutex: KeyedMutex;
  ttlMs: number;
  /** The statement bound and lock time-out of the store, in ms (0: none). */
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  /** First attempts that live in their lock row (no attempts row yet): key -> OrderId, while the lock is held. */
  readonly firstAttempts: Map<string, string>;
  /** Called after a reply was stored (the store's purge, now and then). */
  afterSave(): void;
}

/** One claim statement's outcome: the lock claimed, or a stored answer found (null: the lock is held elsewhere). */
type ClaimTry = { stored: StoredAnswer } | { recovered: boolean; prefetched?: Prefetched; key?: string };


export async function acquireLock(ctx: Locking, orderId: string, options: AcquireOptions): Promise<StoreLock | null> {
  const want = options.prefetch;
  const claim = await claimLoop(ctx, orderId, options, async (owner) => {
    // A claim that runs after it was given up on releases what it claimed.
    const late = (rows: Record<string, any>[]) => {
      if (rows[0] && (!want || rows[0].claimed)) ctx.query('release', [orderId, owner]).catch(() => { /* free again when its lease ends */ });
    };
    const row = want
      ? (await ctx.query('claimAndRead', [orderId, owner, options.leaseMs, want.key, want.payment, want.latestOf, want.beginAttempt, ctx.ttlMs], late))[0]
      : (await ctx.query('acquire', [orderId, owner, options.leaseMs, ctx.ttlMs], late))[0];
    if (!row || (want && !row.claimed)) return null;
    return { recovered: Boolean(row.recovered), prefetched: want && row.current ? prefetchedOf(orderId, row) : undefined };
  });
  return claim?.lock ?? null;
}

/**
 * The delivery's stored answer (then no lock is taken) or its OrderId's lock, in one statement.
 * A delivery never waits for a lock before it looked for its answer: while another delivery of
 * this process holds (or waits for) the OrderId, the answer is looked up first.
 */
export async function claimOrReplay(ctx: Locking, orderId: string, options: ClaimOptions): Promise<Claim | null> {
  const want = options.prefetch;
  if (ctx.mutex.busy(orderId)) {
    const stored = storedAnswerOf((await ctx.query('lookup', [orderId, want.key, want.payment]))[0]);
    if (stored) return { stored };
  }
  return claimLoop(ctx, orderId, options, async (owner) => {
    const r = await ctx.claim({
      o: orderId, w: owner, l: options.leaseMs, k: want.key, p: want.payment, c: want.latestOf, b: want.beginAttempt, t: ctx.ttlMs,
      x: ctx.statementTimeoutMs, y: ctx.lockTimeoutMs,
    });
    const stored = storedAnswerOf(r);
    if (stored) return { stored };
    if (!r?.claimed) return null;
    if (r.in_lock) ctx.firstAttempts.set(want.key, orderId);
    return { recovered: Boolean(r.recovered), prefetched: r.current ? prefetchedOfClaim(orderId, r) : undefined, key: want.key };
  });
}

/** First pause between two claim statements of a waiting delivery, in ms; doubled after each to MAX_POLL_DELAY_MS. */
export const FIRST_POLL_DELAY_MS = 5;
export const MAX_POLL_DELAY_MS = 400;

/**
 * How long a waiting delivery sleeps before its next claim statement: between `delay` and twice
 * `delay` (jitter, so waiters of one OrderId do not poll in step), never past its deadline (`left`).
 * This is what bounds the database load of a wait: at most one statement per `delay` ms.
 */
export function pollPause(delay: number, left: number, random: number = Math.random()): number {
  return Math.min(left, delay + random * delay);
}

/** The next pause's base: doubled, at most MAX_POLL_DELAY_MS. */
export function nextPollDelay(delay: number): number {
  return Math.min(delay * 2, MAX_POLL_DELAY_MS);
}

/**
 * Takes the in-process lock of the OrderId, then runs `once` (a claim statement) until it claims
 * the database lock, finds a stored answer, or `waitMs` passed; polls with back-off meanwhile.
 */
async function claimLoop(ctx: Locking, orderId: string, options: AcquireOptions, once: (owner: string) => Promise<ClaimTry | null>): Promise<Claim | null> {
  const deadline = Date.now() + options.waitMs;
  const local = await ctx.mutex.acquire(orderId, options.waitMs, options.leaseMs);
  if (!local) return null;
  const owner = randomUUID();
  let delay = FIRST_POLL_DELAY_MS;
  try {
    for (;;) {
      // The lease ends at the latest leaseMs after the claim was sent (PostgreSQL counts from later).
      const leaseEnds = Date.now() + options.leaseMs;
      const got = await once(owner);
      if (got && 'stored' in got) {
        local.release();
        return got;
      }
      if (got) return { lock: lockOf(ctx, { orderId, owner, leaseEnds }, got.recovered || local.recovered, local.release, got.prefetched, got.key) };
      const left = deadline - Date.now();
      if (left <= 0) {
        local.release();
        return null;
      }
      await sleep(pollPause(delay, left));
      delay = nextPollDelay(delay);
    }
  } catch (err) {
    local.release();
    throw err;
  }
}

/**
 * A save's bound: what is left of the lease (at most the statement time-out). A save is never sent
 * once its lease may have ended: it could only be refused.
 */
export function saveBound(ctx: Pick<Locking, 'statementTimeoutMs'>, leaseEnds: number, now = Date.now()): number {
  const left = leaseEnds - now;
  if (left <= 0) throw new LeaseLostError('the lease of this attempt ended before its reply could be stored; nothing was stored');
  return ctx.statementTimeoutMs > 0 ? Math.min(ctx.statementTimeoutMs, left) : left;
}

/** `key`: the delivery whose attempt may live in the lock row (forgotten with the lock). */
function lockOf(ctx: Locking, lease: { orderId: string; owner: string; leaseEnds: number }, recovered: boolean, releaseLocal: () => void, prefetched?: Prefetched, key?: string): StoreLock {
  const { orderId, owner } = lease;
  let done = false;
  const ended = () => {
    if (key !== undefined && ctx.firstAttempts.get(key) === orderId) ctx.firstAttempts.delete(key);
    releaseLocal();
  };
  const once = async (work: () => Promise<unknown>) => {
    if (done) return;
    await work();
    done = true;
    ended();
  };
  return {
    recovered,
    ...(prefetched ? { prefetched } : {}),
    release: async () => {
      if (done) return;
      done = true;
      try {
        await ctx.query('release', [orderId, owner]);
      } finally {
        ended();
      }
    },
    saveAndRelease: (record, merchantOrderIds) => once(async () => {
      try {
        await ctx.save({
          k: record.key, c: record.callback, o: record.orderId, h: record.hash, r: record.response, p: record.payment, t: ctx.ttlMs,
          i: merchantOrderIds.map(storeKeyPart), w: owner, x: saveBound(ctx, lease.leaseEnds), y: ctx.lockTimeoutMs,
        });
      } catch (err) {
        // A save that failed once its lease may have ended (cancelled at its bound): the lease is lost.
        // (Had it committed meanwhile, it did within the lease: the caller finds its reply stored.)
        if (!isLeaseLost(err) && Date.now() >= lease.leaseEnds) throw new LeaseLostError();
        throw err;
      }
      ctx.afterSave();
    }),
  };
}
