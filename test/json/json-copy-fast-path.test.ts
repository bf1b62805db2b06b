/**
 * The walk's promise (lib/json/json-copy.ts; docs/performance.md, issue 25): plain values — strings,
 * numbers, booleans, null, plain arrays up to MAX_LENGTH elements, plain and null-prototype objects
 * up to MAX_DEPTH levels — are copied by the walk itself, sharing their strings, with no JSON text
 * made; only what JSON must decide (a Date, a toJSON, a class instance, deeper nesting, longer arrays)
 * goes through JSON. Every reply and every stored reply takes this path, so a fast path switched off
 * would cost each delivery a JSON round trip (stripCardData ran 3.6x slower once). Issue 36 item 12:
 * the mutants that switched a fast path off or on were "equivalent" to a test of the result alone.
 */
import { jest } from '@jest/globals';
import { stripCardData } from '../../lib/core/card-data.js';
import { createCardMask } from '../../lib/core/card-data.js';
import { jsonCopy, jsonCopyWith } from '../../lib/json/json-copy.js';

/** An object nested `levels` deep below the top (the innermost object is at depth `levels`). */
function nested(levels: number): Record<string, unknown> {
  let inner: Record<string, unknown> = { leaf: 'x', n: 1 };
  for (let i = 0; i < levels; i++) inner = { next: inner };
  return inner;
}

const bare = Object.assign(Object.create(null) as Record<string, unknown>, { Name: 'null prototype', Qty: 2 });
const plain = () => ({
  Success: true, InternalOrderId: 'A-1', PaymentAmount: '72.30', Count: 3, Negative: -0, NotANumber: Number.NaN,
  Flag: false, Nothing: null, Missing: undefined, Sym: Symbol('s'), List: ['a', 1, true, null, [2, [3]], { deep: 'y' }],
  Bare: bare, Empty: {}, EmptyList: [],
});

let stringify: ReturnType<typeof jest.spyOn>;
let parse: ReturnType<typeof jest.spyOn>;
beforeEach(() => {
  stringify = jest.spyOn(JSON, 'stringify');
  parse = jest.spyOn(JSON, 'parse');
});
afterEach(() => jest.restoreAllMocks());

/** Runs `work` and says how many JSON texts it made or read. */
function jsonCalls(work: () => unknown): number {
  stringify.mockClear();
  parse.mockClear();
  work();
  return stringify.mock.calls.length + parse.mock.calls.length;
}

describe.each([
  ['jsonCopy', (v: unknown) => jsonCopy(v)],
  ['jsonCopyWith (a hook)', (v: unknown) => jsonCopyWith(v, { drop: (k) => k === 'Secret', text: (s) => s.toUpperCase() })],
  ['stripCardData', (v: unknown) => stripCardData(v, createCardMask(['4111111111111111'], ['737']))],
])('%s', (_name, copy) => {
  test('plain values are copied by the walk: no JSON text made', () => {
    expect(jsonCalls(() => copy(plain()))).toBe(0);
  });

  test('nesting down to MAX_DEPTH (64) is walked; one level deeper goes through JSON', () => {
    expect(jsonCalls(() => copy(nested(64)))).toBe(0);
    expect(jsonCalls(() => copy(nested(65)))).toBeGreaterThan(0);
  });

  test('arrays count towards the depth as objects do: 64 levels of arrays are walked, one more goes through JSON', () => {
    const arrays = (levels: number): unknown => { let a: unknown = ['leaf']; for (let i = 0; i < levels; i++) a = [a]; return a; };
    expect(jsonCalls(() => copy(arrays(64)))).toBe(0);
    expect(jsonCalls(() => copy(arrays(65)))).toBeGreaterThan(0);
  });

  test('an array that holds itself fails as JSON fails (a TypeError about the cycle), never by running out of stack', () => {
    const cyclic: unknown[] = ['x'];
    cyclic.push(cyclic);
    let thrown: unknown;
    try { copy({ list: cyclic }); } catch (err) { thrown = err; }
    expect(String((thrown as Error).message)).toMatch(/circular|TypeError/i);
    expect(String((thrown as Error).message)).not.toMatch(/call stack/i);
  });

  test('an array of MAX_LENGTH (65,536) elements is walked; a longer one goes through JSON', () => {
    const long = new Array<number>(65_536).fill(1);
    expect(jsonCalls(() => copy(long))).toBe(0);
    expect(jsonCalls(() => copy([...long, 1]))).toBeGreaterThan(0);
  });

  test('what JSON must decide goes through JSON: a Date, a toJSON, a class instance', () => {
    expect(jsonCalls(() => copy({ at: new Date(0) }))).toBeGreaterThan(0);
    expect(jsonCalls(() => copy({ v: { toJSON: () => 1 } }))).toBeGreaterThan(0);
    expect(jsonCalls(() => copy([Object.assign([1], { toJSON: () => 2 })]))).toBeGreaterThan(0);
    expect(jsonCalls(() => copy({ m: new Map() }))).toBeGreaterThan(0);
  });
});

test('the results are still JSON\'s (the fast path changes the cost, never the value)', () => {
  jest.restoreAllMocks();
  const value = plain();
  expect(jsonCopy(value)).toStrictEqual(JSON.parse(JSON.stringify(value)));
  expect(jsonCopy(nested(64))).toStrictEqual(JSON.parse(JSON.stringify(nested(64))));
});
