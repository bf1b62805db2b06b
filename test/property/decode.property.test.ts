/**
 * Property: URL decoding never throws and never changes an undecodable value (issue 36 item 11).
 * formDecode is decodeURIComponent after `+` → space, or the value itself where that throws;
 * decodeIfEncoded leaves plain values (a space, `@`, `,`, `/`, a phone number) alone and decodes the rest.
 */
import fc from 'fast-check';
import { decodeIfEncoded, formDecode } from '../../lib/core/form-decode.js';
import { holds } from './settings.js';

/** The reference: what the kit promises formDecode computes. */
function reference(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/** Values heavy in escapes: valid and broken `%XX`, cut UTF-8 sequences, `+`, lone surrogates, any text. */
const HEX = '0123456789abcdefABCDEFgz';
const escape = fc.tuple(fc.constantFrom(...HEX), fc.constantFrom(...HEX)).map(([a, b]) => `%${a}${b}`);
const utf8 = fc.string({ unit: 'grapheme', maxLength: 3 }).map((s) => encodeURIComponent(s));
const piece = fc.oneof(
  escape, utf8, utf8.map((s) => s.slice(0, Math.max(1, s.length - 3))), fc.constantFrom('%', '%%', '+', '%2', '%E2%82', '%C3', '%ED%A0%80', '%F4%90%80%80', '%C0%AF', '@', ' ', '/', ','),
  fc.string({ unit: 'binary', maxLength: 4 }), fc.string({ maxLength: 4 }),
);
const encoded = fc.array(piece, { maxLength: 24 }).map((parts) => parts.join(''));

test('formDecode never throws and equals decodeURIComponent(+ → space), or the value unchanged where that throws', async () => {
  await holds(fc.property(encoded, (value) => formDecode(value) === reference(value)));
});

test('an undecodable value is returned unchanged', async () => {
  const undecodable = encoded.filter((v) => reference(v) === v && v.includes('%'));
  await holds(fc.property(undecodable, (value) => formDecode(value) === value && decodeIfEncoded(value) === value));
});

test('decodeIfEncoded never throws; a value without % or + is left as it is; otherwise plain or decoded once', async () => {
  await holds(fc.property(encoded, (value) => {
    const out = decodeIfEncoded(value);
    if (!value.includes('%') && !value.includes('+')) return out === value;
    return out === value || out === reference(value);
  }));
});

test('decoding is done once: an encoded value decodes to its original, never further', async () => {
  await holds(fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (original) => {
    const sent = encodeURIComponent(original).replace(/%20/g, '+');
    return formDecode(sent) === original;
  }));
});
