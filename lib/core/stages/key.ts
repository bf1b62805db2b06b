/**
 * The key of an exactly-once delivery: `<callback>:<OrderId>:<fingerprint>`, the fingerprint being the
 * SHA-256 of the canonical JSON of the payload as received (parse never changes it: URL decoding
 * makes a copy; of the adapter input for a delivery without a body). Its rules (below) leave the card
 * values out; a delivery with card data also hashes in the keyed card digest (parse stage,
 * card-data.ts): another card is another key, the same card the same key. An entry with
 * `keyFields` (a return: OrderId + RMANumber; a parcel dispatch: OrderId + parcel + status) is fingerprinted by
 * those fields of its input only (dotted paths; `?`: optional; read and refused in payload-rules.ts).
 */
import { PipelineFailure } from '../../shared/errors.js';
import { sha256Hex } from '../../shared/sha256.js';
import { canonicalHash, KEEP, MARK, OMIT, PayloadTooDeep, storeKeyPart, type MemberRule } from '../../json/canonical.js';
import { CARD_MARKER, isCardKey } from '../card-data.js';
import { keyFieldsOf, paymentExpected } from '../payload-rules.js';
import type { Keyed, Validated } from './types.js';

/**
 * The fingerprint's rules, over the generic canonical JSON of lib/json/canonical.ts: the values of the
 * card fields are replaced by a marker (a card number is guessable from BIN + last four digits, so its
 * hash must not be stored; the keyed card digest stands for the card instead, card-data.ts) and
 * MerchantGUID is left out (a rotated GUID does not make a redelivery a new delivery).
 */
const FINGERPRINT: MemberRule = {
  kindOf: (key) => (key === 'MerchantGUID' ? OMIT : isCardKey(key) ? MARK : KEEP),
  marker: CARD_MARKER,
};

/** SHA-256 (hex) of the canonical JSON of a payload, card values masked and MerchantGUID left out. */
export function payloadHash(payload: unknown): string {
  return canonicalHash(payload, FINGERPRINT);
}

/** The idempotency key of a delivery: stable across redeliveries of the same payload. */
export function idempotencyKey(callback: string, orderId: string, hash: string): string {
  return `${callback}:${storeKeyPart(orderId)}:${hash}`;
}

/** The key stage (exactly-once entries): the fingerprint and idempotency key, or the 400 refusal. */
export function key(delivery: Validated): Keyed {
  const { orderId, entry } = delivery;
  // Fail closed: parse refuses an exactly-once delivery without an OrderId.
  if (orderId === undefined) throw new Error(`exactly-once ${delivery.callback} reached its key without an OrderId`);
  let fingerprint: string;
  try {
    const hash = payloadHash(entry.keyFields ? { keyFields: keyFieldsOf(delivery.input, entry.keyFields) } : delivery.payload ?? delivery.input);
    fingerprint = delivery.cardDigest === undefined ? hash : sha256Hex(Buffer.from(`${hash}:${delivery.cardDigest}`));
  } catch (err) {
    if (!(err instanceof PayloadTooDeep)) throw err;
    throw new PipelineFailure('INVALID_REQUEST', err.message, 'The request body is nested too deeply');
  }
  const d = delivery;
  // Listed, not spread: a spread that adds fields costs a hidden class per delivery (stages/validate.ts, validated()).
  return {
    callback: d.callback, entry, request: d.request, body: d.body, requestId: d.requestId, log: d.log,
    payload: d.payload, input: d.input, envelope: d.envelope, orderId, nullFree: d.nullFree, cardMask: d.cardMask, cardDigest: d.cardDigest,
    deviations: d.deviations,
    fingerprint, key: idempotencyKey(d.callback, orderId, fingerprint), payment: paymentExpected(d),
  };
}
