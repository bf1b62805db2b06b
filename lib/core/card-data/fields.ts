/** The payload members that carry card data: never in a reply, masked in every log line and reply text. */
export const CARD_NUMBER = 'CardNumber';
export const CVV_NUMBER = 'CVVNumber';

/** What an idempotency fingerprint hashes in place of a card field's value (stages/fingerprint.ts). */
export const CARD_MARKER = '[card]';

/** Whether a member's key is one of the card fields. */
export const isCardKey = (key: string): boolean => key === CARD_NUMBER || key === CVV_NUMBER;
