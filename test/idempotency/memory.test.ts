import { memoryFactory } from '../store/harness.js';
import { attemptBehaviour } from './attempts-behaviour.js';
import { idempotencyBehaviour } from './behaviour.js';
import { holdsBehaviour } from './holds-behaviour.js';

describe('exactly-once callbacks on a MemoryStore', () => {
  idempotencyBehaviour(memoryFactory);
});

describe('fulfilment holds on a MemoryStore', () => {
  holdsBehaviour(memoryFactory);
});

describe('attempts (lock life, previousAttempt, unsaved replies) on a MemoryStore', () => {
  attemptBehaviour(memoryFactory);
});
