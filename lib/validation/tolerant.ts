/**
 * The tolerant form of the schemas (docs/compatibility.md): what the service really sends is accepted
 * where it deviates from the specification without touching what the kit relies on.
 *
 * Derived from the one source of truth (schemas/), never written by hand:
 * - `required` is dropped from every schema, except the top level of the callback request schemas
 *   (`roots`: the request schemas of the callback registry, given by createValidators and the type
 *   generator): StatusCode of UpdateOrderStatus, the PaymentDetails object of PerformOrderPayment, the
 *   documents list — what the adapter contract depends on (an exactly-once callback's OrderId is
 *   required by its registry entry, whatever its schema says);
 * - types and enums stay (the adapter's TypeScript types promise them): a value that is present must
 *   still have its type; patterns, formats and length/range limits (`CurrencyCode` ^[A-Z]{3}$, a
 *   YYYY-MM-DD `ExpirationDate`) are not in those types and are reported, not refused;
 * - `null` means absent: `withoutNulls` removes null-valued properties (and, for requests, null array
 *   elements) before validation, so the adapter sees the field absent;
 * - typed values sent as text (`"8"` where a number belongs) are read as such: lib/validation/coerce.ts.
 *
 * Used at run time (the tolerant AJV instance) and by the type generator (types follow: a field the
 * tolerant form does not require is optional in lib/generated/types.ts). No imports: the generator
 * loads it before lib/generated exists.
 */

const SCHEMA_ID_BASE = 'https://schemas.crossborder-merchant-kit.invalid/';

type Json = unknown;
/** Keywords whose value is data, not a schema. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'required', '$comment', 'description', 'title']);
/** Keywords whose value maps names to schemas (a property named `required` is not the keyword). */
const MAP_KEYWORDS = new Set(['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas']);

/** Constraints on a value that its TypeScript type does not express: reported, not refused. */
const VALUE_CONSTRAINTS = new Set([
  'pattern', 'format', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems',
]);
/** Shared string definitions that only add a pattern or format (ISO codes, dates): a plain string in the tolerant form. */
const CONSTRAINED_STRING_REF = /common\.schema\.json#\/\$defs\/(Date|CurrencyCode|CountryCode)$/;

function relax(node: Json, root: boolean, keepRootRequired: boolean): Json {
  if (Array.isArray(node)) return node.map((n) => relax(n, false, false));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, Json> = {};
  const ref = (node as Record<string, Json>).$ref;
  if (typeof ref === 'string' && CONSTRAINED_STRING_REF.test(ref)) out.type = 'string';
  for (const [k, v] of Object.entries(node as Record<string, Json>)) {
    if (k === 'required' && Array.isArray(v) && !(root && keepRootRequired)) continue;
    if (VALUE_CONSTRAINTS.has(k) && typeof v !== 'object') continue;
    if (k === '$ref' && typeof v === 'string' && CONSTRAINED_STRING_REF.test(v)) continue;
    if (DATA_KEYWORDS.has(k)) out[k] = v;
    else if (MAP_KEYWORDS.has(k) && v !== null && typeof v === 'object' && !Array.isArray(v)) {
      out[k] = Object.fromEntries(Object.entries(v as Record<string, Json>).map(([name, s]) => [name, relax(s, false, false)]));
    } else out[k] = relax(v, false, false);
  }
  return out;
}

/**
 * The tolerant form of one schema (a copy; the input is not changed). `rel` is its path under schemas/;
 * a schema among `roots` keeps its top-level `required`.
 * Only schemas under callbacks/ have one; the service resources (what the merchant sends) are returned as they are.
 */
export function tolerantSchema<T extends Record<string, unknown>>(schema: T, rel?: string, roots: readonly string[] = []): T {
  const path = rel ?? (typeof schema.$id === 'string' && schema.$id.startsWith(SCHEMA_ID_BASE) ? schema.$id.slice(SCHEMA_ID_BASE.length) : '');
  if (!path.startsWith('callbacks/')) return schema;
  return relax(schema, true, roots.includes(path)) as T;
}

const escapeToken = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** Nesting past this depth is left as it is (the payload rules refuse such payloads before validation). */
const MAX_NULLS_DEPTH = 64;

/**
 * Removes every null-valued object property of `value`, in place, at any depth. Null array elements
 * are kept (an adapter reply's array length is data) unless `options.elements` is set (a request: the
 * element is dropped, the array shortened). Returns the JSON pointers of what was removed, as it was
 * received (an element's index before any was dropped), after `pointer`, the pointer of `value` itself.
 *
 * Speed: a plain object's members are read with for-in (V8's enum cache: no key or value array per
 * object), and the path is a stack of (container kind, key or index) pairs turned into a pointer only
 * when a null is removed, once per object (a payload without nulls builds no pointer at all; one with
 * many builds each prefix once).
 */
export function withoutNulls(value: unknown, pointer = '', out: string[] = [], options: { elements?: boolean; depth?: number } = {}): string[] {
  const walk: Walk = { base: pointer, path: [], prefixes: [], out, elements: options.elements === true, maxDepth: options.depth ?? MAX_NULLS_DEPTH };
  if (value !== null && typeof value === 'object') {
    // for-in also lists inherited enumerable keys: objects take that path only while Object.prototype has none.
    plainProto = true;
    for (const _ in Object.prototype) {
      plainProto = false;
      break;
    }
    strip(value, walk, 0);
  }
  return out;
}

interface Walk {
  base: string;
  /** Pairs naming the child being walked: its array's index, or its object's key. */
  path: (string | number)[];
  /** The pointer of the object walked at each depth, once built (undefined until a null needs it). */
  prefixes: (string | undefined)[];
  out: string[];
  /** Null array elements are dropped too. */
  elements: boolean;
  /** Containers nested deeper than this are not entered (`options.depth`; MAX_NULLS_DEPTH by default). */
  maxDepth: number;
}

/** Whether Object.prototype has no enumerable key (set per call): for-in then lists an object's own keys, as Object.keys. */
let plainProto = true;

function strip(value: object, walk: Walk, depth: number): void {
  if (depth > walk.maxDepth) return;
  const { path } = walk;
  walk.prefixes[depth] = undefined;
  if (Array.isArray(value)) {
    let kept = 0;
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (v === null && walk.elements) {
        walk.out.push(`${prefixOf(walk, depth)}/${i}`);
        continue;
      }
      if (kept !== i) value[kept] = v;
      kept++;
      if (v !== null && typeof v === 'object') {
        path.push(i);
        strip(v, walk, depth + 1);
        path.pop();
      }
    }
    if (kept !== value.length) value.length = kept;
    return;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === Object.prototype ? plainProto : proto === null) {
    // Deleting the member being visited is safe in for-in: the keys after it are still visited, once.
    for (const k in value) member(value as Record<string, unknown>, k, walk, depth);
  } else {
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) member(value as Record<string, unknown>, keys[i], walk, depth);
  }
}

function member(value: Record<string, unknown>, k: string, walk: Walk, depth: number): void {
  const v = value[k];
  if (typeof v !== 'object') return;
  if (v === null) {
    delete value[k];
    walk.out.push(`${prefixOf(walk, depth)}/${escapeToken(k)}`);
  } else {
    walk.path.push(k);
    strip(v, walk, depth + 1);
    walk.path.pop();
  }
}

/** The pointer of the object walked at `depth` (built from its parent's, once per object). */
function prefixOf(walk: Walk, depth: number): string {
  const known = walk.prefixes[depth];
  if (known !== undefined) return known;
  let p = walk.base;
  if (depth > 0) {
    const at = walk.path[depth - 1];
    p = `${prefixOf(walk, depth - 1)}/${typeof at === 'number' ? String(at) : escapeToken(at)}`;
  }
  walk.prefixes[depth] = p;
  return p;
}
