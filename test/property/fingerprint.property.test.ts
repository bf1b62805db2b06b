/**
 * Property: the canonical fingerprint (payloadHash) is equal for equal payloads in any key order and
 * different for any changed value (issue 36 item 11). MerchantGUID (left out) and the card values
 * (masked: their keyed digest is added by the pipeline) are not generated here.
 */
import fc from 'fast-check';
import { payloadHash } from '../../lib/core/stages/key.js';
import { holds, paths, shuffled, type Json } from './settings.js';


const key = fc.string({ maxLength: 8 }).filter((k) => !['MerchantGUID', 'CardNumber', 'CVVNumber'].includes(k));
const { json } = fc.letrec<{ json: Json; object: Record<string, Json> }>((tie) => ({
  json: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    fc.constant(null), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.string({ maxLength: 12 }),
    fc.array(tie('json'), { maxLength: 4 }), tie('object')) as fc.Arbitrary<Json>,
  object: fc.dictionary(key, tie('json'), { maxKeys: 5 }),
}));
const payload = fc.dictionary(key, json, { minKeys: 1, maxKeys: 6 });

/** `value` with every object's keys in another order (Object.fromEntries: `__proto__` stays an own key). */
function reordered(value: Json, seed: number): Json {
  if (Array.isArray(value)) return value.map((v, i) => reordered(v, seed + i + 1));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(shuffled(Object.entries(value), seed).map(([k, v], i) => [k, reordered(v, seed * 31 + i)]));
}

function get(value: Json, path: readonly (string | number)[]): Json {
  return path.reduce<Json>((v, p) => (v as Record<string | number, Json>)[p], value);
}

/** A deep copy of `value` with the value at `path` replaced. */
function replaced(value: Json, path: readonly (string | number)[], by: Json): Json {
  if (path.length === 0) return by;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? replaced(v, rest, by) : v));
  return Object.fromEntries(Object.entries(value as Record<string, Json>).map(([k, v]) => [k, k === head ? replaced(v, rest, by) : v]));
}

test('equal payloads in any key order have one fingerprint', async () => {
  await holds(fc.property(payload, fc.integer(), (p, seed) => payloadHash(p) === payloadHash(reordered(p, seed))));
});

test('a parsed copy (JSON round trip) has the same fingerprint', async () => {
  await holds(fc.property(payload, (p) => payloadHash(p) === payloadHash(JSON.parse(JSON.stringify(p)))));
});

test('any changed value, at any depth, changes the fingerprint', async () => {
  const changed = payload.chain((p) => fc.record({
    p: fc.constant(p), path: fc.constantFrom(...paths(p)), by: json,
  })).filter(({ p, path, by }) => JSON.stringify(get(p, path)) !== JSON.stringify(by));
  await holds(fc.property(changed, ({ p, path, by }) => payloadHash(p) !== payloadHash(replaced(p, path, by))));
});

test('an added or removed member changes the fingerprint', async () => {
  await holds(fc.property(payload, key, json, (p, k, v) => {
    if (Object.prototype.hasOwnProperty.call(p, k)) {
      const without = Object.fromEntries(Object.entries(p).filter(([name]) => name !== k));
      return payloadHash(p) !== payloadHash(without);
    }
    return payloadHash(p) !== payloadHash(Object.fromEntries([...Object.entries(p), [k, v]]));
  }));
});
