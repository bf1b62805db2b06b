/**
 * Adapter replies as real adapters write them (PHP/.NET serialisers emit `"Description": null`):
 * null-valued properties are dropped before the reply is validated and sent (debug log with their
 * JSON pointers), so a null never fails checkout; a key the reply schema does not know but closely
 * resembles a known one (`discountsList` for `discountList`) is flagged once per process with a
 * did-you-mean warning — the service ignores a misspelt key. A ResponseInfo's unknown top-level keys
 * are dropped (it has few fields and a typo there would reach the service as noise: docs/callbacks.md);
 * a CheckoutCartInfo's unknown keys are still sent (real carts carry fields the spec does not show).
 */
import { didYouMean } from '../shared/did-you-mean.js';
import { unknownKeys } from '../validation/known-keys.js';
import { withoutNulls } from '../validation/tolerant.js';
import type { Who } from './stages/types.js';
import { createCartReplyCheck, PRODUCT_AT } from './cart-reply-check.js';

/** How many distinct unknown keys are remembered (each is reported once); later ones are not reported. */
const MAX_REMEMBERED = 256;

export type ReplyTidier = (state: Who, body: Record<string, unknown>) => void;

export function createReplyTidier(): ReplyTidier {
  const reported = new Set<string>();
  const cartCheck = createCartReplyCheck();
  return (state, body) => {
    const nulls = withoutNulls(body);
    if (nulls.length > 0) state.log.debug({ dropped: nulls.slice(0, 50), droppedCount: nulls.length }, 'adapter reply had null values; dropped them');
    const drop = state.entry.result === 'responseInfo';
    const unknown = unknownKeys(state.entry.resultSchema, body);
    const cart = state.entry.result === 'cartInfo';
    // A cart's products: their gaps and unknown keys in one warning per shape (cart-reply-check.ts).
    if (cart) cartCheck(state, body, unknown);
    for (const u of unknown) {
      if (cart && u.at === PRODUCT_AT) continue;
      const dropped = drop && u.at === '';
      if (dropped) delete body[u.key];
      const id = `${state.callback}:${u.at}/${u.key}`;
      if (reported.has(id) || reported.size >= MAX_REMEMBERED) continue;
      reported.add(id);
      const guess = didYouMean(u.key, u.known);
      if (guess) {
        state.log.warn({ key: `${u.at}/${u.key}`, suggestion: `${u.at}/${guess}` },
          `adapter ${state.callback} reply has an unknown key ${u.key}; did you mean ${guess}? (${dropped ? 'dropped' : 'sent as is'}; reported once)`);
      } else {
        state.log.debug({ key: `${u.at}/${u.key}` }, `adapter ${state.callback} reply has a key the interface does not name; ${dropped ? 'dropped' : 'sent as is'}`);
      }
    }
  };
}
