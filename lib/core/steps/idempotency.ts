/**
 * Idempotency slot: exactly-once delivery of callbacks (filled by the store issue).
 * For now it passes every delivery through.
 */
import type { StepFactory } from '../state.js';

export const idempotencyStep: StepFactory = () => async (_state, next) => next();
