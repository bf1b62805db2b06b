/**
 * Exactly-once callbacks (see docs/idempotency.md). Per delivery of an order callback or of the
 * documents webhook (cart-info is a read and passes through):
 * 1. key = `<callback>:<OrderId>:<sha256 of the canonical payload>`, given to the adapter as
 *    `context.idempotencyKey`;
 * 2. a stored reply for the key is replayed; a payment request for an OrderId whose payment already
 *    succeeded gets that success, whatever its payload (a differing payload is logged as a warning);
 * 3. otherwise the OrderId's lock is taken (waiting up to `inFlightWaitMs`, else 503 IN_FLIGHT,
 *    retryable), step 2 is repeated under it, and the adapter runs with `context.previous`;
 * 4. only a successful reply is stored: declines and failures run again on a retry.
 */
import { PipelineFailure, type WireErrorCode } from '../../shared/errors.js';
import type { ResponseInfo } from '../../payloads.js';
import { idempotencyKey } from '../../store/canonical.js';
import { idempotencySettings } from '../../store/options.js';
import type { Store, StoredRecord } from '../../store/types.js';
import type { PipelineState, StepFactory } from '../state.js';
import type { CallbackResponse } from '../types.js';
import { fingerprintOf } from './fingerprint.js';
import { paymentExpected } from './response-info.js';

export const RETRY_AFTER_SECONDS = '5';
export const REPLAY_HEADER = 'idempotency-replayed';

const retryable = (errorCode: WireErrorCode, reason: string, description: string) =>
  new PipelineFailure(errorCode, reason, description, { 'retry-after': RETRY_AFTER_SECONDS });

async function fromStore<T>(state: PipelineState, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    state.log.error({ err }, 'idempotency store failed');
    throw retryable('STORE_UNAVAILABLE', 'idempotency store failed', 'The order store is unavailable; retry later');
  }
}

function replay(state: PipelineState, record: StoredRecord, outcome: string): CallbackResponse {
  state.outcome = outcome;
  return { status: 200, headers: { [REPLAY_HEADER]: 'true' }, body: record.response };
}

/** The stored answer of this delivery, if any: its own reply, or the order's earlier successful payment. */
async function storedAnswer(state: PipelineState, store: Store, key: string, hash: string, payment: boolean): Promise<CallbackResponse | null> {
  const own = await fromStore(state, () => store.getRecord(key));
  if (own) return replay(state, own, 'replayed');
  if (!payment) return null;
  const paid = await fromStore(state, () => store.getPayment(state.orderId!));
  if (!paid) return null;
  if (paid.hash !== hash || paid.callback !== state.callback) {
    state.log.warn({ paidBy: paid.callback, paidAt: paid.createdAt.toISOString() },
      'payment already succeeded for this OrderId; a payment request with a different payload got the stored success and did not reach the adapter');
  }
  return replay(state, paid, 'payment_replayed');
}

const inFlight = (state: PipelineState, waitedMs: number) => {
  state.outcome = 'in_flight';
  return retryable('IN_FLIGHT', `another delivery for this OrderId was still in progress after ${waitedMs} ms`,
    'Another delivery for this order is still being processed; retry later');
};

/** Resolves true when `promise` settles within `ms`, false otherwise. */
function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((r) => { timer = setTimeout(() => r(false), Math.max(0, ms)); });
  return Promise.race([promise.then(() => true, () => true), timeout]).finally(() => clearTimeout(timer));
}

export const idempotencyStep: StepFactory = (options) => {
  const { store, inFlightWaitMs, leaseMs } = idempotencySettings(options);
  // Identical deliveries in flight in this process: the others wait for the first, then read its reply.
  const running = new Map<string, Promise<void>>();
  return async (state, next) => {
    const hash = fingerprintOf(state);
    if (state.callback === 'getCheckoutCartInfo' || hash === undefined || state.orderId === undefined) return next();
    const orderId = state.orderId;
    const key = idempotencyKey(state.callback, orderId, hash);
    state.context.idempotencyKey = key;
    const payment = paymentExpected(state);
    const deadline = Date.now() + inFlightWaitMs;

    const early = await storedAnswer(state, store, key, hash, payment);
    if (early) return early;
    const twin = running.get(key);
    if (twin) {
      if (!(await within(twin, deadline - Date.now()))) throw inFlight(state, inFlightWaitMs);
      const settled = await storedAnswer(state, store, key, hash, payment);
      if (settled) return settled;
    }

    let finished!: () => void;
    const mine = new Promise<void>((r) => { finished = r; });
    if (!running.has(key)) running.set(key, mine);
    try {
      return await underLock(state, next, key, hash, payment, Math.max(0, deadline - Date.now()));
    } finally {
      finished();
      if (running.get(key) === mine) running.delete(key);
    }
  };

  async function underLock(state: PipelineState, next: () => Promise<CallbackResponse>, key: string, hash: string, payment: boolean, waitMs: number): Promise<CallbackResponse> {
    const orderId = state.orderId!;
    const lock = await fromStore(state, () => store.acquire(orderId, { waitMs, leaseMs }));
    if (!lock) throw inFlight(state, inFlightWaitMs);
    if (lock.recovered) state.log.warn({}, 'the lease of an in-progress delivery for this OrderId expired (crash or stall); running again');
    try {
      const stored = await storedAnswer(state, store, key, hash, payment);
      if (stored) return stored;
      const previous = await fromStore(state, () => store.getLatestRecord(orderId, 'sendOrderToMerchant'));
      if (previous) state.context.previous = previous.response;

      const res = await next();
      const body = res.body as Record<string, unknown> | null;
      if (res.status !== 200 || body === null || typeof body !== 'object' || body.Success !== true) return res;
      // Card numbers in reply texts were masked when the reply was built (response-info step).
      const response = body as ResponseInfo;
      try {
        await store.saveRecord({ key, callback: state.callback, orderId, hash, response, payment });
      } catch (err) {
        // The adapter did the work: answer its success; a redelivery will find no record and run again.
        state.log.error({ err }, 'idempotency store failed to keep a successful reply');
      }
      // The merchant's ids of a created order, so the service client's hold guard finds the order by them.
      const ids = state.callback === 'sendOrderToMerchant'
        ? [response.InternalOrderId, response.OrderId].filter((v): v is string => typeof v === 'string' && v !== '') : [];
      if (ids.length > 0) {
        await store.saveMerchantOrderIds(orderId, ids)
          .catch((err: unknown) => state.log.error({ err }, 'store failed to keep the merchant order ids of an order'));
      }
      return { ...res, body: response };
    } finally {
      await lock.release().catch((err: unknown) => state.log.error({ err }, 'idempotency store failed to release an OrderId lock (its lease will expire)'));
    }
  }
};
