/**
 * formDecode and decodeIfEncoded decode in one pass of char codes (lib/core/form-decode.ts);
 * their results must be those of the definitions they replaced: `decodeURIComponent` of the value
 * with `+` as spaces (the value itself where that throws), and the plain-mark / phone rule before it.
 * Checked against those definitions on every code point, every escaped byte pair and triple, and
 * seeded random strings of the characters that matter.
 */
import { compileRule, decodeIfEncoded, decodeOrder, DEFAULT_DECODE_FIELDS, formDecode, type CompiledRule } from '../../lib/core/form-decode.js';
import { prng } from '../helpers/prng.js';

/** The definition (the code before round 6). */
function reference(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}
/** The plain-mark / phone rule before the definition; `decoded` is reference(value). */
function referenceIfEncoded(value: string, decoded = reference(value)): string {
  if (!value.includes('%') && !value.includes('+')) return value;
  if (/[ @,/]/.test(value) || /^\+[0-9().-]+$/.test(value)) return value;
  return decoded;
}

const hex2 = (b: number) => b.toString(16).padStart(2, '0');

/** Inputs where the two differ (at most `max`), with both results. */
function mismatches(inputs: Iterable<string>, max = 5): Array<[string, string, string]> {
  const out: Array<[string, string, string]> = [];
  // The definition throws (and catches) a URIError for every malformed input, hundreds of thousands
  // here; none of their stacks is read, and jest records 100 frames of each (issue 51, item 8).
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    for (const s of inputs) {
      const decoded = reference(s);
      if (formDecode(s) !== decoded) out.push([s, formDecode(s), decoded]);
      else if (decodeIfEncoded(s) !== referenceIfEncoded(s, decoded)) out.push([s, decodeIfEncoded(s), referenceIfEncoded(s, decoded)]);
      if (out.length >= max) break;
    }
  } finally {
    Error.stackTraceLimit = limit;
  }
  return out;
}

/**
 * Every code point of the BMP (1-, 2- and 3-byte UTF-8) always; above it (4 bytes, one decoding path)
 * every 17th code point and the first and last 256 of each plane in `npm test`, every one of the
 * 1,048,576 with CBK_FORM_DECODE_ALL=1 (the nightly size, docs/safety-tests.md).
 */
const EVERY_ASTRAL = process.env.CBK_FORM_DECODE_ALL === '1';
const astralKept = (cp: number) => EVERY_ASTRAL || cp % 17 === 0 || (cp & 0xffff) < 0x100 || (cp & 0xffff) > 0xfeff;

test('every code point, escaped as encodeURIComponent escapes it, decodes to itself', () => {
  function* all() {
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (cp > 0xffff && !astralKept(cp)) continue;
      const s = encodeURIComponent(String.fromCodePoint(cp));
      yield cp % 2 === 0 ? s : s.toLowerCase();
      if (cp % 61 === 0) yield `a+${s}+b`;
    }
  }
  expect(mismatches(all())).toEqual([]);
  expect(formDecode('%F0%9F%98%80+%E2%82%AC')).toBe('😀 €');
});

test('every escaped byte pair, and the triples and quadruples where UTF-8 draws its limits, decode as decodeURIComponent does', () => {
  // Lead bytes C0/C1/E0/ED/F0/F4/F5+ and continuation bounds 80/8F/90/9F/A0/BF: overlong forms,
  // surrogates, code points above U+10FFFF, cut and lone continuation bytes.
  const edges = [0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff];
  function* all() {
    for (let a = 0; a < 256; a++) {
      for (let b = 0; b < 256; b++) {
        const pair = `%${hex2(a)}%${hex2(b)}`;
        yield a % 2 === 0 ? pair : `x${pair}`;
        if (a < 0xe0 || !edges.includes(b)) continue;
        for (const c of edges) {
          yield `${pair}%${hex2(c)}`;
          for (const d of edges) yield `${pair}%${hex2(c)}%${hex2(d)}`;
        }
      }
    }
    for (let a = 0xe0; a < 256; a++) for (let b = 0; b < 256; b++) for (const c of edges) yield `%${hex2(a)}%${hex2(b)}%${hex2(c)}`;
  }
  expect(mismatches(all())).toEqual([]);
});

test('seeded random strings of escapes, "+", "%", plain marks and non-ASCII decode as the definition does', () => {
  const rng = prng(0x25f0);
  const alphabet = ['%', '+', ' ', '@', ',', '/', 'a', 'F', 'g', '0', '9', '(', ')', '-', '.', 'é', '€', '😀', '\uD800', '\uDC00', '%2', '%C3', '%E2%82', '%ZZ'];
  function* all() {
    for (let t = 0; t < (EVERY_ASTRAL ? 100_000 : 25_000); t++) { // 100,000 nightly (CBK_FORM_DECODE_ALL=1)
      let s = '';
      const length = rng.int(14);
      for (let i = 0; i < length; i++) s += rng.chance(0.4) ? `%${hex2(rng.int(256))}` : rng.pick(alphabet);
      yield rng.chance(0.5) ? s : s.toUpperCase();
    }
  }
  expect(mismatches(all())).toEqual([]);
});

test.each([
  ['a+b%2Bc', 'a b+c'],
  ['%41%42C', 'ABC'], // escapes at the start, text after
  ['Caf%C3%A9', 'Café'], // an escape at the very end
  ['%', '%'],
  ['%4', '%4'], // cut at the end
  ['a+%4', 'a+%4'], // malformed: the whole value unchanged, + included
  ['%C3%A9%', '%C3%A9%'],
  ['%C3+%A9', '%C3+%A9'], // a sequence broken by a +
  ['%C0%80', '%C0%80'], // overlong NUL
  ['%ED%A0%80', '%ED%A0%80'], // a surrogate
  ['%F4%90%80%80', '%F4%90%80%80'], // above U+10FFFF
  ['%00', '\u0000'],
  ['é+ü', 'é ü'], // non-ASCII text outside escapes is kept
])('formDecode(%p) is %p', (input, expected) => {
  expect(formDecode(input)).toBe(expected);
});

test.each([
  ['Main+Street+1', 'Main Street 1'],
  ['Main Street+1', 'Main Street+1'], // a literal space anywhere: plain
  ['a%40b+c', 'a@b c'],
  ['a%40b+c@', 'a%40b+c@'], // a literal @ after the escapes: plain
  ['x,+y', 'x,+y'],
  ['x/+y', 'x/+y'],
  ['+41(44)000-00.00', '+41(44)000-00.00'], // a phone number: plain
  ['+41+44', ' 41 44'], // not a phone number (a second +)
  ['x+41', 'x 41'],
  ['+%34', ' 4'],
])('decodeIfEncoded(%p) is %p', (input, expected) => {
  expect(decodeIfEncoded(input)).toBe(expected);
});

test('long values (one text built from many pieces) decode in full and read back whole', () => {
  const many = 'a+%41%C3%A9'.repeat(100_000);
  expect(formDecode(many)).toBe('a Aé'.repeat(100_000));
  expect(decodeIfEncoded('+'.repeat(500_000))).toBe(' '.repeat(500_000));
  expect(JSON.stringify(formDecode('%2B+'.repeat(100_000))).length).toBe(200_002);
});

describe('decodeOrder: a copy on write, the order as received never changed', () => {
  const rules = DEFAULT_DECODE_FIELDS.map((f) => compileRule(f)).filter((r): r is CompiledRule => r !== null);
  const received = () => ({
    OrderId: 'GE1',
    PrimaryBilling: { FirstName: 'Ren%C3%A9e', LastName: 'Doe', City: 'Z%C3%BCrich' },
    PrimaryShipping: { FirstName: 'Jane', City: 'Bern' },
    Parcels: [{ TrackingUrl: 'https%3A%2F%2Ft.example%2F1' }, { TrackingUrl: 'https://t.example/2' }],
    Subs: [{ OrderId: 'GE1-1', PrimaryBilling: { FirstName: 'A+B' } }, { OrderId: 'GE1-2', PrimaryBilling: { FirstName: 'C' } }],
  });

  test('the decoded fields are in the copy; the order given is deep-equal to what it was', () => {
    const order = received();
    const before = structuredClone(order);
    const decoded = decodeOrder(order, rules);
    expect(order).toEqual(before);
    expect(decoded.PrimaryBilling).toEqual({ FirstName: 'Renée', LastName: 'Doe', City: 'Zürich' });
    expect(decoded.Parcels[0].TrackingUrl).toBe('https://t.example/1');
    expect(decoded.Subs[0].PrimaryBilling.FirstName).toBe('A B');
  });

  test('what no rule changes is shared, not copied; an order with nothing to decode is returned as it is', () => {
    const order = received();
    const decoded = decodeOrder(order, rules);
    expect(decoded).not.toBe(order);
    expect(decoded.PrimaryShipping).toBe(order.PrimaryShipping);
    expect(decoded.Parcels[1]).toBe(order.Parcels[1]);
    expect(decoded.Subs[1]).toBe(order.Subs[1]);
    const plain = { OrderId: 'GE2', PrimaryBilling: { FirstName: 'Jane' } };
    expect(decodeOrder(plain, rules)).toBe(plain);
  });
});
