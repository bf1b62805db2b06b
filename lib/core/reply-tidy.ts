/**
 * Adapter replies as real adapters write them (PHP/.NET serialisers emit `"Description": null`):
 * null-valued properties are dropped before the reply is validated and sent (debug log with their
 * JSON pointers), so a null never fails checkout; a key the reply schema does not know but closely
 * resembles a known one (`discountsList` for `discountList`) is flagged once per process with a
 * did-you-mean warning — the service ignores a misspelt key. A ResponseInfo's unknown top-level keys
 * are dropped (it has few fields and a typo there would reach the service as noise: docs/callbacks.md);
 * a CheckoutCartInfo's unknown keys are still sent (real carts carry fields the spec does not show).
 *
 * Values in an adapter's reply that real integrations write and the service accepts, but that the
 * interface's schema refuses (the service's own cart cartridge, test/fixtures/real-world-2:
 * `"OriginCountryCode": ""`, `"loyaltyCode": 0`), are read the tolerant way (createReplyValueCheck,
 * below) instead of failing the checkout with a 500:
 * - an empty string where the interface wants a value of a form (a country or currency code) is read
 *   as "not given", like a null, and left out;
 * - a number or boolean where the interface wants text is sent as its text (`0` → `"0"`): the
 *   documented form.
 * The places are logged once per shape (then at debug); any other invalid value still fails the reply
 * (docs/compatibility.md, "Adapter replies as real integrations write them").
 */
import { didYouMean } from '../shared/did-you-mean.js';
import { unknownKeys } from '../validation/known-keys.js';
import { withoutNulls } from '../validation/tolerant.js';
import type { Who } from './stages/types.js';
import type { CallbackName } from './types.js';
import { createCartReplyCheck, PRODUCT_AT } from './cart-reply-check.js';

/** How many distinct unknown keys are remembered (each is reported once); later ones are not reported. */
const MAX_REMEMBERED = 256;

export type ReplyTidier = (state: Who, body: Record<string, unknown>) => void;

// ── Nulls dropped, unknown keys reported (a ResponseInfo's top-level ones dropped).

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

// ── Reply values read the tolerant way.

/** Validates a reply; returns the JSON pointer of the first failing field, or null. */
export type ReplyValidator = (callback: CallbackName, result: unknown) => string | null;

/** How many values one reply may have read this way before the rest count as invalid (a bound on the loop). */
const MAX_FIXED = 200;
/** How many distinct shapes are remembered for the once-per-shape warning. */
const MAX_SHAPES = 256;

const unescape = (token: string): string => token.replace(/~1/g, '/').replace(/~0/g, '~');

/** The object holding the property a JSON pointer names, and its key; null when the pointer names no object property. */
function holderOf(body: Record<string, unknown>, pointer: string): { holder: Record<string, unknown>; key: string } | null {
  const tokens = pointer.split('/').slice(1).map(unescape);
  if (tokens.length === 0) return null;
  let node: unknown = body;
  for (const token of tokens.slice(0, -1)) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) return null;
    node = (node as Record<string, unknown>)[token];
  }
  const key = tokens[tokens.length - 1];
  if (node === null || typeof node !== 'object' || Array.isArray(node) || !Object.hasOwn(node, key)) return null;
  return { holder: node as Record<string, unknown>, key };
}

/** Reads the value at `at` the tolerant way; returns what it did, or null when nothing applies. */
function readTolerantly(at: { holder: Record<string, unknown>; key: string }): 'empty' | 'text' | null {
  const value = at.holder[at.key];
  if (value === '') {
    delete at.holder[at.key];
    return 'empty';
  }
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') {
    at.holder[at.key] = String(value);
    return 'text';
  }
  return null;
}

export type ReplyValueCheck = (state: Who, body: Record<string, unknown>, validate: ReplyValidator) => string | null;

/**
 * A reply check: validates `body`; where the failing field is an empty string or a number/boolean,
 * reads it the tolerant way (above) and validates again. Returns the first failing field it cannot
 * read so (that value then as the adapter gave it), or null.
 */
export function createReplyValueCheck(): ReplyValueCheck {
  const shapes = new Set<string>();
  return (state, body, validate) => {
    const fixed: Array<{ at: string; as: 'empty' | 'text' }> = [];
    let field = validate(state.callback, body);
    while (field !== null && fixed.length < MAX_FIXED) {
      const at = holderOf(body, field);
      const before = at?.holder[at.key];
      const as = at === null ? null : readTolerantly(at);
      if (at === null || as === null) break;
      const next = validate(state.callback, body);
      if (next === field) {
        // Still refused there: the schema wanted something else; the value goes back as given.
        at.holder[at.key] = before;
        break;
      }
      fixed.push({ at: field, as });
      field = next;
    }
    if (fixed.length > 0) {
      const folded = [...new Set(fixed.map((f) => `${f.at.replace(/\/\d+(?=\/|$)/g, '/*')}:${f.as}`))];
      const shape = `${state.callback}:${folded.join(',')}`;
      const once = !shapes.has(shape) && shapes.size < MAX_SHAPES;
      if (once) shapes.add(shape);
      state.log[once ? 'warn' : 'debug']({ read: folded.slice(0, 50), readCount: fixed.length },
        `adapter ${state.callback} reply had values the interface words otherwise (an empty code left out as not given, a number sent as text)${once ? '; reported once per shape' : ''}`);
    }
    return field;
  };
}
