/**
 * Fingerprint (exactly-once chains only): SHA-256 of the canonical JSON of the payload as received
 * (before URL decoding; of the adapter input for a delivery without a body), for the idempotency
 * key. Runs before the decode step, which changes the order in place.
 */
import { PipelineFailure } from '../../shared/errors.js';
import { payloadHash, PayloadTooDeep } from '../../store/canonical.js';
import type { StepFactory } from '../state.js';

export const fingerprintStep: StepFactory = () => async (state, next) => {
  try {
    state.fingerprint = payloadHash(state.payload ?? state.input);
  } catch (err) {
    if (!(err instanceof PayloadTooDeep)) throw err;
    throw new PipelineFailure('INVALID_REQUEST', err.message, 'The request body is nested too deeply');
  }
  return next();
};
