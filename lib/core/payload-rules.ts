/**
 * The rules of a payload beyond its schema, in one place: what the kit refuses in it before anything
 * runs, and the fields a delivery must carry. Each is a 400 `INVALID_REQUEST`, naming a field, never
 * its value. The schema's own `required` lists are checked by the validate stage (validation/).
 *
 * What the kit refuses in a POST payload before anything runs (a permanent 400: a retry cannot fix
 * it, and letting it through would make the store fail on every redelivery or two orders collide):
 * - nesting deeper than MAX_DEPTH (the canonical-JSON limit), `__proto__` keys and
 *   `constructor.prototype`, at any depth the payload is allowed to have;
 * - a NUL character (U+0000) or ill-formed Unicode (a lone surrogate) in any key or string: no
 *   database keeps them as sent (PostgreSQL refuses NUL and replaces lone surrogates);
 * - an OrderId that does not identify one order exactly: empty or blank, longer than
 *   MAX_ORDER_ID_LENGTH, or a number JSON cannot carry exactly (beyond 2^53).
 *
 * The fields a delivery must carry beyond what its schema says (issue 48 item 4; "Required fields",
 * below): the registry entry's id of an exactly-once callback (parse stage), the fields its
 * idempotency key is made of (`keyFields`, key stage), and whether its reply must report a payment
 * (adapter stage; the key stage records it).
 */
import { MAX_DEPTH } from '../json/canonical.js';
import { cutText, MAX_LOGGED_ID } from '../shared/bounded.js';
import { PipelineFailure } from '../shared/errors.js';
import { isObject } from '../shared/options.js';
import { describeIssues } from '../validation/issues.js';
import type { CallbackEntry } from './registry.js';
import type { Validated } from './stages/types.js';

// ── What is refused in a payload.

export const MAX_ORDER_ID_LENGTH = 200;

const invalid = (reason: string, description: string) => new PipelineFailure('INVALID_REQUEST', reason, description);

const isWellFormed = (s: string): boolean =>
  typeof (s as { isWellFormed?: () => boolean }).isWellFormed === 'function'
    ? (s as unknown as { isWellFormed(): boolean }).isWellFormed()
    : !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

/** The problem of a string (a key or a value), or null. */
function textProblem(s: string): string | null {
  if (s.includes('\u0000')) return 'a NUL character (U+0000)';
  if (!isWellFormed(s)) return 'ill-formed Unicode (a lone surrogate)';
  return null;
}

/** Walks a parsed payload; the first problem found, or null. */
export function payloadProblem(value: unknown, depth = 0): string | null {
  if (typeof value === 'string') return textProblem(value);
  if (value === null || typeof value !== 'object') return null;
  if (depth >= MAX_DEPTH) return `nesting deeper than ${MAX_DEPTH} levels`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = payloadProblem(value[i], depth + 1);
      if (p) return p;
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (key === '__proto__') return 'a __proto__ key';
    if (key === 'constructor' && v !== null && typeof v === 'object' && Object.prototype.hasOwnProperty.call(v, 'prototype')) return 'a constructor.prototype key';
    const p = textProblem(key) ?? payloadProblem(v, depth + 1);
    if (p) return p;
  }
  return null;
}

/**
 * Forbidden keys are written literally or escaped. In JSON text decoded from bytes, NUL and lone
 * surrogates can only be written as \u escapes (a NUL must be escaped in valid JSON, and UTF-8
 * decoding leaves no lone surrogate); a body handed over as a string (a Lambda event's, a custom
 * binding's) may hold a lone surrogate as itself. One scan of the raw text tells whether the walk is
 * needed. (Deeper nesting without any of them is refused by the key stage (stages/key.ts), which
 * hashes to the same depth.)
 */
const MAY_HAVE_PROBLEM = /__proto__|constructor|\\u/;
const STRING_MAY_HAVE_PROBLEM = /__proto__|constructor|\\u|[\u0000\uD800-\uDFFF]/;

/** Whether raw JSON text may hold anything payloadProblem finds (else the walk is skipped); `fromBytes`: decoded from bytes. */
export const textMayHaveProblem = (text: string, fromBytes = false): boolean =>
  (fromBytes ? MAY_HAVE_PROBLEM : STRING_MAY_HAVE_PROBLEM).test(text);

/** The OrderId of a delivery as the kit keys it, or a 400 when it cannot identify one order exactly. */
export function readOrderId(value: unknown, field: string): string | undefined {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) {
      throw invalid(`${field} is a number JSON cannot carry exactly`, `${field} must be a string (or an integer up to 2^53 - 1)`);
    }
    return String(value);
  }
  if (typeof value !== 'string') return undefined;
  if (value.trim() === '') throw invalid(`${field} is empty`, `${field} must not be empty`);
  if (value.length > MAX_ORDER_ID_LENGTH) throw invalid(`${field} is ${value.length} characters long`, `${field} must be at most ${MAX_ORDER_ID_LENGTH} characters`);
  const problem = textProblem(value);
  if (problem) throw invalid(`${field} has ${problem}`, `${field} must be well-formed text without NUL characters`);
  return value;
}

/**
 * The first of `names` that one object of the JSON `text` has twice, or undefined. JSON.parse keeps
 * the last of repeated members, so a body with a wrong MerchantGUID and then the right one, or two
 * OrderIds, would be read as the last one says while a log, a proxy or the service read the first.
 * Hot path: no `\u` escape (a key may be spelt with one) and each name's quoted form found at most
 * once: one regex pass (about 8 µs for an 18 kB order, a few % of its JSON.parse). Otherwise one
 * scan of the keys (no second parse; about a JSON.parse's time): a body with escapes, or with the
 * name as a value or in two objects (an envelope), none of which the real-world fixtures have.
 * `text` is JSON that JSON.parse accepted.
 */
export function repeatedMember(text: string, names: readonly string[]): string | undefined {
  if (text.includes('\\u')) return scanKeys(text, names);
  // One pass for every name (a regex of the quoted names): a second hit of one name calls for the key scan.
  const find = quotedNames(names);
  find.lastIndex = 0;
  let hits = 0;
  for (let m = find.exec(text); m !== null; m = find.exec(text)) {
    const bit = 1 << names.indexOf(m[1]);
    if (hits & bit) return scanKeys(text, names);
    hits |= bit;
  }
  return undefined;
}

/** The regex finding `"name"` for each of `names`, made once per list (the parse stage keeps one list per registry entry). */
const finders = new WeakMap<readonly string[], RegExp>();
function quotedNames(names: readonly string[]): RegExp {
  let re = finders.get(names);
  if (!re) finders.set(names, re = new RegExp(`"(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})"`, 'g'));
  return re;
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Whether the quote at `at` is escaped (an odd run of backslashes before it). */
function escapedQuote(text: string, at: number): boolean {
  let n = 0;
  while (text.charCodeAt(at - 1 - n) === 0x5c) n++;
  return n % 2 === 1;
}

const STRUCTURE = /[{}"]/g;

/** One pass over valid JSON text: each object's members named in `names`, the first one seen twice in one object. */
function scanKeys(text: string, names: readonly string[]): string | undefined {
  const backslashes = text.includes('\\');
  // One entry per open object: the names it has had (null until one comes).
  const objects: Array<string[] | null> = [];
  STRUCTURE.lastIndex = 0;
  for (let m = STRUCTURE.exec(text); m !== null; m = STRUCTURE.exec(text)) {
    const start = m.index;
    const c = text.charCodeAt(start);
    if (c === 0x7b) { objects.push(null); continue; }
    if (c === 0x7d) { objects.pop(); continue; }
    let end = text.indexOf('"', start + 1);
    while (backslashes && escapedQuote(text, end)) end = text.indexOf('"', end + 1);
    if (end < 0) break; // not JSON (JSON.parse accepted it, so never): no endless rescan
    STRUCTURE.lastIndex = end + 1;
    let next = end + 1;
    while (isSpace(text.charCodeAt(next))) next++;
    if (text.charCodeAt(next) !== 0x3a) continue; // a value, not a member name
    const raw = text.slice(start + 1, end);
    const key = backslashes && raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
    if (!names.includes(key)) continue;
    const seen = objects[objects.length - 1] ?? (objects[objects.length - 1] = []);
    if (seen.includes(key)) return key;
    seen.push(key);
  }
  return undefined;
}

// ── Required fields.

/**
 * The OrderId of a delivery. An exactly-once callback's keys its delivery: it must be there and
 * exact, whatever the schema says (fail closed: without it, nothing could be done exactly once). A
 * read's (the cart's OrderID) is only logged.
 */
export function orderIdOf(entry: CallbackEntry, input: unknown): string | undefined {
  const field = entry.idField;
  const raw = (input as Record<string, unknown>)[field];
  // Only logged (and a span attribute): cut at the kit's id limit, marked.
  if (!entry.exactlyOnce) return typeof raw === 'string' ? cutText(raw, MAX_LOGGED_ID) : undefined;
  const orderId = readOrderId(raw, field);
  if (orderId === undefined) {
    const description = describeIssues([{ pointer: `/${field}`, rule: raw === undefined || raw === null ? 'is required' : 'must be string or number' }]);
    throw invalid(`validation failed: ${description} (exactly-once: the registry entry requires it)`, description);
  }
  return orderId;
}

/** The value at a dotted path (`DispatchedParcel.ParcelCode`) of the input. */
function valueAt(input: unknown, path: string): unknown {
  let value: unknown = input;
  for (const part of path.split('.')) value = isObject(value) ? value[part] : undefined;
  return value;
}

/**
 * The key fields of an input as text (a number and its decimal text are the same event). A field is a
 * dotted path; a trailing `?` makes it optional: absent, null or empty, it is left out of the key (one
 * event "without it"). 400 when a required field is missing, when any field is not a string or number of
 * at most 200 characters, or when one is a number JSON cannot carry exactly (beyond 2^53:
 * 12345678901234567890 and …891 parse to one number, so two returns would get one key), as an
 * unsafe-integer OrderId is.
 */
export function keyFieldsOf(input: unknown, fields: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const spec of fields) {
    const optional = spec.endsWith('?');
    const field = optional ? spec.slice(0, -1) : spec;
    const value = valueAt(input, field);
    if (optional && (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))) continue;
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
      throw new PipelineFailure('INVALID_REQUEST', `${field} is a number JSON cannot carry exactly`, `${field} must be a string (or an integer up to 2^53 - 1)`);
    }
    const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : '';
    if (text === '' || text.length > 200) {
      throw new PipelineFailure('INVALID_REQUEST', `${field} missing or not a string`,
        optional ? `${field}, when given, must be a string of at most 200 characters` : `${field} is required (a non-empty string of at most 200 characters)`);
    }
    out[field] = text;
  }
  return out;
}

/** Whether the reply of a delivery must report a payment (PaymentAmount, PaymentCurrencyCode): the registry entry's `payment`. */
export function paymentExpected(delivery: Pick<Validated, 'entry' | 'input'>): boolean {
  const { payment } = delivery.entry;
  if (payment === 'always') return true;
  return payment === 'withPaymentDetails' && isObject((delivery.input as Record<string, unknown>)?.PaymentDetails);
}
