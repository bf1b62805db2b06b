/**
 * jsonCopy (lib/json/json-copy.ts): what MemoryStore keeps of a reply and hands back must be exactly
 * what a JSON round trip gives, for any value an adapter's reply could hold.
 */
import { jsonCopy } from '../../lib/json/json-copy.js';

const roundTrip = (v: unknown): unknown => JSON.parse(JSON.stringify(v) as string) as unknown;

class Point { constructor(public x: number, public y: number) {} }

/** Deep equality that also tells -0 from 0 and own keys in order (toStrictEqual does not check order). */
function sameJson(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b) || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Reflect.ownKeys(a);
  const kb = Reflect.ownKeys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i]
    && sameJson((a as Record<PropertyKey, unknown>)[k], (b as Record<PropertyKey, unknown>)[k]));
}

const sparse: unknown[] = [1];
sparse[3] = 'x';
const nullProto = Object.assign(Object.create(null) as object, { b: 1, a: [null] });
const withProtoKey = JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}') as unknown;
let deep: unknown = { leaf: 'x' };
for (let i = 0; i < 100; i++) deep = { d: deep, list: [i] };

const VALUES: Array<[string, unknown]> = [
  ['a reply', { Success: true, InternalOrderId: 'INT-1', OrderId: 'GE1', StatusCode: 'received' }],
  ['scalars', ['s', '', 0, 1.5, -7, true, false, null]],
  ['-0, NaN and infinities', { z: -0, n: NaN, i: Infinity, m: -Infinity, list: [-0, NaN] }],
  ['left-out values', { u: undefined, f: () => 1, s: Symbol('x'), keep: 1, list: [undefined, () => 1, Symbol('y')] }],
  ['symbol keys and a non-enumerable key', Object.defineProperty({ [Symbol('k')]: 1, v: 2 }, 'hidden', { value: 3, enumerable: false })],
  ['integer-like keys (reordered by JSON)', { b: 1, 2: 'two', a: 3, 1: 'one' }],
  ['a sparse array', sparse],
  ['extra properties on an array', Object.assign([1, 2], { extra: 'x' })],
  ['a Date', { at: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)) }],
  ['toJSON, with its key', { v: { toJSON: () => ({ replaced: true }) }, k: { toJSON: (key: string) => key }, list: [{ toJSON: (key: string) => `at ${key}` }], gone: { toJSON: () => undefined }, inList: [{ toJSON: () => undefined }] }],
  ['a __proto__ key whose value has toJSON', JSON.parse('{"__proto__": {"d": "2026-01-02T00:00:00.000Z"}}', (k, v) => (k === '__proto__' ? { toJSON: () => 'replaced' } : v)) as unknown],
  ['a class instance', { p: new Point(1, 2) }],
  ['Map, Set, RegExp, boxed values', { m: new Map([[1, 2]]), s: new Set([1]), r: /x/g, b: Object(false) as unknown, str: Object('s') as unknown, n: Object(5) as unknown }],
  ['a typed array', { t: new Uint8Array([1, 2]) }],
  ['a null-prototype object', { o: nullProto }],
  ['a __proto__ own key', withProtoKey],
  ['deep nesting', deep],
  ['unicode and lone surrogates', { s: 'é\u2028\ud800x', [String.fromCharCode(0xdfff)]: 1 }],
  ['a top-level array', [[[]], {}]],
  ['a top-level string', 'text'],
  ['a top-level null', null],
];

describe('jsonCopy equals JSON.parse(JSON.stringify(v))', () => {
  test.each(VALUES)('%s', (_name, value) => {
    const copy = jsonCopy(value);
    const expected = roundTrip(value);
    expect(sameJson(copy, expected)).toBe(true);
    expect(copy).toStrictEqual(expected);
  });

  test('a __proto__ key stays an own key and never sets the prototype', () => {
    const copy = jsonCopy(withProtoKey) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'ok']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('the copy shares no object with the original', () => {
    const original = { a: { b: [1, { c: 'x' }] } };
    const copy = jsonCopy(original);
    copy.a.b.push(2);
    (copy.a.b[1] as { c: string }).c = 'changed';
    expect(original).toEqual({ a: { b: [1, { c: 'x' }] } });
    expect(copy.a).not.toBe(original.a);
  });

  test("JSON's errors: a cycle, a BigInt, nothing to copy", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { back: cyclic };
    expect(() => jsonCopy(cyclic)).toThrow(TypeError);
    expect(() => jsonCopy({ n: 1n })).toThrow(TypeError);
    expect(() => jsonCopy(undefined)).toThrow(SyntaxError);
    expect(() => jsonCopy({ toJSON: () => undefined })).toThrow(SyntaxError);
  });

  test("an array of the greatest length is JSON's RangeError at once, never 2³²−1 nulls filled in (out of memory)", () => {
    const huge: unknown[] = [];
    huge.length = 2 ** 32 - 1;
    expect(() => jsonCopy({ huge })).toThrow(RangeError);
    // A long array under the bound is still copied (not through JSON): the copy has its own objects.
    const long = Array.from({ length: 65_536 }, (_, i) => ({ i }));
    const copy = jsonCopy(long);
    expect(copy).toEqual(long);
    expect(copy[0]).not.toBe(long[0]);
  });
});
