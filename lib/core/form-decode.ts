import { isObject } from '../shared/options.js';

const PLUS = 0x2b;
const PERCENT = 0x25;

/**
 * Form decoding of URL-encoded payload fields, exactly once: `+` is a space, `%XX` is UTF-8.
 * A malformed value (`100%`, `%zz`, a cut UTF-8 sequence) is returned unchanged; never throws.
 * The result is `decodeURIComponent(value.replace(/\+/g, ' '))` (the value itself where that throws),
 * made in one pass without the copy with spaces or the call into the runtime (test/core/form-decode.test.ts
 * compares the two).
 */
export function formDecode(value: string): string {
  return decode(value, false);
}

/**
 * Characters form encoding never leaves in a value, so a value holding one was not encoded: a space,
 * `@`, `,` and `/` (tested in `decode`, as char codes). Real payloads encode the Primary* parties
 * but send Secondary* and PaymentDetails plain.
 */
const isPlainMark = (c: number): boolean => c === 0x20 || c === 0x40 || c === 0x2c || c === 0x2f;
/** An international phone number (`+12126343952`, `+1(212)634-3952`): a leading `+` and no other sign of encoding. */
const PHONE = /^\+[0-9().-]+$/;

/**
 * The decode rule of the kit (docs/callbacks.md#url-decoding): decode only what was encoded. A value
 * with a literal space, `@`, `,` or `/`, or shaped like an international phone number, is plain and
 * returned as it is; anything else is form-decoded once (malformed escapes left as sent).
 */
export function decodeIfEncoded(value: string): string {
  if (!value.includes('%') && !value.includes('+')) return value;
  if (value.charCodeAt(0) === PLUS && PHONE.test(value)) return value;
  return decode(value, true);
}


/** The value of the hex digit with char code `c`, or -1. */
function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/** The byte of the `%XX` escape at `i` of `s`, or -1 when there is none (past the end, charCodeAt is NaN: no hex digit). */
function escapedByte(s: string, i: number): number {
  if (s.charCodeAt(i) !== PERCENT) return -1;
  const high = hexDigit(s.charCodeAt(i + 1));
  const low = hexDigit(s.charCodeAt(i + 2));
  return high < 0 || low < 0 ? -1 : (high << 4) | low;
}

/**
 * The UTF-8 sequence escaped at `i` (`%41`, `%C3%A9`) as its code point × 4 + its bytes − 1, or a negative number where
 * decodeURIComponent throws: a bad escape, a lone continuation byte, an overlong form, a surrogate,
 * a code point above U+10FFFF, a cut sequence (RFC 3629's well-formed sequences, nothing else).
 */
function escapedSequence(s: string, i: number): number {
  const first = escapedByte(s, i);
  if (first < 0x80) return first << 2; // ASCII (one byte), or negative: no escape
  let length: number;
  let cp: number;
  let low = 0x80;
  let high = 0xbf;
  if (first >= 0xc2 && first <= 0xdf) {
    length = 2;
    cp = first & 0x1f;
  } else if (first >= 0xe0 && first <= 0xef) {
    length = 3;
    cp = first & 0x0f;
    if (first === 0xe0) low = 0xa0; // overlong
    else if (first === 0xed) high = 0x9f; // a surrogate
  } else if (first >= 0xf0 && first <= 0xf4) {
    length = 4;
    cp = first & 0x07;
    if (first === 0xf0) low = 0x90; // overlong
    else if (first === 0xf4) high = 0x8f; // above U+10FFFF
  } else return -1;
  for (let k = 1; k < length; k++) {
    const next = escapedByte(s, i + 3 * k);
    if (next < low || next > high) return -1;
    cp = (cp << 6) | (next & 0x3f);
    low = 0x80;
    high = 0xbf;
  }
  return (cp << 2) | (length - 1);
}

/**
 * Form-decodes `value` in one pass; `value` itself when an escape is malformed or, with
 * `plainMarks`, when it holds a plain mark (isPlainMark). Runs on every encoded field
 * of every order: char codes and slices, no regular expression.
 */
function decode(value: string, plainMarks: boolean): string {
  let out = '';
  let from = 0; // value[from..i) is not copied to out yet
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === PLUS) {
      out += value.slice(from, i) + ' ';
      from = i + 1;
    } else if (c === PERCENT) {
      const sequence = escapedSequence(value, i);
      if (sequence < 0) return value;
      out += value.slice(from, i) + String.fromCodePoint(sequence >> 2);
      i += 3 * (sequence & 3) + 2;
      from = i + 1;
    } else if (plainMarks && isPlainMark(c)) return value;
  }
  return out + value.slice(from);
}

/**
 * A decode rule is a dotted path into an order: `PrimaryBilling.*` (every string field of the object),
 * `PaymentDetails.Address1` (one field), `Parcels[].TrackingUrl` (a field of each array element).
 */
type Segment = { key: string; each: boolean } | { key: '*'; each: false };
export type CompiledRule = Segment[];

export function compileRule(rule: string): CompiledRule | null {
  if (typeof rule !== 'string' || rule.length === 0) return null;
  const parts = rule.split('.');
  const out: Segment[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (p === '*') {
      if (i !== parts.length - 1) return null;
      out.push({ key: '*', each: false });
      continue;
    }
    const m = /^([A-Za-z0-9_$-]+)(\[\])?$/.exec(p);
    if (!m) return null;
    out.push({ key: m[1], each: Boolean(m[2]) });
  }
  return out;
}


/**
 * `obj` itself when this decoding made it (a copy it may write to), else a shallow copy that it owns
 * from now on: each object or array of the order is copied at most once, however many fields of it change.
 */
function writable<T extends object>(obj: T, owned: object[]): T {
  // A list, not a Set: a handful of copies per order, compared by identity (no identity hash for each object).
  if (owned.includes(obj)) return obj;
  const copy = (Array.isArray(obj) ? obj.slice() : { ...obj }) as T;
  owned.push(copy);
  return copy;
}

/**
 * `target` with the fields `rule` names (from segment `index` on) decoded: where a field changes, the
 * objects and arrays on the way to it are copies (`owned`), the rest is shared; `target` itself when
 * nothing changes. The order as received is never changed, so its fingerprint does not depend on
 * when it is taken.
 */
function applyRule(target: unknown, rule: CompiledRule, index: number, owned: object[]): unknown {
  if (!isObject(target)) return target;
  const seg = rule[index];
  const last = index === rule.length - 1;
  // Runs on every order: plain loops, no entry arrays or callbacks.
  if (seg.key === '*') {
    let out = target;
    const keys = Object.keys(target);
    for (let i = 0; i < keys.length; i++) {
      const v = target[keys[i]];
      if (typeof v !== 'string') continue;
      const decoded = decodeIfEncoded(v);
      if (decoded === v) continue;
      out = writable(out, owned);
      out[keys[i]] = decoded;
    }
    return out;
  }
  const value = target[seg.key];
  let changed: unknown = value;
  if (seg.each) {
    if (!Array.isArray(value)) return target;
    let items: unknown[] = value;
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) continue; // a hole stays a hole
      const item: unknown = value[i];
      const next = last ? (typeof item === 'string' ? decodeIfEncoded(item) : item) : applyRule(item, rule, index + 1, owned);
      if (next === item) continue;
      items = writable(items, owned);
      items[i] = next;
    }
    changed = items;
  } else if (last) {
    if (typeof value === 'string') changed = decodeIfEncoded(value);
  } else changed = applyRule(value, rule, index + 1, owned);
  if (changed === value) return target;
  const out = writable(target, owned);
  out[seg.key] = changed;
  return out;
}

/**
 * The order with the fields named by `rules` decoded, in it and in every order of its `Subs`: a copy
 * where a field changed (copy on write, each object at most once), `order` itself when none did.
 * `order` is never changed.
 */
export function decodeOrder<T>(order: T, rules: readonly CompiledRule[], depth = 0, owned: object[] = []): T {
  if (!isObject(order) || depth > 4) return order;
  let out: Record<string, unknown> = order;
  for (const rule of rules) out = applyRule(out, rule, 0, owned) as Record<string, unknown>;
  const subs = out.Subs;
  if (Array.isArray(subs)) {
    for (let i = 0; i < subs.length; i++) {
      const sub: unknown = subs[i];
      const next = decodeOrder(sub, rules, depth + 1, owned);
      if (next === sub) continue;
      out = writable(out, owned);
      const list = writable(out.Subs as unknown[], owned);
      list[i] = next;
      out.Subs = list;
    }
  }
  return out as T;
}

const PAYMENT_PERSONAL_FIELDS = [
  'OwnerName', 'OwnerFirstName', 'OwnerLastName', 'Address1', 'Address2', 'City', 'CountryName',
  'Email', 'Fax', 'Phone1', 'Phone2', 'StateCode', 'StateOrProvice', 'StateOrProvince', 'Zip',
];

/** The default decode set: see docs/callbacks.md#url-decoding. */
export const DEFAULT_DECODE_FIELDS: readonly string[] = Object.freeze([
  'PrimaryBilling.*',
  'PrimaryShipping.*',
  'SecondaryBilling.*',
  'SecondaryShipping.*',
  ...PAYMENT_PERSONAL_FIELDS.map((f) => `PaymentDetails.${f}`),
  'InternationalDetails.OrderTrackingUrl',
  'InternationalDetails.OrderWaybillUrl',
  'Parcels[].TrackingUrl',
  'TrackingURL',
  'DispatchedParcel.ParcelTracking.ParcelTrackingUrl',
]);
