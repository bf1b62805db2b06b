/**
 * The key of an exactly-once delivery: `<callback>:<OrderId>:<fingerprint>`, the fingerprint being the
 * SHA-256 of the canonical JSON of the payload as received (parse never changes it: URL decoding
 * makes a copy; of the adapter input for a delivery without a body). Its rules (stages/fingerprint.ts)
 * leave the card values out; a delivery with card data also hashes in the keyed card digest (parse stage,
 * card-data/digest.ts): another card is another key, the same card the same key. An entry with
 * `keyFields` (a return: OrderId + RMANumber; a parcel dispatch: OrderId + parcel + status) is fingerprinted by
 * those fields of its input only (dotted paths; `?`: optional).
 */
import { PipelineFailure } from '../../shared/errors.js';
import { isObject } from '../../shared/options.js';
import { sha256Hex } from '../../shared/sha256.js';
import { PayloadTooDeep } from '../../json/canonical.js';
import { idempotencyKey, payloadHash } from './fingerprint.js';
import { paymentExpected } from './adapter-reply.js';
import type { Keyed, Validated } from './types.js';

/** The value at a dotted path (`DispatchedParcel.ParcelCode`) of the input. */
function valueAt(input: unknown, path: string): unknown {
  let value: unknown = input;
  for (const part of path.split('.')) value = isObject(value) ? value[part] : undefined;
  return value;
}

/**
 * The key fields of an input as text (a number and its decimal text are the same event). A field is a
 * dotted path; a trailing `?` makes it optional: absent, null or empty, it is left out of the key (one
 * event "without it"). 400 when a required field is missing, when any field is not a string or number of
 * at most 200 characters, or when one is a number JSON cannot carry exactly (beyond 2^53:
 * 12345678901234567890 and …891 parse to one number, so two returns would get one key), as an
 * unsafe-integer OrderId is.
 */
function keyOf(input: unknown, fields: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const spec of fields) {
    const optional = spec.endsWith('?');
    const field = optional ? spec.slice(0, -1) : spec;
    const value = valueAt(input, field);
    if (optional && (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))) continue;
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
      throw new PipelineFailure('INVALID_REQUEST', `${field} is a number JSON cannot carry exactly`, `${field} must be a string (or an integer up to 2^53 - 1)`);
    }
    const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : '';
    if (text === '' || text.length > 200) {
      throw new PipelineFailure('INVALID_REQUEST', `${field} missing or not a string`,
        optional ? `${field}, when given, must be a string of at most 200 characters` : `${field} is required (a non-empty string of at most 200 characters)`);
    }
    out[field] = text;
  }
  return out;
}

/** The key stage (exactly-once entries): the fingerprint and idempotency key, or the 400 refusal. */
export function key(delivery: Validated): Keyed {
  const { orderId, entry } = delivery;
  // Fail closed: parse refuses an exactly-once delivery without an OrderId.
  if (orderId === undefined) throw new Error(`exactly-once ${delivery.callback} reached its key without an OrderId`);
  let fingerprint: string;
  try {
    const hash = payloadHash(entry.keyFields ? { keyFields: keyOf(delivery.input, entry.keyFields) } : delivery.payload ?? delivery.input);
    fingerprint = delivery.cardDigest === undefined ? hash : sha256Hex(Buffer.from(`${hash}:${delivery.cardDigest}`));
  } catch (err) {
    if (!(err instanceof PayloadTooDeep)) throw err;
    throw new PipelineFailure('INVALID_REQUEST', err.message, 'The request body is nested too deeply');
  }
  const d = delivery;
  // Listed, not spread: a spread that adds fields costs a hidden class per delivery (stages/validate.ts, validated()).
  return {
    callback: d.callback, entry, request: d.request, body: d.body, requestId: d.requestId, log: d.log,
    payload: d.payload, input: d.input, envelope: d.envelope, orderId, nullFree: d.nullFree, cardMask: d.cardMask, cardDigest: d.cardDigest,
    deviations: d.deviations,
    fingerprint, key: idempotencyKey(d.callback, orderId, fingerprint), payment: paymentExpected(d),
  };
}
