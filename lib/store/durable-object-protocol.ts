/**
 * What DurableObjectStore (the client, durable-object.ts) and CallbackStoreObject (the Durable
 * Object, durable-object-object.ts) say to each other: one JSON request per call (`stub.fetch`,
 * which every Workers compatibility date and Miniflare's Node-side stubs support), the objects'
 * names, and the records on the wire (times as ms since the epoch).
 *
 * Objects (docs/stores.md, "DurableObjectStore"):
 * - `o:<key part>`: one per OrderId — its lock, replies, attempts and hold. A reply lives in the
 *   object its key names: the text between the key's first and last ':' (the kit's keys are
 *   `<callback>:<OrderId key part>:<hash>`, so a delivery's reply, attempt and lock share one object);
 * - `m:<merchant order id key part>`: one per merchant order id — the OrderId it was last saved for;
 * - `holds`: the one index of active holds (`countActiveHolds`), told of each hold change.
 */
import { storeKeyPart } from '../json/canonical.js';
import type { AttemptOutcome, DocumentRef } from './types.js';

export const orderObject = (orderId: string): string => `o:${storeKeyPart(orderId)}`;
/** The object of a key: the order's for the kit's keys (`<callback>:<OrderId>:<hash>`), else one named by the key. */
export const keyObject = (key: string): string => {
  const first = key.indexOf(':');
  const last = key.lastIndexOf(':');
  return `o:${first >= 0 && last > first ? key.slice(first + 1, last) : key}`;
};
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
