/**
 * Exactly-once callbacks (see docs/idempotency.md). Per delivery of an order callback or of the
 * documents webhook (cart-info is a read and passes through):
 * 1. key = `<callback>:<OrderId>:<sha256 of the canonical payload>`, given to the adapter as
 *    `context.idempotencyKey`;
 * 2. a stored reply for the key is replayed; a payment request for an OrderId whose payment already
 *    succeeded gets that success, whatever its payload (a differing payload is logged as a warning);
 * 3. otherwise the OrderId's lock is taken (waiting up to `inFlightWaitMs`, else 503 IN_FLIGHT,
 *    retryable), step 2 is repeated under it, the attempt is recorded (`context.attempt`,
 *    `context.previousAttempt`) and the adapter runs with `context.previous`; a store with
 *    `claimOrReplay` (PostgresStore) does 2 and 3 in one round trip, answering a stored reply
 *    without taking or waiting for the lock;
 * 4. only a successful reply is stored: declines and failures run again on a retry;
 * 5. the lock is held until the adapter's promise settles and its success is stored (a time-out or
 *    a failing store do not release it early), at most until the lease's bound (attempt-finish.ts).
 */
import { PipelineFailure, type WireErrorCode } from '../../shared/errors.js';
import type { ResponseInfo } from '../../payloads.js';
import { idempotencyKey } from '../../json/canonical.js';
import type { KitStore } from '../../store/capabilities.js';
import type { NewRecord, Prefetched, StoreLock, StoredRecord } from '../../store/types.js';
import type { Next, PipelineState, StepFactory, StepReply } from '../state.js';
import { storeCall } from '../delivery/store-call.js';
import { createAttemptFinisher, isSuccess, type AttemptFinisher } from '../delivery/attempt-finish.js';
import { placeAnnouncedHold } from './holds.js';
import { refusal } from './respond.js';
import { paymentExpected } from './response-info.js';

export const RETRY_AFTER_SECONDS = '5';
export const REPLAY_HEADER = 'idempotency-replayed';

const retryable = (errorCode: WireErrorCode, reason: string, description: string) =>
  new PipelineFailure(errorCode, reason, description, { 'retry-after': RETRY_AFTER_SECONDS });

const storeUnavailable = () => retryable('STORE_UNAVAILABLE', 'idempotency store failed', 'The order store is unavailable; retry later');

function storeFailed(state: PipelineState, err: unknown): never {
  state.log.error({ err }, 'idempotency store failed');
  throw storeUnavailable();
}

/** A store call whose failure (rejected or thrown) is logged and answered 503, retryable (delivery/store-call.ts). */
const fromStore = <T>(state: PipelineState, work: () => Promise<T>): Promise<T> => storeCall(state, work, storeFailed);

const replay = (record: Pick<StoredRecord, 'response'>, outcome: string): StepReply =>
  ({ status: 200, headers: { [REPLAY_HEADER]: 'true' }, body: record.response, outcome });

/** Where storedAnswer reads: the store, or what the store read together with the lock. */
interface Reads {
  record(key: string): Promise<StoredRecord | null>;
  payment(orderId: string): Promise<StoredRecord | null>;
}

/** Reads from the store (classes, not object literals of closures: nothing is named per delivery). */
class StoreReads implements Reads {
  constructor(private readonly state: PipelineState, private readonly store: KitStore) {}
  record(key: string): Promise<StoredRecord | null> {
    return fromStore(this.state, () => this.store.getRecord(key));
  }

  payment(orderId: string): Promise<StoredRecord | null> {
    return fromStore(this.state, () => this.store.getPayment(orderId));
  }
}

class PrefetchedReads implements Reads {
  constructor(private readonly prefetched: Pick<Prefetched, 'record' | 'payment'>) {}
  async record(): Promise<StoredRecord | null> {
    return this.prefetched.record;
  }

  async payment(): Promise<StoredRecord | null> {
    return this.prefetched.payment;
  }
}

const readsOf = (state: PipelineState, store: KitStore): Reads => new StoreReads(state, store);
const readsFrom = (prefetched: Pick<Prefetched, 'record' | 'payment'>): Reads => new PrefetchedReads(prefetched);

/**
 * The stored answer of this delivery, if any: its own reply, or the order's earlier successful
 * payment (a reply whose save is still being retried counts). A SendOrderToMerchant answered from
 * the payment still places the fulfilment hold it announces.
 */
async function storedAnswer(state: PipelineState, store: KitStore, reads: Reads, finisher: AttemptFinisher, key: string, hash: string, payment: boolean): Promise<StepReply | null> {
  const pendingOwn = finisher.unsaved.get(key);
  if (pendingOwn) return replay(pendingOwn, 'replayed');
  const own = await reads.record(key);
  if (own) return replay(own, 'replayed');
  if (!payment) return null;
  const paid: Pick<StoredRecord, 'hash' | 'callback' | 'response'> & { createdAt?: Date } | null =
    finisher.unsavedPayments.get(state.orderId!) ?? await reads.payment(state.orderId!);
  if (!paid) return null;
  if (paid.hash !== hash || paid.callback !== state.callback) {
    state.log.warn({ paidBy: paid.callback, paidAt: paid.createdAt?.toISOString() },
      'payment already succeeded for this OrderId; a payment request with a different payload got the stored success and did not reach the adapter');
  }
  await placeAnnouncedHold(state, store);
  return replay(paid, 'payment_replayed');
}

/**
 * For a store that looks for the stored answer in its claim (`claimOrReplay`): only what this process
 * keeps in memory (a reply whose save is being retried) is answered before it.
 */
async function pendingAnswer(state: PipelineState, store: KitStore, finisher: AttemptFinisher, key: string, hash: string, payment: boolean): Promise<StepReply | null> {
  const pendingOwn = finisher.unsaved.get(key);
  if (pendingOwn) return replay(pendingOwn, 'replayed');
  // Rare (a store outage): read as a store without claimOrReplay would, so the key's own stored reply still comes first.
  if (payment && finisher.unsavedPayments.has(state.orderId!)) return storedAnswer(state, store, readsOf(state, store), finisher, key, hash, payment);
  return null;
}

const inFlight = (state: PipelineState, waitedMs: number): StepReply => refusal(state,
  retryable('IN_FLIGHT', `another delivery for this OrderId was still in progress after ${waitedMs} ms`,
    'Another delivery for this order is still being processed; retry later'),
  'in_flight');

/** Resolves true when `promise` settles within `ms`, false otherwise. */
function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((r) => { timer = setTimeout(() => r(false), Math.max(0, ms)); });
  return Promise.race([promise.then(() => true, () => true), timeout]).finally(() => clearTimeout(timer));
}

export const idempotencyStep: StepFactory = (options) => {
  const { store, inFlightWaitMs, leaseMs } = options.idempotency;
  const orderCreation = options.registry.orderCreation;
  const finisher = createAttemptFinisher(store, orderCreation);
  // The lock is released this long before its lease ends, so no one can take it over while it is still used.
  const margin = Math.min(1_000, Math.floor(leaseMs / 10));
  // Identical deliveries in flight in this process: the others wait for the first, then read its reply.
  const running = new Map<string, Promise<void>>();
  const claims = typeof store.claimOrReplay === 'function';

  return async (state, next) => {
    const hash = state.fingerprint;
    const orderId = state.orderId;
    // Fail closed: this step is only in exactly-once chains, whose parse step refuses a delivery without an id.
    if (hash === undefined || orderId === undefined) throw new Error(`exactly-once ${state.callback} reached idempotency without an OrderId or fingerprint`);
    const key = idempotencyKey(state.callback, orderId, hash);
    state.context.idempotencyKey = key;
    const delivery: Delivery = { state, key, hash, payment: paymentExpected(state), deadline: Date.now() + inFlightWaitMs };

    const early = await answer(delivery);
    if (early) return early;
    const twin = running.get(key);
    if (twin) {
      if (!(await within(twin, delivery.deadline - Date.now()))) return inFlight(state, inFlightWaitMs);
      const settled = await answer(delivery);
      if (settled) return settled;
    }

    let finished!: () => void;
    const mine = new Promise<void>((r) => { finished = r; });
    if (!running.has(key)) running.set(key, mine);
    try {
      return await underLock(delivery, next);
    } finally {
      finished();
      if (running.get(key) === mine) running.delete(key);
    }
  };

  /** The stored answer before the lock; a store with claimOrReplay (PostgresStore) looks for it in the statement that claims the lock. */
  function answer({ state, key, hash, payment }: Delivery): Promise<StepReply | null> {
    return claims ? pendingAnswer(state, store, finisher, key, hash, payment)
      : storedAnswer(state, store, readsOf(state, store), finisher, key, hash, payment);
  }

  /** Claims the OrderId lock (or the stored answer, from a store that reads it in its claim). */
  async function claim({ state, key, payment, deadline }: Delivery): Promise<StoreLock | StepReply | null> {
    const orderId = state.orderId!;
    const waitMs = Math.max(0, deadline - Date.now());
    // A store able to (PostgresStore) reads what follows together with the lock: one round trip.
    const prefetch = { key, payment, latestOf: orderCreation, beginAttempt: true };
    if (!claims) return fromStore(state, () => store.acquire(orderId, { waitMs, leaseMs, prefetch }));
    const claimed = await fromStore(state, () => store.claimOrReplay!(orderId, { waitMs, leaseMs, prefetch }));
    if (!claimed?.stored) return claimed?.lock ?? null;
    const stored = await storedAnswer(state, store, readsFrom(claimed.stored), finisher, key, state.fingerprint!, payment);
    if (stored) return stored;
    state.log.error({}, 'idempotency store answered a claim with an empty stored answer');
    throw storeUnavailable();
  }

  /** Under the lock: the stored answer if any, else the attempt is recorded and the adapter runs. */
  async function underLock(delivery: Delivery, next: Next): Promise<StepReply> {
    const { state, key, hash, payment } = delivery;
    const claimed = await claim(delivery);
    if (!claimed) return inFlight(state, inFlightWaitMs);
    if (!('release' in claimed)) return claimed;
    const lock = claimed;
    // The lock's bound: its lease from now, minus the margin.
    const bound = Date.now() + leaseMs - margin;
    const pre = lock.prefetched;
    if (lock.recovered) state.log.warn({}, 'the lease of an in-progress delivery for this OrderId expired (crash or stall); running again');
    // Past the reply, the lock may stay held (a timed-out adapter, a reply still to be stored).
    let handedOver = false;
    try {
      if (pre) state.prefetchedHold = pre.hold;
      const stored = await storedAnswer(state, store, pre ? readsFrom(pre) : readsOf(state, store), finisher, key, hash, payment);
      if (stored) return stored;
      await beginAttempt(state, key, pre);
      let res: StepReply;
      try {
        res = await next();
      } catch (err) {
        await finisher.end(state, key, null);
        throw err;
      }
      const ending = finish(delivery, res, lock, bound);
      handedOver = ending.handedOver;
      return await ending.reply;
    } finally {
      if (!handedOver) await finisher.release(state, lock);
    }
  }

  /** Tells the adapter what came before: the created order's reply, the attempt number, an attempt that ended unknown. */
  async function beginAttempt(state: PipelineState, key: string, pre: Prefetched | undefined): Promise<void> {
    const orderId = state.orderId!;
    const previous = pre ? pre.latest : await fromStore(state, () => store.getLatestRecord(orderId, orderCreation));
    if (previous) state.context.previous = previous.response;
    const start = pre?.attempt ?? await fromStore(state, () => store.beginAttempt(key, orderId));
    if (start) state.context.attempt = start.attempt; // null: the store counts no attempts (docs/stores.md)
    if (start?.previousAttempt) {
      state.context.previousAttempt = start.previousAttempt;
      state.log.warn({ attempt: start.attempt, previousOutcome: start.previousAttempt.outcome },
        'the previous attempt for this delivery ended without a known result; the adapter is told (context.previousAttempt)');
    }
  }

  /**
   * After the adapter's reply: a success is stored (or kept and retried), a timed-out adapter is
   * awaited under the lock, anything else ends the attempt. `handedOver`: the lock is released later.
   */
  function finish({ state, key, hash, payment }: Delivery, res: StepReply, lock: StoreLock, bound: number): { reply: Promise<StepReply> | StepReply; handedOver: boolean } {
    const base = { key, callback: state.callback, orderId: state.orderId!, hash, payment };
    if (isSuccess(res)) {
      // Card numbers in reply texts were masked when the reply was built (response-info step).
      const record: NewRecord = { ...base, response: res.body as ResponseInfo };
      return { handedOver: true, reply: finisher.saveNow(state, record, lock).then(async (saved) => {
        if (saved === true) await finisher.release(state, lock);
        else if (typeof saved === 'object') {
          // The lease was lost before the save (a stall): the stored reply, another attempt's, is the order's.
          await finisher.release(state, lock);
          if (saved.lost.winner) return replay(saved.lost.winner, 'replayed');
          throw storeUnavailable();
        } else if (!saved) void finisher.keepSaving(state, record, lock, bound);
        return { ...res, body: record.response };
      }) };
    }
    if (res.late) {
      const late = res.late;
      return { handedOver: true, reply: finisher.end(state, key, 'timeout').then(() => {
        void finisher.awaitLate(state, base, late, lock, bound);
        return res;
      }) };
    }
    return { handedOver: false, reply: finisher.end(state, key, res.invalidResult ? 'invalid-result' : null).then(() => res) };
  }
};

/** One exactly-once delivery as the idempotency step sees it. */
interface Delivery { state: PipelineState; key: string; hash: string; payment: boolean; deadline: number }
