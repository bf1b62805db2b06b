/**
 * Card data, in one module (issue 48 item 4): which members carry it (`fields.ts`), the mask of a
 * request's card numbers and CVV in texts and logs (`mask.ts`), the keyed digest an exactly-once
 * fingerprint hashes in (`digest.ts`) and the marker it hashes in place of a card value (`fields.ts`), and the copy of an adapter's result without it (`strip.ts`).
 * The stages import it from here only. Nothing here keeps a card value beyond the delivery that brought it.
 */
export { CARD_MARKER, CARD_NUMBER, CVV_NUMBER, isCardKey } from './fields.js';
export { createCardMask, MIN_CARD_DIGITS, type CardMask } from './mask.js';
export { createCardDigester, type CardDigester } from './digest.js';
export { stripCardData } from './strip.js';
