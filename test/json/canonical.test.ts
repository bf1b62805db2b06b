import { canonicalJson } from '../../lib/json/canonical.js';
import { payloadHash } from '../../lib/core/stages/key.js';

describe('canonical JSON and the payload hash', () => {
  test('object keys are sorted at every level; arrays keep their order; undefined members are left out', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1], c: 'x' }, u: undefined })).toBe('{"a":{"c":"x","d":[3,1]},"b":1}');
    expect(canonicalJson([{ y: null, x: true }])).toBe('[{"x":true,"y":null}]');
  });

  test('the hash ignores key order and formatting, not values', () => {
    const h = payloadHash({ OrderId: 'A', Products: [{ Sku: 'S', Quantity: 1 }] });
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(payloadHash(JSON.parse('{ "Products": [ { "Quantity": 1.0, "Sku": "S" } ], "OrderId": "A" }'))).toBe(h);
    expect(payloadHash({ OrderId: 'A', Products: [{ Sku: 'S', Quantity: 2 }] })).not.toBe(h);
  });

  test('card values and MerchantGUID do not enter the hash (a card number must not be recoverable from it)', () => {
    const withCard = (card: string, cvv: string, guid: string) => payloadHash({
      MerchantGUID: guid, OrderId: 'A', PaymentDetails: { CardNumber: card, CVVNumber: cvv, OwnerName: 'J' },
    });
    expect(withCard('4111111111111111', '737', 'g1')).toBe(withCard('5555555555554444', '123', 'g2'));
    expect(payloadHash({ OrderId: 'A', PaymentDetails: { OwnerName: 'J' } })).not.toBe(withCard('4111111111111111', '737', 'g1'));
  });

  test('an absurdly deep payload is refused rather than overflowing the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 500; i++) deep = [deep];
    expect(() => payloadHash(deep)).toThrow(/nested deeper/);
  });
});

/**
 * The definition, written plainly: keys sorted by code unit at every level (every object sorted
 * afresh, no cache); toJSON applied; undefined and function members left out; array holes left out
 * (as Array.prototype.forEach skips them); fingerprint masks cards, drops MerchantGUID.
 */
function reference(value: unknown, fingerprint: boolean): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return reference((value as { toJSON(): unknown }).toJSON(), fingerprint);
  if (Array.isArray(value)) {
    let out = '';
    value.forEach((v, i) => { out += `${i > 0 ? ',' : ''}${v === undefined ? 'null' : reference(v, fingerprint)}`; });
    return `[${out}]`;
  }
  const parts: string[] = [];
  for (const k of Object.keys(value).sort()) {
    let v = (value as Record<string, unknown>)[k];
    if (v === undefined || typeof v === 'function') continue;
    if (fingerprint && k === 'MerchantGUID') continue;
    if (fingerprint && (k === 'CardNumber' || k === 'CVVNumber') && v !== null && v !== '') v = '[card]';
    parts.push(`${JSON.stringify(k)}:${reference(v, fingerprint)}`);
  }
  return `{${parts.join(',')}}`;
}

const STRINGS = ['x', '', 'Ren%C3%A9e', 'quote"d', 'back\\slash', 'tab\there', '\u0000\u001f', 'lone \ud800', 'lone \udfff end',
  'pair \ud83d\ude00', 'ÄÖü', '\u2028\u2029', '</script>'];
const NAMES = ['OrderId', 'b', 'A', 'a', '10', '9', '0', 'Ä', 'z_z', 'CardNumber', 'CVVNumber', 'MerchantGUID', 'Subs', 'é', '', 'toJSONx',
  '\ud83d\ude00', '"q"', 'Sku', 'Name', 'Quantity'];

function randomPayload(seed: number): unknown {
  let s = seed;
  const rnd = () => { s = (s * 1103515245 + 12345) % 2 ** 31; return s / 2 ** 31; };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
  const leaf = (): unknown => pick<unknown>([null, true, false, 0, -0, -1.5, 1e21, 5e-324, NaN, Infinity, undefined, () => 1, pick(STRINGS), pick(STRINGS)]);
  // A few fixed shapes, repeated as in real orders (the shape cache must serve them), plus random ones.
  const line = (i: number) => ({ Sku: `S-${i}`, Name: pick(STRINGS), Quantity: i, CardNumber: pick(['', null, '4111111111111111']) });
  const make = (depth: number): unknown => {
    const r = rnd();
    if (depth > 4 || r < 0.25) return leaf();
    if (r < 0.35) return Array.from({ length: 1 + Math.floor(rnd() * 4) }, (_, i) => line(i));
    if (r < 0.45) { const a: unknown[] = [make(depth + 1)]; a[2 + Math.floor(rnd() * 2)] = make(depth + 1); return a; } // holes
    if (r < 0.5) { const inner = { z: make(depth + 1), a: 1 }; return { toJSON: () => inner }; }
    if (r < 0.55) return new Date(Math.floor(rnd() * 2e12));
    if (r < 0.65) return Array.from({ length: Math.floor(rnd() * 4) }, () => make(depth + 1));
    const o: Record<string, unknown> = {};
    for (let i = Math.floor(rnd() * 6); i > 0; i--) o[pick(NAMES)] = make(depth + 1);
    return o;
  };
  return { OrderId: `O-${seed}`, body: make(0), PaymentDetails: { CardNumber: '4111111111111111', CVVNumber: '737' } };
}

test('canonicalJson and payloadHash match the plain definition on 2000 random payloads', async () => {
  const { createHash } = await import('node:crypto');
  for (let seed = 1; seed <= 2000; seed++) {
    const p = randomPayload(seed);
    expect(canonicalJson(p)).toBe(reference(p, false));
    expect(payloadHash(p)).toBe(createHash('sha256').update(reference(p, true)).digest('hex'));
  }
});

test('hashing leaves the payload exactly as it was (card values restored)', () => {
  const p = randomPayload(42) as Record<string, any>;
  const before = JSON.stringify(p);
  payloadHash(p);
  expect(JSON.stringify(p)).toBe(before);
  expect(p.PaymentDetails.CardNumber).toBe('4111111111111111');
});

test('the sorted-key cache gives the same text for objects of one shape, for shapes sharing a first key, and after it is emptied', async () => {
  const { createHash } = await import('node:crypto');
  const check = (p: unknown) => {
    expect(canonicalJson(p)).toBe(reference(p, false));
    expect(payloadHash(p)).toBe(createHash('sha256').update(reference(p, true)).digest('hex'));
  };
  // Same first key, same length, different later keys; same keys in another insertion order.
  check([{ a: 1, z: 2, m: 3 }, { a: 1, y: 2, m: 3 }, { a: 1, z: 2 }, { z: 2, a: 1, m: 3 }, { a: 1, m: 3, z: 2 }]);
  // Integer-like keys (Object.keys lists them first, sorting puts '10' before '9').
  check({ b: 1, 10: 'x', 9: 'y', a: { 2: 1, 1: 2, '01': 3 } });
  // More keys than the cache keeps, and more shapes than it holds (it is emptied and refilled).
  const wide: Record<string, number> = {};
  for (let i = 300; i > 0; i--) wide[`k${i}`] = i;
  check(wide);
  check(wide);
  for (let i = 0; i < 3000; i++) check({ [`f${i}`]: i, CardNumber: '4111111111111111', [`g${i % 7}`]: { MerchantGUID: 'g', x: i } });
  check({ OrderId: 'A', Products: [{ Sku: 'S', Quantity: 1 }] });
});

test('the depth limit is where it always was: 200 levels below the payload are accepted, 201 are refused', () => {
  const nest = (levels: number, inner: unknown, asObject: boolean): unknown => {
    let v = inner;
    for (let i = 0; i < levels; i++) v = asObject ? { k: v } : [v];
    return v;
  };
  for (const asObject of [false, true]) {
    expect(() => payloadHash(nest(200, 1, asObject))).not.toThrow();
    expect(() => payloadHash(nest(201, 1, asObject))).toThrow(/nested deeper/);
    expect(() => payloadHash(nest(200, [], asObject))).not.toThrow();
    expect(() => payloadHash(nest(201, [], asObject))).toThrow(/nested deeper/);
    expect(() => canonicalJson(nest(200, { u: undefined, f: () => 1 }, asObject))).not.toThrow();
    expect(() => canonicalJson(nest(200, [, ], asObject))).not.toThrow(); // a hole writes nothing
    expect(() => canonicalJson(nest(200, [undefined], asObject))).toThrow(/nested deeper/); // written as null
    expect(() => payloadHash(nest(200, { MerchantGUID: 'g' }, asObject))).not.toThrow();
    expect(() => canonicalJson(nest(200, { MerchantGUID: 'g' }, asObject))).toThrow(/nested deeper/);
    expect(() => payloadHash(nest(200, { CardNumber: '4111' }, asObject))).toThrow(/nested deeper/);
  }
});

test('a stored fingerprint stays valid: the hash of a fixed order is the one earlier versions stored', () => {
  const order = {
    MerchantGUID: 'g', OrderId: 'GE-1',
    Products: [{ Sku: 'S-1', Quantity: 2, Price: 19.95, Name: 'Ren%C3%A9e "x"' }, { Quantity: 1, Sku: 'S-2', Price: 1e21 }],
    PaymentDetails: { CardNumber: '4111111111111111', CVVNumber: '737', OwnerName: 'J\u00e9' }, 10: null, 9: [true, false],
  };
  expect(payloadHash(order)).toBe('91be47daba7e2290cb0c8205cbc917e0ac045878634278534fc190921f5e29c4');
});

test('numbers, texts and sizes at the edges of the byte writer match the plain definition', async () => {
  const { createHash } = await import('node:crypto');
  const check = (p: unknown) => {
    expect(canonicalJson(p)).toBe(reference(p, false));
    expect(payloadHash(p)).toBe(createHash('sha256').update(reference(p, true)).digest('hex'));
  };
  // Integers on both sides of the 32-bit fast path, -0, tiny and huge doubles, non-finite numbers.
  check([0, -0, 1, -1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 2 ** 32, 2 ** 53, -(2 ** 53), 1e21, 1e-7, 5e-324,
    Number.MAX_VALUE, -Number.MIN_VALUE, 0.1 + 0.2, 19.95, NaN, Infinity, -Infinity]);
  // Many distinct prices (the decimal-text table's slots are reused), then the same ones again.
  const prices = Array.from({ length: 5000 }, (_, i) => i / 100 + 0.005 * (i % 3));
  check({ Products: prices.map((Price, i) => ({ Price, Quantity: i })) });
  check(prices.slice().reverse());
  // Every character class: control, quote, backslash, the ASCII edges, DEL, Latin-1, BMP, pairs, lone surrogates.
  const chars = ['\u0000', '\u001f', ' ', '~', '\u007f', '\u0080', 'é', 'ÿ', '\u2028', '€', '\ud83d\ude00', '\ud800', '\udfff', '"', '\\', '/'];
  check(chars);
  check(Object.fromEntries(chars.map((c, i) => [`k${c}`, `${c}v${i}${c}`])));
  check({ [`Ä${'x'.repeat(50)}`]: 'ä', '\ud83d\ude00': ['\ud83d\ude00x'] });
  // Texts and payloads larger than the writer's buffer (it grows, and is replaced after a large one).
  const big = 'a'.repeat(70_000);
  check({ a: big, b: `é${big}`, c: `${big}\u0001` });
  check({ doc: 'x'.repeat(3 * 1024 * 1024), list: Array.from({ length: 2000 }, (_, i) => ({ i, s: `é${i}` })) });
  check({ OrderId: 'A', after: 'the big ones' });
  // A BigInt is refused as JSON.stringify refuses it.
  expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
  expect(() => payloadHash({ n: [1n] })).toThrow(TypeError);
  check({ OrderId: 'after a failed write' });
});

test('a toJSON that computes a canonical text or hash while one is being written gets its own; the outer text is unchanged', async () => {
  const { createHash } = await import('node:crypto');
  const inner = { z: 'é', a: [1.5, 2] };
  const nested = {
    b: { toJSON: () => ({ hash: payloadHash(inner), text: canonicalJson(inner) }) },
    a: 'before',
    c: Array.from({ length: 50 }, (_, i) => ({ n: i + 0.25, s: `s${i}` })),
  };
  const plain = { b: { hash: payloadHash(inner), text: canonicalJson(inner) }, a: 'before', c: nested.c };
  expect(canonicalJson(nested)).toBe(reference(plain, false));
  expect(payloadHash(nested)).toBe(createHash('sha256').update(reference(plain, true)).digest('hex'));
});

test('a write cut short (too deep) leaves nothing behind for the next one', () => {
  let deep: unknown = { x: 'tail' };
  for (let i = 0; i < 300; i++) deep = { k: deep, pad: 'p'.repeat(10) };
  expect(() => canonicalJson({ a: 'head', deep })).toThrow(/nested deeper/);
  expect(canonicalJson({ b: 1 })).toBe('{"b":1}');
  expect(canonicalJson('x')).toBe('"x"');
});

test('only own enumerable keys are written: inherited enumerable keys (also on a polluted Object.prototype) are left out, null-prototype objects are written', async () => {
  const { createHash } = await import('node:crypto');
  const check = (p: unknown) => {
    expect(canonicalJson(p)).toBe(reference(p, false));
    expect(payloadHash(p)).toBe(createHash('sha256').update(reference(p, true)).digest('hex'));
  };
  const proto = { inherited: 'x', Sku: 'proto' };
  const child = Object.assign(Object.create(proto) as Record<string, unknown>, { Sku: 'own', Quantity: 1 });
  check({ line: child, same: { Sku: 'own', Quantity: 1 } });
  expect(canonicalJson(child)).toBe('{"Quantity":1,"Sku":"own"}');
  const bare = Object.assign(Object.create(null) as Record<string, unknown>, { b: 1, a: { CardNumber: '4111111111111111' } });
  check(bare);
  expect(canonicalJson(bare)).toBe('{"a":{"CardNumber":"4111111111111111"},"b":1}');
  Object.defineProperty(Object.prototype, 'polluted', { value: 'p', enumerable: true, configurable: true });
  try {
    check({ OrderId: 'A', Products: [{ Sku: 'S', Quantity: 1 }] });
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  } finally {
    delete (Object.prototype as Record<string, unknown>).polluted;
  }
  expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
});

test('a getter that computes a hash while its object is being read gets its own; the outer text is unchanged', async () => {
  const { createHash } = await import('node:crypto');
  const inner = { z: 'é', a: [{ y: 1, x: 2 }] };
  const outer: Record<string, unknown> = { c: { k: 'v', j: ['w'] }, a: 'before' };
  Object.defineProperty(outer, 'b', { enumerable: true, get: () => payloadHash(inner) + canonicalJson(inner) });
  outer.d = { m: 1, l: { q: 2 } };
  const plain = { c: outer.c, a: 'before', b: payloadHash(inner) + canonicalJson(inner), d: outer.d };
  expect(canonicalJson(outer)).toBe(reference(plain, false));
  expect(payloadHash(outer)).toBe(createHash('sha256').update(reference(plain, true)).digest('hex'));
  expect(canonicalJson(plain)).toBe(canonicalJson(outer));
});
