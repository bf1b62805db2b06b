/** PostgresStore rows as the Store interface returns them. */
import { holdOf } from './holds.js';
import type { AttemptOutcome, AttemptStart, Prefetched, StoredAnswer, StoredRecord } from './types.js';

export function toRecord(row: Record<string, any>): StoredRecord {
  return {
    key: row.key, callback: row.callback, orderId: row.order_id, hash: row.hash, response: row.response,
    payment: row.payment, createdAt: new Date(row.created_at), expiresAt: new Date(row.expires_at),
  };
}

/** The stored answer of a claim result (`{ answer, own }`), or null when it has none. */
export function storedAnswerOf(r: Record<string, any> | undefined): StoredAnswer | null {
  if (!r?.answer) return null;
  const found = toRecord(r.answer);
  return r.own ? { record: found, payment: null } : { record: null, payment: found };
}

/** The reads of a claim result that claimed the lock with current reads (no answer was stored). */
export function prefetchedOfClaim(orderId: string, r: Record<string, any>): Prefetched {
  const prefetched: Prefetched = {
    record: null,
    payment: null,
    latest: r.latest ? toRecord(r.latest) : null,
    hold: r.hold ? holdOf(orderId, { awaiting: r.hold.awaiting, received: [], since: new Date(r.hold.since) }) : null,
  };
  if (r.attempt !== undefined) prefetched.attempt = attemptStart({ attempts: r.attempt, prev_state: r.prev_state, prev_started_at: r.prev_started_at });
  return prefetched;
}

/** The reads of a claimAndRead row (its snapshot was current), as the separate reads return them. */
export function prefetchedOf(orderId: string, row: Record<string, any>): Prefetched {
  const prefetched: Prefetched = {
    record: row.record ? toRecord(row.record) : null,
    payment: row.payment ? toRecord(row.payment) : null,
    latest: row.latest ? toRecord(row.latest) : null,
    hold: row.hold ? holdOf(orderId, { awaiting: row.hold.awaiting, received: [], since: new Date(row.hold.since) }) : null,
  };
  if (row.attempts !== null && row.attempts !== undefined) prefetched.attempt = attemptStart(row);
  return prefetched;
}

/** AttemptStart from a row with attempts, prev_state, prev_started_at. */
export function attemptStart(row: Record<string, any>): AttemptStart {
  const start: AttemptStart = { attempt: Number(row.attempts) };
  if (row.prev_state !== null && row.prev_state !== undefined && row.prev_state !== 'done') {
    start.previousAttempt = {
      startedAt: new Date(row.prev_started_at),
      outcome: row.prev_state === 'running' ? 'crashed' : row.prev_state as AttemptOutcome,
    };
  }
  return start;
}
