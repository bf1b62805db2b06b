/**
 * The card part of an exactly-once delivery's fingerprint: a keyed hash (HMAC-SHA256) of its card
 * numbers and CVVs, so that a payment retried with another card gets another idempotency key while a
 * true redelivery keeps its key. The key is derived from the first configured MerchantGUID (a secret
 * every process of the shop shares): what a store keeps cannot be turned back into a card number by
 * trying the few card numbers a BIN and last four digits leave, without the GUID. Never the PAN itself,
 * never its plain hash (docs/idempotency.md).
 */
import { createHmac } from 'node:crypto';

/** The digest of a delivery's card data, or undefined when it has none. */
export type CardDigester = (cards: readonly string[], cvvs: readonly string[]) => string | undefined;

/** A card number as its digits (`4111 1111 …` and `4111-1111-…` are one card); a value with other characters as written. */
const cardText = (card: string): string => (/^[\d\s.-]+$/.test(card) ? card.replace(/\D/g, '') : card.trim());

export function createCardDigester(merchantGuids: readonly string[]): CardDigester {
  // The GUID as the MerchantGUID check compares it (any case): one key for every spelling of the configuration.
  const key = createHmac('sha256', 'crossborder-merchant-kit card digest v1').update(merchantGuids[0].trim().toLowerCase()).digest();
  return (cards, cvvs) => {
    if (cards.length === 0 && cvvs.length === 0) return undefined;
    const h = createHmac('sha256', key);
    for (const c of cards) h.update(`card:${cardText(c)}\u0000`);
    for (const v of cvvs) h.update(`cvv:${v.trim()}\u0000`);
    return h.digest('hex');
  };
}
