/**
 * What DurableObjectStore (the client, durable-object.ts) and CallbackStoreObject (the Durable
 * Object, durable-object-object.ts) say to each other: one JSON request per call (`stub.fetch`,
 * which every Workers compatibility date and Miniflare's Node-side stubs support), the objects'
 * names, and the records on the wire (times as ms since the epoch).
 *
 * Objects (docs/stores.md, "DurableObjectStore"):
 * - `o:<OrderId>`: one per OrderId — its lock, replies, attempts and hold. A reply lives in the
 *   object its key names (keyObject: the kit's keys name their OrderId, so a delivery's reply,
 *   attempt and lock share one object, and so do the service client's records of the order);
 * - `m:<merchant order id key part>`: one per merchant order id — the OrderId it was last saved for;
 * - `holds`: the one index of active holds (`countActiveHolds`), told of each hold change.
 */
import { storeKeyPart } from '../json/canonical.js';
import type { AttemptOutcome, DocumentRef } from './types.js';

/**
 * The object of an OrderId: `o:` and the OrderId, its last ':'-separated part (the OrderId itself,
 * after any namespacedStore prefixes `<namespace>:`) as the kit's keys write it (`storeKeyPart`).
 */
export const orderObject = (orderId: string): string => {
  const last = orderId.lastIndexOf(':');
  return `o:${orderId.slice(0, last + 1)}${storeKeyPart(orderId.slice(last + 1))}`;
};
/**
 * The object of a key: its OrderId's for the kit's keys — `[<namespace>:]…<callback>:<OrderId>:<hash>`
 * and the service client's `[<namespace>:]…~order:<kind>:<OrderId>[:<part>]` — read as OrderIds
 * without ':' (the service's are letters and digits); a key of another form has an object of its own.
 */
export const keyObject = (key: string): string => {
  const parts = partsOf(key);
  const action = parts.findIndex((p) => p.startsWith('~'));
  if (action >= 0 && parts.length > action + 2) return `o:${[...parts.slice(0, action), parts[action + 2]].join(':')}`;
  if (action < 0 && parts.length >= 3) return `o:${[...parts.slice(0, -3), parts[parts.length - 2]].join(':')}`;
  return `k:${key}`;
};
/** A key's ':'-separated parts, a hashed key part (`sha256:<hex>`, storeKeyPart's form of a long id) kept as one. */
function partsOf(key: string): string[] {
  const parts: string[] = [];
  for (const part of key.split(':')) {
    const previous = parts.length - 1;
    if (previous >= 0 && parts[previous] === 'sha256' && /^[0-9a-f]{64}$/.test(part)) parts[previous] = `sha256:${part}`;
    else parts.push(part);
  }
  return parts;
}
export const merchantIdObject = (merchantOrderId: string): string => `m:${storeKeyPart(merchantOrderId)}`;
export const HOLDS_OBJECT = 'holds';

/** A stored reply on the wire and in storage. */
export interface WireRecord {
  key: string; callback: string; orderId: string; hash: string; response: Record<string, unknown>; payment: boolean;
  createdAt: number; expiresAt: number;
  /** Save order within the object (a later save of the same ms is later). */
  seq: number;
}

export interface WirePrefetch { key: string; payment: boolean; latestOf: string; beginAttempt: boolean }
export interface WireAttemptStart { attempt: number; previousAttempt?: { startedAt: number; outcome: AttemptOutcome } }
export interface WireHold { awaiting: DocumentRef[]; since: number }

/** The requests, by `op`; each with `at`, the caller's clock when it sent it (the object's time never runs behind it: durable-object-object.ts). */
export type Request = { at?: number } & (
  | { op: 'claim'; owner: string; leaseMs: number; waitMs: number; ttlMs: number; replay: boolean; prefetch?: WirePrefetch }
  | { op: 'release'; owner: string }
  | { op: 'save'; record: Omit<WireRecord, 'createdAt' | 'expiresAt' | 'seq'>; ttlMs: number; owner?: string }
  | { op: 'get'; key: string }
  | { op: 'payment' }
  | { op: 'latest'; callback: string }
  | { op: 'begin'; key: string; ttlMs: number }
  | { op: 'end'; key: string; outcome: AttemptOutcome | null }
  | { op: 'hold'; orderId: string; change: 'place' | 'documents' | 'release' | 'get'; refs: DocumentRef[]; ttlMs: number }
  | { op: 'setOrderId'; orderId: string; ttlMs: number }
  | { op: 'findOrderId' }
  | { op: 'indexHold'; orderId: string; active: boolean; version: number }
  | { op: 'countHolds'; prefix: string }
  | { op: 'ping' });

export type ClaimAnswer =
  | { stored: { record: WireRecord | null; payment: WireRecord | null } }
  | { claimed: false }
  | { claimed: true; recovered: boolean; waitedMs: number; prefetched?: { record: WireRecord | null; payment: WireRecord | null; latest: WireRecord | null; hold: WireHold | null; attempt?: WireAttemptStart } };

/** What a hold change answers: the hold, and the state the index is told (versioned: a late message never wins). */
export interface HoldAnswer {
  hold: WireHold | null; active: boolean; version: number;
  /** Tell the index: the order has had a hold (an order that never had one is never in the index, and its changes cost no request). */
  indexed: boolean;
}

/** The object's answer: `{ r }` the result, or `{ e, m }` an error code and message. */
export type Answer = { r: unknown } | { e: string; m: string };
/** The error code of a save refused because its lease is no longer its attempt's. */
export const LEASE_LOST = 'lease-lost';
