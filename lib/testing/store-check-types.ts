/** What the conformance checks (store-checks-*.ts) are made of, and the reply they save. */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NewRecord, Store, StoreCapability } from '../store/types.js';

/**
 * Deep equality of what a store returned, as plain JSON data: a store may build its objects in
 * another realm (structuredClone under jest's vm) or with class prototypes; Dates compare by time.
 */
export function same(actual: unknown, expected: unknown, message?: string): void {
  const plain = (v: unknown) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
  assert.deepStrictEqual(plain(actual), plain(expected), message);
}

/** What a check works with; every store it makes is closed after it. */
export interface CheckContext {
  store: Store;
  /** Another instance over the same data. */
  twin(): Promise<Store>;
  /** A fresh store whose records expire after `ttlMs`. */
  withTtl(ttlMs: number): Promise<Store>;
  /** An id no other check uses (OrderIds, keys, merchant ids). */
  id(prefix: string): string;
}

export type CheckBody = (c: CheckContext) => Promise<void>;
export interface CheckDefinition { name: string; capability: 'core' | StoreCapability; body: CheckBody }

/** The ttl of the stores the expiry checks make: a record must be found right after its save, and gone TTL_MS + 500 ms later. */
export const TTL_MS = 300;
/** How late after its ttl a record may still be found: a slow database round trip, clocks read at different times. */
export const EXPIRY_MARGIN_MS = 500;
const EXPIRY_POLL_MS = 20;

/**
 * Reads what was just saved with a ttl of `TTL_MS`: `inTime` is whether the read completed before
 * `savedAt + TTL_MS` (the record must then be found); a read that completed later, on a slow machine or
 * network, may rightly find it expired, so no verdict on its presence then (the expiry check follows).
 */
export async function readBeforeTtl<T>(read: () => Promise<T>, savedAt: number): Promise<{ value: T; inTime: boolean }> {
  const value = await read();
  return { value, inTime: Date.now() < savedAt + TTL_MS };
}

/**
 * Resolves once `read` finds nothing, asserting that happens by `TTL_MS + EXPIRY_MARGIN_MS` after
 * now (call it right after the record was seen: the same bound as a fixed sleep from there). Reads
 * from `savedAt + TTL_MS` on, every 20 ms, so a store that expires on time passes in about TTL_MS
 * instead of waiting out the margin. `read` must not refresh the record (a lookup, not a write).
 */
export async function expiresOnTime(read: () => Promise<unknown>, savedAt: number, message: string): Promise<void> {
  const deadline = Date.now() + TTL_MS + EXPIRY_MARGIN_MS;
  await sleep(Math.max(0, savedAt + TTL_MS - Date.now()));
  for (;;) {
    const last = Date.now() >= deadline;
    if ((await read()) === null) return;
    if (last) assert.fail(message);
    await sleep(Math.min(EXPIRY_POLL_MS, Math.max(0, deadline - Date.now())));
  }
}

/** A successful SendOrderToMerchant reply for `orderId` under `key` (its hash: the key's last part). */
export const reply = (orderId: string, key: string, overrides: Partial<NewRecord> = {}): NewRecord => ({
  key, callback: 'sendOrderToMerchant', orderId, hash: key.slice(key.lastIndexOf(':') + 1),
  response: { Success: true, InternalOrderId: 'INT-1' }, payment: false, ...overrides,
});
