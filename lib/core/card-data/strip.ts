/**
 * Card data out of what the adapter returns: its card fields dropped and the request's card numbers
 * and CVV masked inside any text, before a reply is sent or stored.
 */
import { PipelineFailure } from '../../shared/errors.js';
import { jsonCopyWith } from '../../json/json-copy.js';
import { isCardKey } from './fields.js';
import { createCardMask, type CardMask } from './mask.js';

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
