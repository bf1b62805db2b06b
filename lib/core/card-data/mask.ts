/**
 * Masking a request's card data in reply texts: its card numbers in any spelling (bare digits, with
 * spaces, dashes or dots between any digits, whatever form the request used) and its CVV as a
 * standalone digit run. Built once per delivery by the parse stage; used for every reply text the
 * kit sends or stores (returned, thrown or late) and given to the call's logger.
 */
import { REDACTED } from '../../shared/logger.js';

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
