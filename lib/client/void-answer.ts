/**
 * VoidParcel's answer read by meaning (docs.global-e.com `shipping---void-parcel`): every C-code the
 * answer carries, in each shape the service uses for its codes — a top-level `Code` or `ErrorCode`,
 * the start of `ErrorText`/`Error`/`Message`, and every entry of `Errors` (an object's `Code` or
 * `ErrorCode`, or a text that starts with the code) — whatever the HTTP status and `IsSuccess` say.
 * C102 ("voided, the shipper's own cancellation failed") is a voided parcel: a success with a warning,
 * in any of those shapes (200 or 400, IsSuccess true or false). C100, C101, C103 and C104 refuse; one
 * of them beside C102 wins (fail closed: the void is not claimed).
 */
import { isObject } from '../shared/options.js';
import { parseJson } from './response.js';

export interface CCode {
  code: string;
  /** The service's text beside the code, when it gave one. */
  text?: string;
}

const C_CODE = /^\s*(C\d{3})\b[\s:.-]*(.*)$/s;
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** A value that is a C-code (`"C102"`), or a text that starts with one (`"C104 not found"`). */
function fromText(v: unknown): CCode | undefined {
  if (!nonEmpty(v)) return undefined;
  const m = C_CODE.exec(v);
  return m ? { code: m[1], ...(m[2].trim() !== '' ? { text: m[2].trim() } : {}) } : undefined;
}

const textOf = (o: Record<string, unknown>): string | undefined =>
  [o.Message, o.Error, o.Description, o.ErrorText].find(nonEmpty);

/** The codes of one object carrying a code: its `Code` / `ErrorCode`, else the start of its texts. */
function fromObject(o: Record<string, unknown>): CCode | undefined {
  const coded = fromText(o.Code) ?? fromText(o.ErrorCode);
  if (coded) {
    const text = textOf(o);
    return { code: coded.code, ...(text ? { text } : coded.text ? { text: coded.text } : {}) };
  }
  return fromText(o.ErrorText) ?? fromText(o.Error) ?? fromText(o.Message);
}

/** Every C-code of an answer body (text), in the order given; [] when the body is not a JSON object or carries none. */
export function voidCodes(text: string): CCode[] {
  const parsed = parseJson(text);
  if (!parsed.ok || !isObject(parsed.value)) return [];
  const body = parsed.value;
  const out: CCode[] = [];
  const top = fromObject(body);
  if (top) out.push(top);
  for (const entry of Array.isArray(body.Errors) ? body.Errors : []) {
    const found = isObject(entry) ? fromObject(entry) : fromText(entry);
    if (found) out.push(found);
  }
  return out;
}
