import { isObject } from '../shared/options.js';

/**
 * Form decoding of URL-encoded payload fields, exactly once: `+` is a space, `%XX` is UTF-8.
 * A malformed value (`100%`, `%zz`, a cut UTF-8 sequence) is returned unchanged; never throws.
 */
export function formDecode(value: string): string {
  if (!value.includes('%')) return value.includes('+') ? value.replace(/\+/g, ' ') : value; // nothing for decodeURIComponent to do
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/**
 * Characters form encoding never leaves in a value: a value holding one was not encoded.
 * (Real payloads encode the Primary* parties but send Secondary* and PaymentDetails plain.)
 */
const PLAIN_MARK = /[ @,/]/;
/** An international phone number (`+12126343952`, `+1(212)634-3952`): a leading `+` and no other sign of encoding. */
const PHONE = /^\+[0-9().-]+$/;

/**
 * The decode rule of the kit (docs/callbacks.md#url-decoding): decode only what was encoded. A value
 * with a literal space, `@`, `,` or `/`, or shaped like an international phone number, is plain and
 * returned as it is; anything else is form-decoded once (malformed escapes left as sent).
 */
export function decodeIfEncoded(value: string): string {
  if (!value.includes('%') && !value.includes('+')) return value;
  if (PLAIN_MARK.test(value) || PHONE.test(value)) return value;
  return formDecode(value);
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


function applyRule(target: unknown, rule: CompiledRule, index: number): void {
  if (!isObject(target)) return;
  const seg = rule[index];
  const last = index === rule.length - 1;
  // Runs on every order: plain loops, no entry arrays or callbacks.
  if (seg.key === '*') {
    const keys = Object.keys(target);
    for (let i = 0; i < keys.length; i++) {
      const v = target[keys[i]];
      if (typeof v === 'string') {
        const decoded = decodeIfEncoded(v);
        if (decoded !== v) target[keys[i]] = decoded;
      }
    }
    return;
  }
  const value = target[seg.key];
  if (seg.each) {
    if (!Array.isArray(value)) return;
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) continue; // a hole stays a hole
      const item: unknown = value[i];
      if (last) {
        if (typeof item === 'string') value[i] = decodeIfEncoded(item);
      } else applyRule(item, rule, index + 1);
    }
    return;
  }
  if (last) {
    if (typeof value === 'string') target[seg.key] = decodeIfEncoded(value);
  } else applyRule(value, rule, index + 1);
}

/** Decodes the fields named by `rules` in `order` (in place) and in every order of its `Subs`. */
export function decodeOrder(order: unknown, rules: readonly CompiledRule[], depth = 0): void {
  if (!isObject(order) || depth > 4) return;
  for (const rule of rules) applyRule(order, rule, 0);
  const subs = order.Subs;
  if (Array.isArray(subs)) for (const sub of subs) decodeOrder(sub, rules, depth + 1);
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
]);
