/**
 * Fingerprint (exactly-once chains only): SHA-256 of the canonical JSON of the payload as received
 * (before URL decoding; of the adapter input for a delivery without a body), for the idempotency
 * key. Runs before the decode step, which changes the order in place. The canonical JSON leaves the
 * card values out; a delivery with card data also hashes in the keyed card digest (parse step,
 * delivery/card-digest.ts): another card is another key, the same card the same key. An entry with
 * `keyFields` (a return: OrderId + RMANumber) is fingerprinted by those fields of its input only, each required.
 */
import { PipelineFailure } from '../../shared/errors.js';
import { isObject } from '../../shared/options.js';
import { sha256Hex } from '../../shared/sha256.js';
import { payloadHash, PayloadTooDeep } from '../../json/canonical.js';
import type { StepFactory } from '../state.js';

/** The key fields of an input as text (a number and its decimal text are the same event); 400 when one is missing. */
function keyOf(input: unknown, fields: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of fields) {
    const value = isObject(input) ? input[field] : undefined;
    const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : '';
    if (text === '' || text.length > 200) {
      throw new PipelineFailure('INVALID_REQUEST', `${field} missing or not a string`, `${field} is required (a non-empty string of at most 200 characters)`);
    }
    out[field] = text;
  }
  return out;
}

export const fingerprintStep: StepFactory = () => async (state, next) => {
  const fields = state.entry.keyFields;
  try {
    const hash = payloadHash(fields ? { keyFields: keyOf(state.input, fields) } : state.payload ?? state.input);
    state.fingerprint = state.cardDigest === undefined ? hash : sha256Hex(Buffer.from(`${hash}:${state.cardDigest}`));
  } catch (err) {
    if (!(err instanceof PayloadTooDeep)) throw err;
    throw new PipelineFailure('INVALID_REQUEST', err.message, 'The request body is nested too deeply');
  }
  return next();
};
