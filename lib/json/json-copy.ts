/**
 * jsonCopy(v): the value `JSON.parse(JSON.stringify(v))` gives, made without the text in between.
 * Strings are immutable, so the copy shares them with `v` instead of re-creating them: a stored
 * reply then costs its objects only (MemoryStore keeps tens of thousands of them). Plain objects
 * and arrays are copied here; anything else (a Date, a `toJSON`, a class instance, a Map, a BigInt,
 * a function, a structure deeper than 64 levels or with a cycle, an array longer than 65,536) goes
 * through JSON itself, so the result and the errors are JSON's.
 *
 * jsonCopyWith(v, hook) is the same walk with a replacer: keys dropped and texts rewritten
 * (stripCardData, lib/core/card-data.ts, drops card fields and masks card numbers).
 */

const MAX_DEPTH = 64;
/** Longer arrays go through JSON: a sparse `a.length = 2 ** 32 - 1` is JSON's RangeError at once, not 4 billion nulls filled here (out of memory). */
const MAX_LENGTH = 65_536;

/**
 * What a copy changes, as a JSON replacer would. Both fields are always present (undefined: no
 * change), so every hook has one object shape and the walk uses it as it is, with no copy of it.
 */
export interface CopyHook {
  /** True for a key whose value every object of the copy leaves out (the value is still read as JSON reads it: its getter, its toJSON). */
  readonly drop: ((key: string) => boolean) | undefined;
  /** Each string value (not the keys), e.g. masked. */
  readonly text: ((s: string) => string) | undefined;
}

const PLAIN: CopyHook = { drop: undefined, text: undefined };

/** JSON's own result for `v` found under `key` (toJSON gets the key), through the hook's replacer; undefined when JSON leaves it out. */
function viaJson(v: unknown, key: string, w: CopyHook): unknown {
  const { drop, text } = w;
  const replacer = (k: string, x: unknown): unknown => {
    if (drop !== undefined && drop(k)) return undefined;
    return text !== undefined && typeof x === 'string' ? text(x) : x;
  };
  const json = JSON.stringify(key === '' ? v : { [key]: v }, w === PLAIN ? undefined : replacer);
  if (json === undefined) return undefined;
  const parsed: unknown = JSON.parse(json);
  return key === '' ? parsed : (parsed as Record<string, unknown>)[key];
}

/** The copy of `v`, found under `key` (its property name or index; '' at the top); undefined: left out. */
function copy(v: unknown, key: string, depth: number, w: CopyHook): unknown {
  if (typeof v === 'string') return w.text === undefined ? v : w.text(v);
  if (typeof v === 'boolean' || v === null) return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v + 0 : null; // -0 is written as 0
  if (v === undefined || typeof v === 'symbol') return undefined;
  if (typeof v !== 'object' || depth > MAX_DEPTH) return viaJson(v, key, w); // a function (its toJSON?), a BigInt
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype || 'toJSON' in v || v.length > MAX_LENGTH) return viaJson(v, key, w);
    const out: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const x = copy(v[i], String(i), depth + 1, w);
      out[i] = x === undefined ? null : x;
    }
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(v);
  if ((proto !== Object.prototype && proto !== null) || typeof (v as { toJSON?: unknown }).toJSON === 'function') return viaJson(v, key, w);
  const out: Record<string, unknown> = {};
  const keys = Object.keys(v);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const x = (v as Record<string, unknown>)[k];
    // JSON reads a dropped key's value (its getter, its toJSON) before the replacer drops it: so does this.
    const c = w.drop !== undefined && w.drop(k) ? viaJson(x, k, w) : copy(x, k, depth + 1, w);
    if (c === undefined) continue;
    if (k === '__proto__') Object.defineProperty(out, k, { value: c, enumerable: true, writable: true, configurable: true });
    else out[k] = c;
  }
  return out;
}

/** `JSON.parse(JSON.stringify(value))`, sharing the strings of `value`. */
export function jsonCopy<T>(value: T): T {
  const out = copy(value, '', 0, PLAIN);
  if (out === undefined) JSON.parse(undefined as unknown as string); // JSON's SyntaxError
  return out as T;
}

/**
 * `JSON.parse(JSON.stringify(value, replacer))` where the replacer leaves out the keys `hook.drop`
 * names and passes string values through `hook.text`; undefined where JSON writes no text. Throws
 * what JSON throws (a cycle, a BigInt).
 */
export function jsonCopyWith(value: unknown, hook: CopyHook): unknown {
  return copy(value, '', 0, hook);
}
