/**
 * Canonical JSON and its SHA-256. Canonical: object keys sorted by code unit, no whitespace,
 * `undefined` members left out, numbers and strings as JSON.stringify writes them. A hash may take a
 * member rule (`MemberRule`): by its key, a member is written, left out, or its value written as a
 * marker. Which members (the idempotency fingerprint's card marker, its skipping of MerchantGUID) is
 * the caller's: the key stage's, lib/core/stages/key.ts.
 *
 * Speed (the fingerprint runs on every order callback):
 * - orders repeat a handful of object shapes (every product line, every address has the same keys
 *   in the same order), so the sorted key order of a shape is computed once and cached — keyed by
 *   the object's own key list, compared key by key (property names are interned strings, so each
 *   comparison is a pointer check) — with the position of each sorted key in `Object.values`, so an
 *   object's values are read in one call instead of one keyed load per member;
 * - the text is written as UTF-8 straight into one reusable buffer (ASCII strings byte by byte,
 *   others with `utf8Write`), which the hash reads as it is: no string of the whole text is built,
 *   flattened and encoded again;
 * - the decimal text of non-integer numbers (prices repeat across lines and orders) is kept in a
 *   small direct-mapped table.
 * The output is byte-identical to sorting every object's keys and joining JSON.stringify's texts:
 * the text never holds a lone surrogate (JSON.stringify escapes them), so its UTF-8 form is exact.
 * test/store/canonical.test.ts checks both functions against the plain definition on random payloads.
 */
import { sha256Hex } from '../shared/sha256.js';

export const MAX_DEPTH = 200;
/** Shapes with more keys are sorted every time, not cached. */
const MAX_CACHED_KEYS = 128;
/** The cache is emptied when it holds this many shapes (bodies with random keys cannot grow it). */
const MAX_SHAPES = 1024;
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;

export class PayloadTooDeep extends Error {
  constructor() {
    super(`payload is nested deeper than ${MAX_DEPTH} levels`);
    this.name = 'PayloadTooDeep';
  }
}

/** What a member rule does with a member: written as is, left out, or its value (unless null or '') written as the marker. */
export const KEEP = 0;
export const OMIT = 1;
export const MARK = 2;
export type MemberKind = typeof KEEP | typeof OMIT | typeof MARK;

/** A hash's treatment of object members by their key (the same for every object of the value, at any depth). */
export interface MemberRule {
  /** The kind of a member, by its key: asked once per key of each cached object shape. */
  readonly kindOf: (key: string) => MemberKind;
  /** The text a MARK member's value is replaced by (written as a JSON string). */
  readonly marker: string;
}

interface Shape {
  /** The object's keys in Object.keys order: what a lookup compares. */
  readonly keys: readonly string[];
  /** For each key in sorted (code unit) order, its position in `keys` (and in Object.values). */
  readonly order: Int32Array;
  /** UTF-8 of `"key":` for each sorted key, one after the other; label i ends at `ends[i]`. */
  readonly labels: Uint8Array;
  readonly ends: Int32Array;
  /** The kind of each sorted key under `rule` (the last rule this shape was written with). */
  kinds: Uint8Array | undefined;
  rule: MemberRule | undefined;
}

/** Shapes by their first key (or '' for `{}`): few shapes share one. */
const shapes = new Map<string, Shape[]>();
let shapeCount = 0;

function makeShape(keys: string[]): Shape {
  const order = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) order[i] = i;
  order.sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
  const ends = new Int32Array(keys.length);
  let text = '';
  let end = 0;
  for (let i = 0; i < keys.length; i++) {
    const label = `${JSON.stringify(keys[order[i]])}:`;
    text += label;
    ends[i] = end += Buffer.byteLength(label);
  }
  return { keys, order, labels: Buffer.from(text), ends, kinds: undefined, rule: undefined };
}

/** The kinds of a shape's sorted keys under a rule: computed once per shape while the rule stays the same. */
function kindsOf(shape: Shape, rule: MemberRule): Uint8Array {
  if (shape.rule === rule && shape.kinds !== undefined) return shape.kinds;
  const { keys, order } = shape;
  const kinds = new Uint8Array(keys.length);
  for (let i = 0; i < keys.length; i++) kinds[i] = rule.kindOf(keys[order[i]]);
  shape.kinds = kinds;
  shape.rule = rule;
  return kinds;
}

function shapeOf(keys: string[]): Shape {
  const n = keys.length;
  if (n > MAX_CACHED_KEYS) return makeShape(keys);
  const first = n === 0 ? '' : keys[0];
  let list = shapes.get(first);
  if (list !== undefined) {
    outer: for (let s = 0; s < list.length; s++) {
      const known = list[s].keys;
      if (known.length !== n) continue;
      for (let i = 1; i < n; i++) if (known[i] !== keys[i]) continue outer;
      return list[s];
    }
  }
  const shape = makeShape(keys);
  if (shapeCount >= MAX_SHAPES) {
    shapes.clear();
    shapeCount = 0;
    list = undefined;
  }
  if (list === undefined) shapes.set(first, (list = []));
  list.push(shape);
  shapeCount++;
  return shape;
}

// ---- The output buffer: one, reused; a nested call (a toJSON that hashes) gets its own. ----
const INITIAL_BYTES = 64 * 1024;
/** A buffer grown past this (a large document) is dropped after use instead of being kept. */
const KEEP_BYTES = 1024 * 1024;
let spare: Buffer | null = Buffer.allocUnsafe(INITIAL_BYTES);
let buf: Buffer = spare;
let pos = 0;

function ensure(n: number): void {
  if (pos + n <= buf.length) return;
  const bigger = Buffer.allocUnsafe(Math.max(buf.length * 2, pos + n));
  buf.copy(bigger, 0, 0, pos);
  buf = bigger;
}

function byte(b: number): void {
  if (pos >= buf.length) ensure(1);
  buf[pos++] = b;
}

/** Writes text known to be ASCII (numbers, literals). */
function ascii(s: string): void {
  const n = s.length;
  ensure(n);
  const b = buf;
  let p = pos;
  for (let i = 0; i < n; i++) b[p++] = s.charCodeAt(i);
  pos = p;
}

/** Bytes `from` to `to` of `a`. */
function bytes(a: Uint8Array, from: number, to: number): void {
  ensure(to - from);
  const b = buf;
  let p = pos;
  for (let i = from; i < to; i++) b[p++] = a[i];
  pos = p;
}

/** A string as JSON.stringify writes it, UTF-8 encoded. */
function string(s: string): void {
  const n = s.length;
  ensure(n + 2);
  const b = buf;
  let p = pos;
  b[p++] = 0x22;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) b[p++] = c;
    else return slowString(s);
  }
  b[p++] = 0x22;
  pos = p;
}

/** A string with non-ASCII characters or characters to escape (`pos` still at its start). */
function slowString(s: string): void {
  const text = NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
  ensure(text.length * 3);
  pos += buf.write(text, pos);
}

// Decimal texts of non-integer numbers, in a direct-mapped table keyed by the number's bits.
const NUMBER_SLOTS = 1024;
const numberKeys = new Float64Array(NUMBER_SLOTS).fill(NaN);
const numberTexts: string[] = new Array<string>(NUMBER_SLOTS).fill('');
const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);

function number(v: number): void {
  if ((v | 0) === v) return ascii(`${v}`);
  if (!Number.isFinite(v)) return ascii('null');
  bits[0] = v;
  const slot = (words[0] ^ words[1] ^ (words[1] >>> 11)) & (NUMBER_SLOTS - 1);
  if (numberKeys[slot] === v) return ascii(numberTexts[slot]);
  const text = `${v}`;
  numberKeys[slot] = v;
  numberTexts[slot] = text;
  ascii(text);
}

function primitive(value: unknown): void {
  if (typeof value === 'string') string(value);
  else if (typeof value === 'number') number(value);
  else if (typeof value === 'boolean') ascii(value ? 'true' : 'false');
  else ascii(JSON.stringify(value) ?? 'null'); // null, undefined, a symbol; a BigInt throws, as JSON.stringify does
}

function write(value: unknown, depth: number, rule: MemberRule | undefined): void {
  if (depth > MAX_DEPTH) throw new PayloadTooDeep();
  if (value === null || typeof value !== 'object') return primitive(value);
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return write((value as { toJSON(): unknown }).toJSON(), depth + 1, rule);
  }
  const deep = depth >= MAX_DEPTH;
  if (Array.isArray(value)) {
    byte(0x5b);
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      // A hole is left out, as Array.prototype.forEach (the definition's writer) leaves it out.
      if (v === undefined && !(i in value)) continue;
      if (deep) throw new PayloadTooDeep();
      if (i > 0) byte(0x2c);
      if (v === undefined) ascii('null');
      else if (v === null || typeof v !== 'object') primitive(v);
      else write(v, depth + 1, rule);
    }
    return byte(0x5d);
  }
  const shape = shapeOf(Object.keys(value));
  const { order, labels, ends } = shape;
  const kinds = rule === undefined ? undefined : kindsOf(shape, rule);
  const values = Object.values(value);
  byte(0x7b);
  let first = true;
  for (let i = 0; i < order.length; i++) {
    const v: unknown = values[order[i]];
    if (v === undefined || typeof v === 'function') continue;
    const kind = kinds === undefined ? KEEP : kinds[i];
    if (kind === OMIT) continue;
    if (deep) throw new PayloadTooDeep();
    if (!first) byte(0x2c);
    first = false;
    bytes(labels, i === 0 ? 0 : ends[i - 1], ends[i]);
    if (kind === MARK && v !== null && v !== '') string((rule as MemberRule).marker);
    else if (v === null || typeof v !== 'object') primitive(v);
    else write(v, depth + 1, rule);
  }
  byte(0x7d);
}

/** Runs `write` into the shared buffer (or a fresh one when called from inside a write) and hands the bytes to `use`. */
function render<T>(value: unknown, rule: MemberRule | undefined, use: (bytes: Buffer) => T): T {
  const own = spare;
  spare = null;
  const outerBuf = buf;
  const outerPos = pos;
  buf = own ?? Buffer.allocUnsafe(INITIAL_BYTES);
  pos = 0;
  try {
    write(value, 0, rule);
    return use(buf.subarray(0, pos));
  } finally {
    if (own) spare = buf.length <= KEEP_BYTES ? buf : Buffer.allocUnsafe(INITIAL_BYTES);
    buf = outerBuf;
    pos = outerPos;
  }
}

const toText = (b: Buffer) => b.toString('utf8');

/** Canonical JSON text of a value (no masking). */
export function canonicalJson(value: unknown): string {
  return render(value, undefined, toText);
}

/** SHA-256 (hex) of the canonical JSON of a value, its members written, left out or marked as `rule` says. */
export function canonicalHash(value: unknown, rule?: MemberRule): string {
  return render(value, rule, sha256Hex);
}

/** Longest text a store keeps as a key part as it is (PostgreSQL's btree takes ~2,700 bytes a row). */
export const MAX_KEY_PART = 200;

/**
 * A key part that always fits a store's index and column: the text itself when it is at most
 * MAX_KEY_PART characters of well-formed text without NUL, else `sha256:<hex>` of it. (The kit
 * refuses such OrderIds with 400 before anything runs; this keeps the stores safe from any caller.)
 */
export function storeKeyPart(text: string): string {
  const wellFormed = (text as unknown as { isWellFormed?: () => boolean }).isWellFormed?.() ?? true;
  if (text.length <= MAX_KEY_PART && wellFormed && !text.includes('\u0000')) return text;
  return `sha256:${sha256Hex(Buffer.from(text, 'utf16le'))}`;
}
