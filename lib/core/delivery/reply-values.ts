/**
 * Values in an adapter's reply that real integrations write and the service accepts, but that the
 * interface's schema refuses (the service's own cart cartridge, test/fixtures/real-world-2:
 * `"OriginCountryCode": ""`, `"loyaltyCode": 0`). Instead of failing the checkout with a 500:
 * - an empty string where the interface wants a value of a form (a country or currency code) is read
 *   as "not given", like a null, and left out;
 * - a number or boolean where the interface wants text is sent as its text (`0` → `"0"`): the
 *   documented form.
 * The places are logged once per shape (then at debug); any other invalid value still fails the reply
 * (docs/compatibility.md, "Adapter replies as real integrations write them").
 */
import type { Who } from '../stages/types.js';
import type { CallbackName } from '../types.js';

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
