/**
 * Fingerprint: SHA-256 of the canonical JSON of the payload as received (before URL decoding),
 * for the idempotency key. Runs before the decode step, which changes the order in place.
 */
import { PipelineFailure } from '../../shared/errors.js';
import { payloadHash, PayloadTooDeep } from '../../store/canonical.js';
import type { PipelineState, StepFactory } from '../state.js';

/** The payload hash of a delivery, once the fingerprint step has run (cart-info requests have none). */
export const fingerprintOf = (state: PipelineState): string | undefined => state.fingerprint;

export const fingerprintStep: StepFactory = () => async (state, next) => {
  if (state.entry.kind !== 'read' && state.payload) {
    try {
      state.fingerprint = payloadHash(state.payload);
    } catch (err) {
      if (!(err instanceof PayloadTooDeep)) throw err;
      throw new PipelineFailure('INVALID_REQUEST', err.message, 'The request body is nested too deeply');
    }
  }
  return next();
};
