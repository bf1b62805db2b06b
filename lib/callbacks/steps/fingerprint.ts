/**
 * Fingerprint (exactly-once chains only): SHA-256 of the canonical JSON of the payload as received
 * (before URL decoding; of the adapter input for a delivery without a body), for the idempotency
 * key. Runs before the decode step, which changes the order in place. The canonical JSON leaves the
 * card values out; a delivery with card data also hashes in the keyed card digest (parse step,
 * delivery/card-digest.ts): another card is another key, the same card the same key.
 */
import { PipelineFailure } from '../../shared/errors.js';
import { sha256Hex } from '../../shared/sha256.js';
import { payloadHash, PayloadTooDeep } from '../../store/canonical.js';
import type { StepFactory } from '../state.js';

export const fingerprintStep: StepFactory = () => async (state, next) => {
  try {
    const hash = payloadHash(state.payload ?? state.input);
    state.fingerprint = state.cardDigest === undefined ? hash : sha256Hex(Buffer.from(`${hash}:${state.cardDigest}`));
  } catch (err) {
    if (!(err instanceof PayloadTooDeep)) throw err;
    throw new PipelineFailure('INVALID_REQUEST', err.message, 'The request body is nested too deeply');
  }
  return next();
};
