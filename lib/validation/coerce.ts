/**
 * Typed values sent as text (tolerant validation, docs/compatibility.md): the service's own integrations
 * send `"Quantity": "8"`, `"OrderCreationSource": "0"`, `"IsBundle": "False"`, `"ImageHeight": ""`.
 *
 * Found from the type errors of the report run (the schemas as written, AJV `allErrors`), so a payload
 * that has none costs nothing more. Where the schema says number, integer or boolean (and not string)
 * and the payload has a string:
 * - a string that is exactly a JSON number (`"8"`, `"21.55"`, `"-1"`, `"1e2"`; not `"8 "`, `"+8"`,
 *   `"0x1F"`, `"Infinity"`, `"1e400"`) becomes that number; for an integer only if it is one (`"1.5"` stays);
 * - `"true"` / `"false"` in any case becomes the boolean;
 * - `""` as an object property is read as absent (the property is removed; a required one is then missing);
 * - anything else stays as sent, and the tolerant validation refuses it (400 naming the pointer).
 *
 * AJV's own `coerceTypes` is not used: it reads `" 8"`, `"0x1F"`, `"Infinity"` as numbers, `null` as 0,
 * and numbers as strings, and it changes the payload in place. The change here is copy-on-write: the
 * containers on the way to a coerced value are copied, so the payload as received (which the idempotency
 * fingerprint hashes) keeps the text.
 */
import type { ErrorObject } from './ajv.js';

export const COERCED_RULE = 'coerced from a string';
export const EMPTY_RULE = 'is an empty string (read as absent)';

/** JSON's number grammar (RFC 8259 §6), nothing around it. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const ABSENT = Symbol('absent');
const UNREAD = Symbol('unread');

export interface Coercion {
  /** JSON pointer of the value, as received. */
  pointer: string;
  tokens: string[];
  /** The value it becomes, or ABSENT (the property is removed); a string is a listed value of an enum (enum-case.ts). */
  value: number | boolean | string | typeof ABSENT;
}

/** What `text` reads as where one of `types` (AJV's list, e.g. `integer` or `number,null`) is expected (`inObject`: it is an object's property). */
function read(text: string, types: string, inObject: boolean): number | boolean | typeof ABSENT | typeof UNREAD {
  const numeric = types.includes('number') || types.includes('integer');
  const boolean = types.includes('boolean');
  if (text === '') return inObject && (numeric || boolean) ? ABSENT : UNREAD;
  if (numeric && JSON_NUMBER.test(text)) {
    const n = Number(text);
    if (Number.isFinite(n) && (types.includes('number') || Number.isInteger(n))) return n;
  }
  if (boolean) {
    const lower = text.toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
  }
  return UNREAD;
}

const unescape = (token: string) => (token.includes('~') ? token.replace(/~1/g, '/').replace(/~0/g, '~') : token);
const TYPED = /number|integer|boolean/;

/** The coercions a payload needs, from the AJV errors of its report run (none when no type error is of this kind). */
export function coercionsOf(errors: readonly ErrorObject[], input: unknown): Coercion[] {
  // Expected types by pointer (a pointer may fail several branches of a combinator: their types are joined).
  let expected: Map<string, string> | undefined;
  for (const e of errors) {
    if (e.keyword !== 'type') continue;
    const types = String((e.params as { type: unknown }).type);
    if (types.includes('string') || !TYPED.test(types)) continue;
    expected ??= new Map();
    const known = expected.get(e.instancePath);
    expected.set(e.instancePath, known === undefined ? types : `${known},${types}`);
  }
  if (!expected) return [];
  const out: Coercion[] = [];
  for (const [pointer, types] of expected) {
    const tokens: string[] = [];
    let parent: unknown;
    let value: unknown = input;
    for (let start = 1, end = 0; start > 0 && start <= pointer.length; start = end + 1) {
      end = pointer.indexOf('/', start);
      if (end < 0) end = pointer.length;
      const token = unescape(pointer.slice(start, end));
      tokens.push(token);
      parent = value;
      value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[token] : undefined;
    }
    if (typeof value !== 'string' || tokens.length === 0) continue;
    const read_ = read(value, types, !Array.isArray(parent));
    if (read_ !== UNREAD) out.push({ pointer, tokens, value: read_ });
  }
  return out;
}

/**
 * `input` with the coercions made, copy-on-write: the containers on the way to each coerced value are
 * shallow copies, everything else is shared; `input` itself is not changed. The containers copied
 * (the originals) are pushed to `copied`.
 */
export function applyCoercions<T>(input: T, coercions: readonly Coercion[], copied: object[] = []): T {
  if (coercions.length === 0) return input;
  const copies = new Set<object>();
  const copy = (o: object): Record<string, unknown> => {
    const c = (Array.isArray(o) ? o.slice() : { ...o }) as Record<string, unknown>;
    copies.add(c);
    copied.push(o);
    return c;
  };
  const root = copy(input as object);
  for (const { tokens, value } of coercions) {
    let at = root;
    for (let i = 0; i < tokens.length - 1; i++) {
      const child = at[tokens[i]] as object;
      const next = copies.has(child) ? child as Record<string, unknown> : copy(child);
      at[tokens[i]] = next;
      at = next;
    }
    const last = tokens[tokens.length - 1];
    if (value === ABSENT) delete at[last];
    else at[last] = value;
  }
  return root as T;
}

/** The deviation a coercion is reported as (pointer and rule, never the value). */
export const coercionIssue = (c: Coercion) => ({ pointer: c.pointer, rule: c.value === ABSENT ? EMPTY_RULE : COERCED_RULE });
