/**
 * stripCardData copies plain objects and arrays through the store's walk (jsonCopyWith, lib/json/json-copy.ts); its
 * result must stay the definition it replaced, `JSON.parse(JSON.stringify(value, replacer))` with a
 * replacer that drops CardNumber/CVVNumber and masks texts, for every value an adapter can return:
 * JSON's own edge cases, what JSON calls (getters, toJSON), a polluted Object.prototype, deep
 * nesting, errors; and no card number or CVV of the request survives in any spelling.
 */
import { PipelineFailure } from '../../lib/shared/errors.js';
import { stripCardData } from '../../lib/core/card-data.js';
import { createCardMask, type CardMask } from '../../lib/core/card-data.js';
import { prng } from '../helpers/prng.js';

const CARD = '4111 1111 1111 1111';
const CVV = '737';
const MASK = createCardMask([CARD], [CVV]);

/** The definition (the code before round 6). */
function reference(value: unknown, mask?: CardMask | readonly string[]): unknown {
  const masker = Array.isArray(mask) ? createCardMask(mask as readonly string[], []) : mask as CardMask | undefined;
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (key, v) => {
      if (key === 'CardNumber' || key === 'CVVNumber') return undefined;
      return masker && typeof v === 'string' ? masker(v) : v;
    });
  } catch (err) {
    return { threw: (err as Error).name };
  }
  return text === undefined ? undefined : JSON.parse(text);
}

function actual(value: unknown, mask?: CardMask | readonly string[]): unknown {
  try {
    return stripCardData(value, mask);
  } catch (err) {
    expect(err).toBeInstanceOf(PipelineFailure);
    return { threw: /\((\w+)\)$/.exec((err as PipelineFailure).logReason)?.[1] };
  }
}

/** Same value, same JSON text, same own keys (a `__proto__` key included) and prototypes. */
function expectSame(value: () => unknown, mask?: CardMask | readonly string[]): void {
  const want = reference(value(), mask);
  const got = actual(value(), mask);
  expect(got).toStrictEqual(want);
  expect(JSON.stringify(got)).toBe(JSON.stringify(want));
}

class Money { constructor(public Amount = 10, public Currency = 'EUR') {} }

const CASES: Array<[string, () => unknown]> = [
  ['card fields at the top and at depth, in arrays', () => ({ CardNumber: CARD, CVVNumber: CVV, Kept: 'yes', Items: [{ CardNumber: 4111111111111111, x: 1 }, [{ CVVNumber: 737 }]] })],
  ['texts holding the card in other spellings and the CVV', () => ({ Message: `card 4111-1111-1111-1111 cvv ${CVV}`, List: ['4111111111111111', '4111.1111.1111.1111', 'ref 17370'] })],
  ['numbers: -0, NaN, ±Infinity, exponents', () => ({ a: -0, b: NaN, c: Infinity, d: -Infinity, e: 1e21, f: 5e-324, g: [-0, NaN] })],
  ['undefined, functions and symbols: left out of objects, null in arrays', () => ({ u: undefined, f: () => 1, s: Symbol('x'), list: [undefined, () => 1, Symbol('y'), 1] })],
  ['holes', () => [1, , 3]], // eslint-disable-line no-sparse-arrays
  ['a Date, a toJSON with its key, a class instance, a Map, boxed primitives', () => ({
    when: new Date(0), custom: { toJSON: (key: string) => `key ${key} ${CARD}` }, money: new Money(), map: new Map([[1, 2]]),
    boxed: [new String(`${CARD}`), new Number(3), new Boolean(false)], list: [{ toJSON: (key: string) => ({ CardNumber: CARD, key }) }],
  })],
  ['a toJSON returning card fields', () => ({ Payment: { toJSON: () => ({ CardNumber: CARD, CVVNumber: CVV, Last4: '1111' }) } })],
  ['an own __proto__ key and a null-prototype object', () => {
    const nul = Object.create(null) as Record<string, unknown>;
    nul.a = CARD;
    return { parsed: JSON.parse(`{"__proto__": {"CardNumber": "${CARD}", "x": "${CARD}"}, "n": 1}`) as unknown, nul };
  }],
  ['an Array subclass and an array with a toJSON', () => {
    class List extends Array {}
    const withToJson = Object.assign([1, 2], { toJSON: () => ['replaced', CARD] });
    return { list: List.from([CARD, { CardNumber: CARD }]), withToJson };
  }],
  ['card fields whose values are objects, BigInts, cycles (never serialised)', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    return { CardNumber: cycle, CVVNumber: BigInt(737), deep: { CardNumber: { toJSON: () => 'x' } } };
  }],
  ['nesting deeper than the copy goes itself (200 levels)', () => {
    let v: unknown = { CardNumber: CARD, text: CARD };
    for (let i = 0; i < 200; i++) v = i % 2 ? { v, CVVNumber: CVV } : [v, CARD];
    return v;
  }],
  // One element past the walk's own limit (MAX_LENGTH, 65 536, lib/json/json-copy.ts): the copy goes through JSON. It was
  // 200 001 long; toStrictEqual compares such an array element by element, 1.5-2 s per case (issue 51, item 8).
  ['a long sparse array (JSON writes its holes as nulls)', () => { const a: unknown[] = []; a[65_536] = CARD; return { a }; }],
  ['a string at the top', () => CARD],
  ['null at the top', () => null],
  ['undefined at the top', () => undefined],
  ['a function at the top', () => () => 1],
  ['non-ASCII and lone surrogates', () => ({ a: 'Zürich €', b: '\uD800x', c: ['\uDC00'] })],
];

describe.each([['no mask', undefined], ['the request mask', MASK], ['literal card numbers', [CARD, '5500005555555559']]] as const)('%s', (_label, mask) => {
  test.each(CASES)('%s: as JSON with the replacer', (_name, make) => expectSame(make, mask as CardMask | readonly string[] | undefined));
});

test.each([
  ['a cycle', () => { const r: Record<string, unknown> = { a: 1 }; r.b = [r]; return r; }],
  ['a BigInt', () => ({ a: [BigInt(1)] })],
  ['a getter that throws', () => ({ get a() { throw new RangeError('no'); } })],
  ['a toJSON that throws', () => ({ a: { toJSON() { throw new SyntaxError('no'); } } })],
  ['a CardNumber getter that throws (JSON reads it before dropping it)', () => ({ get CardNumber() { throw new TypeError('no'); } })],
  ['a CardNumber whose toJSON throws', () => ({ CardNumber: { toJSON() { throw new EvalError('no'); } } })],
  ['an array of the greatest length (JSON refuses it at once; never an array of 2³²−1 nulls)', () => { const a: unknown[] = []; a.length = 2 ** 32 - 1; return { a }; }],
  ['nesting too deep for JSON itself', () => { let v: unknown = 1; for (let i = 0; i < 200_000; i++) v = [v]; return v; }],
])('%s: a merchant bug naming the error JSON throws', (_name, make) => {
  const want = reference(make(), MASK) as { threw: string };
  expect(want.threw).toMatch(/Error$/);
  expect(actual(make(), MASK)).toEqual(want);
});

test("an own __proto__ key is an own data property like JSON.parse's: enumerable, writable, configurable; the prototype untouched", () => {
  const result = JSON.parse('{"__proto__": {"Note": "x"}, "Success": true}') as object;
  const copy = stripCardData(result, MASK) as object;
  expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  expect(Object.getOwnPropertyDescriptor(copy, '__proto__')).toEqual(Object.getOwnPropertyDescriptor(reference(result, MASK) as object, '__proto__'));
  expect(Object.getOwnPropertyDescriptor(copy, '__proto__')).toMatchObject({ enumerable: true, writable: true, configurable: true, value: { Note: 'x' } });
});

test('getters are read once each, card fields included, as JSON reads them', () => {
  const reads: string[] = [];
  const make = () => ({
    get CardNumber() { reads.push('CardNumber'); return CARD; },
    get Message() { reads.push('Message'); return 'ok'; },
  });
  reference(make(), MASK);
  const want = reads.splice(0);
  stripCardData(make(), MASK);
  expect(reads).toEqual(want);
  expect(want).toEqual(['CardNumber', 'Message']);
});

describe('a polluted Object.prototype', () => {
  afterEach(() => {
    delete (Object.prototype as Record<string, unknown>).Inherited;
    delete (Object.prototype as Record<string, unknown>).toJSON;
  });

  test('an inherited enumerable key is not copied (own keys only, as JSON)', () => {
    (Object.prototype as Record<string, unknown>).Inherited = CARD;
    expectSame(() => ({ a: 1, nested: { b: CARD } }), MASK);
    expect(stripCardData({ a: 1 }, MASK)).toEqual({ a: 1 });
    expect(Object.keys(stripCardData({ a: 1 }, MASK) as object)).toEqual(['a']);
  });

  test('an inherited toJSON is called, as JSON calls it', () => {
    (Object.prototype as Record<string, unknown>).toJSON = function toJSON(this: object, key: string) { return `${key}: ${Object.keys(this).join()} ${CARD}`; };
    expectSame(() => ({ a: 1, nested: { b: 2 } }), MASK);
  });
});

test('seeded random results: as JSON with the replacer, and no card number or CVV left in any spelling', () => {
  const rng = prng(0x5c0d);
  const texts = [CARD, '4111111111111111', '4111-1111-1111-1111', `cvv ${CVV}`, 'ref 17370', 'plain', '', 'Zürich'];
  const keys = ['CardNumber', 'CVVNumber', 'Message', 'Description', 'Items', 'x', '0', '__proto__'];
  const make = (depth: number): unknown => {
    const r = rng.next();
    if (depth > 5 || r < 0.35) return rng.pick<unknown>([rng.pick(texts), rng.int(1000), -0, NaN, true, null, undefined, BigInt(5)].slice(0, rng.chance(0.02) ? 8 : 7));
    if (r < 0.55) return Array.from({ length: rng.int(4) }, () => make(depth + 1));
    if (r < 0.6) return new Date(rng.int(1e12));
    const out: Record<string, unknown> = {};
    for (let i = rng.int(5); i > 0; i--) Object.defineProperty(out, rng.pick(keys), { value: make(depth + 1), enumerable: true, writable: true, configurable: true });
    return out;
  };
  for (let t = 0; t < 3000; t++) {
    const value = make(0);
    expect(actual(value, MASK)).toStrictEqual(reference(value, MASK));
    const text = JSON.stringify(actual(value, MASK)) ?? '';
    expect(text).not.toMatch(/4111[\s.-]*1111/);
    expect(text).not.toMatch(/(?<!\d)737(?!\d)/);
  }
});
