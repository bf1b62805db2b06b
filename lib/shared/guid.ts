/**
 * What is wrong with a configured MerchantGUID (issue 41): the service's MerchantGUIDs are GUIDs,
 * 8-4-4-4-12 hex digits (either case). Whitespace is an error, never trimmed: a copied value with a
 * trailing space or newline would otherwise match nothing the service sends.
 */

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An example in the right form, for messages. */
export const GUID_EXAMPLE = '6a3c1f52-0d7e-4b9a-8f21-5c4e9d0b7a13';

/** Undefined when `value` is a GUID; otherwise what is wrong with it, in words (the value itself is not repeated). */
export function guidProblem(value: string): string | undefined {
  if (GUID.test(value)) return undefined;
  if (value.trim() !== value) return 'has whitespace before or after it (remove it; it is not trimmed)';
  if (/\s/.test(value)) return 'contains whitespace';
  if (/^\{.*\}$/.test(value) && GUID.test(value.slice(1, -1))) return 'is in braces: give the GUID without { }';
  if (/^[0-9a-f]{32}$/i.test(value)) return `has no hyphens: give it as 8-4-4-4-12 hex digits, e.g. ${GUID_EXAMPLE}`;
  if (/^\{.*\}$|^<.*>$|^\$\{.*\}$/.test(value)) return 'looks like a placeholder: put your MerchantGUID from the service there';
  return `is not a GUID (8-4-4-4-12 hex digits, e.g. ${GUID_EXAMPLE}; ${value.length} characters given)`;
}
