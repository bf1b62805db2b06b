/**
 * Canonical JSON and the payload fingerprint of a delivery. Canonical: object keys sorted by code
 * unit, no whitespace, `undefined` members left out, numbers and strings as JSON.stringify writes
 * them. Before hashing, the values of CardNumber and CVVNumber are replaced by a marker (a card
 * number is guessable from BIN + last four digits, so its hash must not be stored) and MerchantGUID
 * is left out (a rotated GUID does not make a redelivery a new delivery).
 */
import { createHash, type Hash } from 'node:crypto';

const CARD_KEYS = new Set(['CardNumber', 'CVVNumber']);
const MAX_DEPTH = 200;

export class PayloadTooDeep extends Error {
  constructor() {
    super(`payload is nested deeper than ${MAX_DEPTH} levels`);
    this.name = 'PayloadTooDeep';
  }
}

type Sink = (piece: string) => void;

function write(value: unknown, out: Sink, depth: number, fingerprint: boolean): void {
  if (depth > MAX_DEPTH) throw new PayloadTooDeep();
  if (value === null || typeof value !== 'object') {
    out(JSON.stringify(value) ?? 'null');
    return;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    write((value as { toJSON(): unknown }).toJSON(), out, depth + 1, fingerprint);
    return;
  }
  if (Array.isArray(value)) {
    out('[');
    value.forEach((v, i) => {
      if (i > 0) out(',');
      write(v === undefined ? null : v, out, depth + 1, fingerprint);
    });
    out(']');
    return;
  }
  const keys = Object.keys(value).sort();
  out('{');
  let first = true;
  for (const k of keys) {
    let v = (value as Record<string, unknown>)[k];
    if (v === undefined || typeof v === 'function') continue;
    if (fingerprint) {
      if (k === 'MerchantGUID') continue;
      if (CARD_KEYS.has(k) && v !== null && v !== '') v = '[card]';
    }
    if (!first) out(',');
    first = false;
    out(JSON.stringify(k));
    out(':');
    write(v, out, depth + 1, fingerprint);
  }
  out('}');
}

/** Canonical JSON text of a value (no masking). */
export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  write(value, (p) => parts.push(p), 0, false);
  return parts.join('');
}

/** SHA-256 (hex) of the canonical JSON of a payload, card values masked and MerchantGUID left out. */
export function payloadHash(payload: unknown): string {
  const hash: Hash = createHash('sha256');
  let buffered = '';
  write(payload, (p) => {
    buffered += p;
    if (buffered.length >= 65536) { hash.update(buffered); buffered = ''; }
  }, 0, true);
  hash.update(buffered);
  return hash.digest('hex');
}

/** The idempotency key of a delivery: stable across redeliveries of the same payload. */
export function idempotencyKey(callback: string, orderId: string, hash: string): string {
  return `${callback}:${orderId}:${hash}`;
}
