/**
 * Fulfilment holds on an engine without row locks (RedisStore, DynamoDBStore): read the hold,
 * change it (holds.ts), and write it only if it is still what was read (compare-and-set); read again
 * when another writer came first. Concurrent document deliveries then all count.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { KitError } from '../shared/errors.js';
import { emptyHoldState, holdOf, type HoldState } from './holds.js';
import type { DocumentRef, FulfilmentHold } from './types.js';

/** A hold as the engines keep it (JSON): awaiting (null: none), received, since (ms, null: none). */
export interface HoldEntry { a: DocumentRef[] | null; r: DocumentRef[]; s: number | null }

export const stateOf = (entry: HoldEntry | null): HoldState =>
  (entry ? { awaiting: entry.a, received: entry.r, since: entry.s === null ? null : new Date(entry.s) } : emptyHoldState());
export const entryOf = (state: HoldState): HoldEntry =>
  ({ a: state.awaiting && state.awaiting.length > 0 ? state.awaiting : null, r: state.received, s: state.awaiting && state.since ? state.since.getTime() : null });

/** Tries of one change before it gives up (ERR_CBK_STORE_BUSY: the kit answers 503, retryable). */
export const HOLD_TRIES = 50;

/**
 * Changes an order's hold: `read` gives the current entry and a token of it, `write` stores the
 * new entry when the token is still current (false otherwise).
 */
export async function changeHold<T>(
  orderId: string, store: string,
  read: () => Promise<{ entry: HoldEntry | null; token: T }>,
  write: (token: T, next: HoldEntry) => Promise<boolean>,
  change: (state: HoldState) => HoldState,
): Promise<FulfilmentHold | null> {
  for (let i = 0; i < HOLD_TRIES; i++) {
    const { entry, token } = await read();
    const next = change(stateOf(entry));
    if (await write(token, entryOf(next))) return holdOf(orderId, next);
    await sleep(Math.random() * Math.min(50, 2 ** i));
  }
  throw new KitError('ERR_CBK_STORE_BUSY', `${store}: the fulfilment hold of an order kept changing under ${HOLD_TRIES} tries; retry`);
}
