/**
 * Listed values written another way (tolerant validation, docs/compatibility.md row R3-1): the service's
 * own documentation sends `"DocumentExtension": "pdf"` where the schema lists `"PDF"`. Where a string
 * fails an `enum` of strings and exactly one listed value equals it once both are read the same way
 * (surrounding spaces and one leading dot removed, compared in upper case), the value becomes that listed
 * value: the adapter gets `"PDF"` for `"pdf"`, `".Pdf"` or `" PDF "`; the difference is reported
 * (`rule: ENUM_CASE_RULE`, never the value). A value that matches no listed value (`"exe"`) is left as
 * sent, and the tolerant validation refuses it (400 naming the pointer and the listed values).
 *
 * Found from the `enum` errors of the report run (the schemas as written, AJV `allErrors`), as the typed
 * values sent as text are (coerce.ts): nothing of it lives in the schemas, so any validator compiled
 * from them (AJV at run time or standalone code) reports the same errors and the reading is the same.
 * The values of one pointer's enums are joined (DocumentTypeCode lists numbers and names in an anyOf).
 */
import type { ErrorObject } from './ajv.js';

/** One value to replace by its listed spelling (applied with coerce.ts's applyCoercions). */
export interface EnumReading { pointer: string; tokens: string[]; value: string }

export const ENUM_CASE_RULE = 'is a listed value written in another case or with a leading dot (read as the listed value)';

/** How a listed value and a sent one are compared. */
export const enumKey = (value: string): string => value.trim().replace(/^\./, '').toUpperCase();

const unescape = (token: string) => (token.includes('~') ? token.replace(/~1/g, '/').replace(/~0/g, '~') : token);

/** The readings a payload needs, from the AJV errors of its report run (none when no enum error is of this kind). */
export function enumReadingsOf(errors: readonly ErrorObject[], input: unknown): EnumReading[] {
  let listed: Map<string, string[]> | undefined;
  for (const e of errors) {
    if (e.keyword !== 'enum') continue;
    const allowed = (e.params as { allowedValues?: unknown }).allowedValues;
    if (!Array.isArray(allowed)) continue;
    listed ??= new Map();
    const known = listed.get(e.instancePath) ?? [];
    for (const v of allowed) if (typeof v === 'string') known.push(v);
    listed.set(e.instancePath, known);
  }
  if (!listed) return [];
  const out: EnumReading[] = [];
  for (const [pointer, values] of listed) {
    const tokens = pointer === '' ? [] : pointer.slice(1).split('/').map(unescape);
    let value: unknown = input;
    for (const t of tokens) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[t] : undefined;
    if (typeof value !== 'string' || tokens.length === 0) continue;
    const key = enumKey(value);
    const matches = [...new Set(values.filter((v) => enumKey(v) === key))];
    if (matches.length === 1 && matches[0] !== value) out.push({ pointer, tokens, value: matches[0] });
  }
  return out;
}
