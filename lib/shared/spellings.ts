/**
 * Every spelling in which a credential may come back in text the kit writes: a service (or an ERP,
 * a proxy) that echoes the request it received writes it plain, JSON-escaped (`"` as `\"`, `\` as
 * `\\`, `/` as `\/`, control characters as `\n` …), `\uXXXX`-escaped (a .NET service escapes `+`,
 * `&`, `'`, `<`, `>`, `"` and every non-ASCII character so, astral ones as two escapes), URL-encoded
 * (`%XX` per UTF-8 byte in either hex case, a space as `%20` or `+`), and any of these escaped once
 * more (a JSON text inside a JSON string: `\\\"`; a URL-encoded JSON text: `%5C%22`). The pattern of a
 * value matches it in each of these spellings, character by character and in any letter case, so a
 * mix of them (the echo of an echo) is masked too. No imports: logger.ts and credentials.ts use it.
 */

/** RegExp syntax characters (the `u` flag refuses escaping anything else outside a class). */
export const escapeChar = (c: string): string => (/[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c);

/** One or more backslashes, plain or URL-encoded: an escape at any depth (`\"`, `\\\"`, `%5C%22`). */
const BACKSLASHES = '(?:\\\\|%5c)+';

/** JSON's short escapes of control characters. */
const SHORT: Readonly<Record<string, string>> = { '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' };

/** Characters a JSON or JavaScript encoder may write after a backslash as themselves. */
const SELF_ESCAPED = new Set(['"', '/', "'"]);

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');

/** `%XX` for each UTF-8 byte of `c` (the `i` flag of the pattern takes either hex case). */
const UTF8 = new TextEncoder();
const percent = (c: string): string => Array.from(UTF8.encode(c), (b) => `%${hex(b, 2)}`).join('');

/** `\uXXXX` for each UTF-16 unit of `c`, each after a backslash at any depth. */
const unicode = (c: string): string => {
  const units: string[] = [];
  for (let i = 0; i < c.length; i++) units.push(`${BACKSLASHES}u${hex(c.charCodeAt(i), 4)}`);
  return units.join('');
};

/** The source of a group matching one character (a code point) in every spelling. */
export function charSpellings(c: string): string {
  const alternatives: string[] = [];
  if (c === '\\') {
    alternatives.push(BACKSLASHES);
  } else {
    const plain = [escapeChar(c), percent(c), ...(c === ' ' ? ['\\+'] : [])].join('|');
    alternatives.push(SELF_ESCAPED.has(c) ? `(?:\\\\|%5c)*(?:${plain})` : plain);
  }
  alternatives.push(unicode(c));
  const short = SHORT[c];
  if (short !== undefined) alternatives.push(`${BACKSLASHES}${short}`);
  return `(?:${alternatives.join('|')})`;
}

/** The source of a pattern matching `value` in every spelling (see above); use it with the flags `giu`. */
export const spellingsSource = (value: string): string => Array.from(value, charSpellings).join('');

/**
 * The fewest characters (UTF-16 units) a text must have for a pattern made here to match in it: one
 * per character (code point) of the value, since every spelling of a character takes at least one.
 * maskSecrets (logger.ts) skips such a pattern on a shorter text: a long credential's pattern (a
 * bearer token's: some 14 000 characters of source) costs V8 tens to hundreds of milliseconds to
 * compile, on its first use, and most logged strings are short (issue 51, item 8).
 */
const MIN_LENGTH = new WeakMap<RegExp, number>();

/** `pattern`, recorded as needing at least `length` characters to match (see minimumLength). */
export function withMinimumLength(pattern: RegExp, length: number): RegExp {
  MIN_LENGTH.set(pattern, length);
  return pattern;
}

/** The fewest characters a text needs for `pattern` to match in it, when made here (undefined otherwise). */
export const minimumLength = (pattern: RegExp): number | undefined => MIN_LENGTH.get(pattern);

/** A global pattern for `value` in every spelling and any letter case. */
export const spellingsPattern = (value: string): RegExp => withMinimumLength(new RegExp(spellingsSource(value), 'giu'), Array.from(value).length);
