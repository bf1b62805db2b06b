/**
 * jsonCopy(v): the value `JSON.parse(JSON.stringify(v))` gives, made without the text in between.
 * Strings are immutable, so the copy shares them with `v` instead of re-creating them: a stored
 * reply then costs its objects only (MemoryStore keeps tens of thousands of them). Plain objects
 * and arrays are copied here; anything else (a Date, a `toJSON`, a class instance, a Map, a BigInt,
 * a structure deeper than 64 levels or with a cycle, an array longer than 65,536) goes through JSON
 * itself, so the result and the errors are JSON's.
 */

const MAX_DEPTH = 64;
/** Longer arrays go through JSON: a sparse `a.length = 2 ** 32 - 1` is JSON's RangeError at once, not 4 billion nulls filled here (out of memory). */
const MAX_LENGTH = 65_536;

/** JSON's own result for `v` found under `key` (toJSON gets the key); undefined when JSON leaves it out. */
function viaJson(v: unknown, key: string): unknown {
  if (key === '') return JSON.parse(JSON.stringify(v) as string) as unknown;
  return (JSON.parse(JSON.stringify({ [key]: v })) as Record<string, unknown>)[key];
}

/** Values JSON.stringify leaves out of an object (and writes as null in an array). */
const skipped = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/** The copy of `v`, found under `key` (its property name or index; '' at the top); undefined: left out. */
function copy(v: unknown, key: string, depth: number): unknown {
  if (typeof v === 'string' || typeof v === 'boolean' || v === null) return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v + 0 : null; // -0 is written as 0
  if (typeof v !== 'object' || depth > MAX_DEPTH) return viaJson(v, key);
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype || 'toJSON' in v || v.length > MAX_LENGTH) return viaJson(v, key);
    const out: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const x = skipped(v[i]) ? undefined : copy(v[i], String(i), depth + 1);
      out[i] = x === undefined ? null : x;
    }
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(v);
  if ((proto !== Object.prototype && proto !== null) || typeof (v as { toJSON?: unknown }).toJSON === 'function') return viaJson(v, key);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[k];
    const c = skipped(x) ? undefined : copy(x, k, depth + 1);
    if (c === undefined) continue;
    if (k === '__proto__') Object.defineProperty(out, k, { value: c, enumerable: true, writable: true, configurable: true });
    else out[k] = c;
  }
  return out;
}

/** `JSON.parse(JSON.stringify(value))`, sharing the strings of `value`. */
export function jsonCopy<T>(value: T): T {
  const out = copy(value, '', 0);
  if (out === undefined) JSON.parse(undefined as unknown as string); // JSON's SyntaxError
  return out as T;
}
