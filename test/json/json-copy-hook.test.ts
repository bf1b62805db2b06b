/**
 * The copying walk of lib/json/json-copy.ts on the paths its two callers share since stripCardData
 * uses it (jsonCopyWith): a function's toJSON is JSON's to call in both, and a hook (keys dropped,
 * texts rewritten) gives exactly what JSON.stringify with the same replacer gives. stripCardData's
 * own comparison with JSON is test/core/strip-card-data.test.ts.
 */
import { jsonCopy, jsonCopyWith, type CopyHook } from '../../lib/json/json-copy.js';

const fn = Object.assign(() => 1, { toJSON: (key: string) => `fn at ${key}` });
const hook: CopyHook = { drop: (k) => k === 'secret', text: (s) => s.replace(/4111/g, '####') };
const replacer = (k: string, x: unknown): unknown => (k === 'secret' ? undefined : typeof x === 'string' ? x.replace(/4111/g, '####') : x);
const viaReplacer = (v: unknown): unknown => {
  const text = JSON.stringify(v, replacer);
  return text === undefined ? undefined : JSON.parse(text) as unknown;
};

describe('jsonCopy: functions as JSON treats them', () => {
  test('a function with toJSON is written as its toJSON gives, with its key; one without is left out', () => {
    const value = { f: fn, list: [fn, () => 2], plain: () => 3, '': fn, inner: { '': () => 4 } };
    expect(jsonCopy(value)).toStrictEqual(JSON.parse(JSON.stringify(value)));
    expect(jsonCopy(value)).toStrictEqual({ f: 'fn at f', list: ['fn at 0', null], '': 'fn at ', inner: {} });
  });
});

test('a toJSON at the top gets the key "" from both, as from JSON', () => {
  const top = { toJSON: (key: string) => `key ${JSON.stringify(key)}` };
  expect(jsonCopy(top)).toBe(JSON.parse(JSON.stringify(top)));
  expect(jsonCopy(top)).toBe('key ""');
  expect(jsonCopyWith(top, hook)).toBe('key ""');
});

describe('jsonCopyWith: a hook is a replacer', () => {
  const VALUES: Array<[string, unknown]> = [
    ['a dropped key at any depth', { a: 1, secret: 'x', inner: { secret: { deep: 1 }, keep: '4111 here' }, list: [{ secret: 2, b: 3 }] }],
    ['texts rewritten, keys not', { '4111': '4111-4111', list: ['4111', 4111, null] }],
    ['a dropped key whose value has toJSON or is a Date', { secret: new Date(0), other: { secret: { toJSON: () => 'gone' } } }],
    ['text inside what goes through JSON', { at: { toJSON: () => 'card 4111' }, d: new Date(0), big: Array.from({ length: 70_000 }, () => '4111') }],
    ['a string at the top', '4111'],
    ['a key "" holding a toJSON', { '': { toJSON: (k: string) => `4111 under "${k}"` } }],
    ['a key "" JSON leaves out (a function, toJSON giving undefined)', { '': () => 1, list: [{ '': { toJSON: () => undefined }, b: '4111' }] }],
    ['nothing to drop', [1, 'two', { three: 3 }]],
  ];
  test.each(VALUES)('%s', (_name, value) => {
    expect(jsonCopyWith(value, hook)).toStrictEqual(viaReplacer(value));
  });

  test('a value JSON writes no text for gives undefined (jsonCopy throws JSON\'s SyntaxError)', () => {
    expect(jsonCopyWith(undefined, hook)).toBeUndefined();
    expect(jsonCopyWith({ toJSON: () => undefined }, hook)).toBeUndefined();
    expect(() => jsonCopy(undefined)).toThrow(SyntaxError);
  });

  test('a dropped key is still read as JSON reads it: its getter or toJSON throwing throws', () => {
    const getter = Object.defineProperty({}, 'secret', { get: () => { throw new RangeError('read'); }, enumerable: true });
    expect(() => jsonCopyWith(getter, hook)).toThrow(RangeError);
    expect(() => jsonCopyWith({ secret: { toJSON: () => { throw new TypeError('toJSON'); } } }, hook)).toThrow(TypeError);
  });

  test('an empty hook copies as jsonCopy does', () => {
    const value = { a: '4111', secret: [1, fn], n: -0 };
    expect(jsonCopyWith(value, { drop: undefined, text: undefined })).toStrictEqual(jsonCopy(value));
  });
});
