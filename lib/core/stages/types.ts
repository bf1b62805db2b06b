/**
 * What the stages of one delivery (lib/core/deliver.ts) hand each other: each stage takes the result
 * of the one before and returns a new, readonly result (or refuses: it throws a PipelineFailure,
 * which deliver() answers). Nothing is written back into an earlier result.
 *
 *   Started → Parsed → Validated → (exactly-once entries) Keyed → Answer (stages/reply.ts) → DeliveryResult
 *
 * Parse, validate and key build their result as one literal listing every field of the one before
 * (a spread that adds fields costs V8 a hidden class per delivery: bench/NOTES.md). Keep every field
 * required (`T | undefined`, not `?:`), so a listing that forgets a new field does not compile.
 */
import type { SafeLogger } from '../../shared/logger.js';
import type { CardMask } from '../card-data.js';
import type { CallbackTypes } from '../adapter-types.js';
import type { RequestBody } from '../body.js';
import type { CallbackEntry, CallbackName } from '../registry.js';
import type { CallbackRequest, CallbackResponse } from '../types.js';

/** The adapter input of a callback (built by its registry entry's `input`). */
export type AdapterInput = CallbackTypes[CallbackName]['input'];

/** A delivery as it starts: which callback, what was asked, the call's id and logger. */
export interface Started {
  readonly callback: CallbackName;
  /** The registry entry of the callback: every branch of deliver() reads it. */
  readonly entry: CallbackEntry;
  readonly request: CallbackRequest;
  /** The request's body (body.ts): raw, parsed by the host app, or unreadable; undefined without one. */
  readonly body: RequestBody | undefined;
  /** Random id of this delivery (`context.requestId`; the adapter's context is built just before it runs: stages/adapter.ts). */
  readonly requestId: string;
  readonly log: SafeLogger;
}

/** Who a delivery is, as helpers that only log or look at the entry need it. */
export type Who = Pick<Started, 'callback' | 'entry' | 'log'>;

/** After parse: the payload as received, the adapter input built from it, what the secrets walk found. */
export interface Parsed extends Started {
  /** Parsed JSON body of a POST; undefined for a GET. Never changed after parse (the fingerprint hashes it). */
  readonly payload: Readonly<Record<string, unknown>> | undefined;
  readonly input: AdapterInput;
  /** The input's envelope (`{ order }` form), for `context.envelope`. */
  readonly envelope: Record<string, unknown> | undefined;
  /** OrderId of the delivery: always set for an exactly-once callback, which is refused without it. */
  readonly orderId: string | undefined;
  /** The adapter input is the payload and holds no null at any depth: tolerant validation has none to remove. */
  readonly nullFree: boolean;
  /** Masks the request's card numbers (any spelling) and CVV in a text; undefined without card data. */
  readonly cardMask: CardMask | undefined;
  /** Keyed hash of the request's card numbers and CVVs (undefined without card data): part of an exactly-once fingerprint. */
  readonly cardDigest: string | undefined;
}

/** After validation (and, per entry, the documents' check and URL decoding): the input the adapter receives. */
export interface Validated extends Parsed {
  /** Deviations from the interface specification tolerated (a bounded list); undefined: strict validation, none are. */
  readonly deviations: ReadonlyArray<{ pointer: string; rule: string }> | undefined;
}

/** An exactly-once delivery, keyed. */
export interface Keyed extends Validated {
  readonly orderId: string;
  /** SHA-256 of the canonical payload (and the card digest). */
  readonly fingerprint: string;
  /** `<callback>:<OrderId>:<fingerprint>`: the idempotency key. */
  readonly key: string;
  /** A payment is expected of the adapter (its success is replayed to any later payment request of the OrderId). */
  readonly payment: boolean;
}

/** What deliver() hands to kit.handle: the reply a binding writes, and what telemetry reads of the delivery. */
export interface DeliveryResult {
  readonly reply: CallbackResponse;
  /** What the delivery learnt (replayed, in_flight, declined, ...); undefined: from the status. */
  readonly outcome: string | undefined;
  readonly orderId: string | undefined;
  /** The attempt number the adapter was told (exactly-once entries on a store that counts them). */
  readonly attempt: number | undefined;
  /** How many deviations from the specification were tolerated. */
  readonly deviationCount: number;
}
