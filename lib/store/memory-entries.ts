/**
 * The entries MemoryStore keeps (memory.ts): one small object per reply, attempt, merchant-id call
 * and hold, and the helpers that keep them small.
 */
import type { ResponseInfo } from '../payloads.js';
import { jsonCopy } from '../json/json-copy.js';
import type { AttemptOutcome, DocumentRef } from './types.js';

/*
 * Footprint: up to `maxEntries` replies live here for weeks, so each is kept small (see
 * docs/stores.md): one object per reply; the key as one flat string, holding the hash; the reply
 * as a copy that shares its strings (with the merchant ids kept for it); times as milliseconds since
 * the store was built (small integers: no Date objects, no boxed numbers for ~24 days of uptime);
 * one per-OrderId chain instead of separate payment and latest-reply indexes; and no attempt record
 * once a stored reply answers for its key.
 */

/** A copy of a string as one flat string (a key built by concatenation is a tree of its parts). */
export const flat = (s: string): string => Buffer.from(s, 'utf16le').toString('utf16le');

/** One stored reply. `at`: when it was saved, ms since the store's epoch. */
export class Reply {
  constructor(
    readonly key: string, readonly callback: string, readonly orderId: string,
    /** Null when it is the key's text after its last ':' (the kit's keys end with their hash). */
    readonly hash: string | null,
    readonly response: ResponseInfo, readonly payment: boolean, readonly at: number,
    /** The OrderId's reply saved before this one (the chain starts at `byOrder`, newest first). */
    public older: Reply | undefined,
  ) {}
}

export type AttemptState = 'running' | 'done' | AttemptOutcome;
export class Attempt {
  constructor(readonly attempts: number, public state: AttemptState, readonly startedAt: number) {}
}

/** The OrderId that merchant ids name; one object shared by the ids of one call. */
export class MerchantIds {
  constructor(readonly orderId: string, readonly at: number) {}
}

/**
 * An order's hold bookkeeping (see holds.ts): `since` and `touchedAt` in ms since the store's
 * epoch; the documents as copies sharing their strings, no documents as the one shared empty list.
 */
export class Hold {
  constructor(
    readonly awaiting: DocumentRef[] | null, readonly received: DocumentRef[], readonly since: number | null, readonly touchedAt: number,
  ) {}
}
export const NO_DOCUMENTS = Object.freeze([]) as unknown as DocumentRef[];
export const copyRefs = (refs: readonly DocumentRef[]): DocumentRef[] => (refs.length === 0 ? NO_DOCUMENTS : jsonCopy(refs as DocumentRef[]));

export const hashInKey = (key: string, hash: string): boolean =>
  hash.length > 0 && !hash.includes(':') && key.endsWith(hash) && key.charCodeAt(key.length - hash.length - 1) === 58;
