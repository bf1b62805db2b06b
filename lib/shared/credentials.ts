/**
 * Credential masking patterns: a credential is masked in every letter case (the kit accepts the
 * MerchantGUID in any case, and a service or an ERP may echo a token or a GUID upper-cased) and in
 * every spelling a service may echo it in (plain, JSON-escaped, `\uXXXX`-escaped, URL-encoded:
 * spellings.ts), and a MerchantGUID also with or without its braces and hyphens (`{5B0E…}`, `5b0e…`
 * without hyphens). The patterns are global RegExps for maskSecrets / createSafeLogger (logger.ts).
 */
import { isMaskableSecret, type Secret } from './logger.js';
import { charSpellings, spellingsPattern, withMinimumLength } from './spellings.js';

/** A credential value in any letter case and spelling (undefined when too short to mask: MIN_SECRET_LENGTH). */
export function anyCasePattern(value: string): RegExp | undefined {
  if (!isMaskableSecret(value)) return undefined;
  return spellingsPattern(value);
}

/** An optional character in any of its spellings. */
const optional = (c: string): string => `${charSpellings(c)}?`;

/**
 * A MerchantGUID in any letter case and spelling, with or without braces and with or without
 * hyphens (between any two characters: `5b0e6c2a-…`, `5B0E6C2A…`, `{5b0e…}`, `%7B5b0e…`). Whitespace
 * around the configured value is not part of it. Undefined when what is left is too short to mask.
 */
export function guidPattern(guid: string): RegExp | undefined {
  const core = guid.trim().replace(/^\{/, '').replace(/\}$/, '').replace(/-/g, '');
  if (!isMaskableSecret(core)) return undefined;
  // Braces are optional around the value; a hyphen may stand between any two of its characters.
  const body = Array.from(core, charSpellings).join(optional('-'));
  // Braces and hyphens optional: a match has at least one character per character of the value.
  return withMinimumLength(new RegExp(`${optional('{')}${body}${optional('}')}`, 'giu'), Array.from(core).length);
}

/** The masking patterns of configured MerchantGUIDs and other credentials (tokens, passwords). */
export function credentialPatterns(guids: readonly string[], others: readonly string[]): Secret[] {
  const out: Secret[] = [];
  for (const g of guids) {
    const p = guidPattern(g);
    if (p) out.push(p);
  }
  for (const s of others) {
    const p = anyCasePattern(s);
    if (p) out.push(p);
  }
  return out;
}
