/**
 * Card data, in one module with one entry (issue 48 item 4): which members carry it and the marker an
 * idempotency fingerprint hashes in place of their values; the mask of a request's card numbers and CVV
 * in texts and logs; the keyed digest an exactly-once fingerprint hashes in; the copy of an adapter's
 * result without it. The stages import card data from here only; nothing here keeps a card value
 * beyond the delivery that brought it.
 *
 * Masking: a request's card numbers in any spelling (bare digits, with spaces, dashes or dots between
 * any digits, whatever form the request used) and its CVV as a standalone digit run. Built once per
 * delivery by the parse stage; used for every reply text the kit sends or stores (returned, thrown or
 * late) and given to the call's logger.
 *
 * The digest: a keyed hash (HMAC-SHA256) of a delivery's card numbers and CVVs, so that a payment
 * retried with another card gets another idempotency key while a true redelivery keeps its key. The key
 * is derived from the first configured MerchantGUID (a secret every process of the shop shares): what a
 * store keeps cannot be turned back into a card number by trying the few card numbers a BIN and last
 * four digits leave, without the GUID. Never the PAN itself, never its plain hash (docs/idempotency.md).
 */
import { createHmac } from 'node:crypto';
import { PipelineFailure } from '../shared/errors.js';
import { REDACTED } from '../shared/logger.js';
import { jsonCopyWith } from '../json/json-copy.js';

/** The payload members that carry card data: never in a reply, masked in every log line and reply text. */
export const CARD_NUMBER = 'CardNumber';
export const CVV_NUMBER = 'CVVNumber';

/** What an idempotency fingerprint hashes in place of a card field's value (stages/key.ts). */
export const CARD_MARKER = '[card]';

/** Whether a member's key is one of the card fields. */
export function isCardKey(key: string): boolean {
  return key === CARD_NUMBER || key === CVV_NUMBER;
}

// ---- Masking ----

/** Card numbers shorter than this (in digits) are not masked as card numbers (too many false hits). */
export const MIN_CARD_DIGITS = 8;
const SEPARATORS = '[\\s.\\-]*';

export interface CardMask {
  /** The text with every card number and CVV of the request replaced by [REDACTED]. */
  (text: string): string;
  /** The pattern behind it (global), for the logger. */
  readonly pattern: RegExp;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A mask for the card numbers and CVVs of a request, or undefined when it has none. */
export function createCardMask(cardNumbers: readonly string[], cvvs: readonly string[]): CardMask | undefined {
  const parts = new Set<string>();
  for (const card of cardNumbers) {
    const digits = card.replace(/\D/g, '');
    if (digits.length >= MIN_CARD_DIGITS) parts.add(digits.split('').join(SEPARATORS));
    // A value with other characters is also masked as written.
    if (card.trim().length >= MIN_CARD_DIGITS && /[^\d\s.-]/.test(card)) parts.add(escape(card.trim()));
  }
  for (const cvv of cvvs) {
    const digits = cvv.trim();
    if (/^\d{3,4}$/.test(digits)) parts.add(`(?<!\\d)${digits}(?!\\d)`);
  }
  if (parts.size === 0) return undefined;
  // Longest alternatives first, so a card number wins over a CVV inside it.
  const pattern = new RegExp([...parts].sort((a, b) => b.length - a.length).join('|'), 'g');
  const mask = ((text: string) => text.replace(pattern, REDACTED)) as CardMask;
  Object.defineProperty(mask, 'pattern', { value: pattern });
  return mask;
}

// ---- The keyed digest ----

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

// ---- An adapter result without card data ----

/**
 * A JSON copy of an adapter result without card fields (CardNumber/CVVNumber never reach a
 * response, even if an adapter returns them), with the request's card numbers (any spelling) and
 * CVV masked inside any text (`mask`: the request's CardMask, or literal card numbers). A result
 * that cannot be serialised (a cycle, a BigInt) is a merchant bug, caught here rather than after
 * the reply was logged as a success.
 *
 * The result is `JSON.parse(JSON.stringify(value, dropCardsAndMask))` (test/core/strip-card-data.test.ts
 * compares the two), made by the store's copying walk (lib/json/json-copy.ts, jsonCopyWith) without
 * the text in between for plain objects and arrays; anything else goes through JSON with that replacer.
 */
export function stripCardData(value: unknown, mask?: CardMask | readonly string[]): unknown {
  const masker = Array.isArray(mask) ? createCardMask(mask as readonly string[], []) : mask as CardMask | undefined;
  try {
    return jsonCopyWith(value, { drop: isCardKey, text: masker });
  } catch (err) {
    throw new PipelineFailure('INTERNAL_ERROR', `merchant adapter bug: result is not JSON-serialisable (${(err as Error).name})`);
  }
}
