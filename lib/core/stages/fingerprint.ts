/**
 * The fingerprint rules of an exactly-once delivery's idempotency key (the key stage's, stages/key.ts),
 * over the generic canonical JSON of lib/json/canonical.ts: the values of the card fields are replaced
 * by a marker (a card number is guessable from BIN + last four digits, so its hash must not be stored;
 * the keyed card digest stands for the card instead, card-data/digest.ts) and MerchantGUID is left out
 * (a rotated GUID does not make a redelivery a new delivery).
 */
import { canonicalHash, KEEP, MARK, OMIT, storeKeyPart, type MemberRule } from '../../json/canonical.js';
import { CARD_MARKER, isCardKey } from '../card-data/index.js';

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
