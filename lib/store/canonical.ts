/**
 * Canonical JSON and the payload fingerprint of a delivery. Canonical: object keys sorted by code
 * unit, no whitespace, `undefined` members left out, numbers and strings as JSON.stringify writes
 * them. Before hashing, the values of CardNumber and CVVNumber are replaced by a marker (a card
 * number is guessable from BIN + last four digits, so its hash must not be stored) and MerchantGUID
 * is left out (a rotated GUID does not make a redelivery a new delivery).
 *
 * Speed: orders repeat a handful of object shapes (every product line, every address has the same
 * keys in the same order), so the sorted key order of a shape is computed once and cached — keyed
 * by the object's own key list, compared key by key (property names are interned strings, so each
 * comparison is a pointer check). The output is byte-identical to sorting every object's keys;
 * test/store/canonical.test.ts checks both functions against the plain definition on random payloads.
 */
import { createHash } from 'node:crypto';

export const MAX_DEPTH = 200;
/** Shapes with more keys are sorted every time, not cached. */
const MAX_CACHED_KEYS = 128;
/** The cache is emptied when it holds this many shapes (bodies with random keys cannot grow it). */
const MAX_SHAPES = 1024;
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;
const CARD = '"[card]"';

export class PayloadTooDeep extends Error {
  constructor() {
    super(`payload is nested deeper than ${MAX_DEPTH} levels`);
    this.name = 'PayloadTooDeep';
  }
}

/** Member kinds in fingerprint mode: written as is, left out (MerchantGUID), masked (card values). */
const PLAIN = 0;
const SKIP = 1;
const MASK = 2;

interface Shape {
  /** The object's keys in Object.keys order: what a lookup compares. */
  readonly keys: readonly string[];
  /** The same keys sorted by code unit. */
  readonly sorted: readonly string[];
  /** `"key":` for each sorted key. */
  readonly labels: readonly string[];
  /** Fingerprint-mode kind of each sorted key. */
  readonly kinds: Uint8Array;
}

/** Shapes by their first key (or '' for `{}`): few shapes share one. */
const shapes = new Map<string, Shape[]>();
let shapeCount = 0;

function makeShape(keys: string[]): Shape {
  const sorted = keys.slice().sort();
  const kinds = new Uint8Array(sorted.length);
  for (let i = 0; i < sorted.length; i++) {
    const k = sorted[i];
    kinds[i] = k === 'MerchantGUID' ? SKIP : k === 'CardNumber' || k === 'CVVNumber' ? MASK : PLAIN;
  }
  return { keys, sorted, labels: sorted.map((k) => `${JSON.stringify(k)}:`), kinds };
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

function primitive(value: unknown): string {
  if (typeof value === 'string') return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
  if (typeof value === 'number') return Number.isFinite(value) ? `${value}` : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return JSON.stringify(value) ?? 'null';
}

function write(value: unknown, depth: number, fingerprint: boolean): string {
  if (depth > MAX_DEPTH) throw new PayloadTooDeep();
  if (value === null || typeof value !== 'object') return primitive(value);
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return write((value as { toJSON(): unknown }).toJSON(), depth + 1, fingerprint);
  }
  if (Array.isArray(value)) {
    const deep = depth >= MAX_DEPTH;
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      // A hole is left out, as Array.prototype.forEach (the definition's writer) leaves it out.
      if (v === undefined && !(i in value)) continue;
      if (deep) throw new PayloadTooDeep();
      if (i > 0) out += ',';
      out += v === undefined ? 'null' : v === null || typeof v !== 'object' ? primitive(v) : write(v, depth + 1, fingerprint);
    }
    return `${out}]`;
  }
  const shape = shapeOf(Object.keys(value));
  const { sorted, labels, kinds } = shape;
  const deep = depth >= MAX_DEPTH;
  let out = '{';
  let first = true;
  for (let i = 0; i < sorted.length; i++) {
    const v: unknown = (value as Record<string, unknown>)[sorted[i]];
    if (v === undefined || typeof v === 'function') continue;
    let text: string;
    if (fingerprint && kinds[i] !== PLAIN) {
      if (kinds[i] === SKIP) continue;
      if (deep) throw new PayloadTooDeep();
      text = v !== null && v !== '' ? CARD : write(v, depth + 1, fingerprint);
    } else {
      if (deep) throw new PayloadTooDeep();
      text = v === null || typeof v !== 'object' ? primitive(v) : write(v, depth + 1, fingerprint);
    }
    out += first ? labels[i] : `,${labels[i]}`;
    out += text;
    first = false;
  }
  return `${out}}`;
}

/** Canonical JSON text of a value (no masking). */
export function canonicalJson(value: unknown): string {
  return write(value, 0, false);
}

/** SHA-256 (hex) of the canonical JSON of a payload, card values masked and MerchantGUID left out. */
export function payloadHash(payload: unknown): string {
  return createHash('sha256').update(write(payload, 0, true)).digest('hex');
}

/** The idempotency key of a delivery: stable across redeliveries of the same payload. */
export function idempotencyKey(callback: string, orderId: string, hash: string): string {
  return `${callback}:${storeKeyPart(orderId)}:${hash}`;
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
  return `sha256:${createHash('sha256').update(text, 'utf16le').digest('hex')}`;
}
