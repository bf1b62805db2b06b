import { memoryFactory } from '../store/harness.js';
import { idempotencyBehaviour } from './behaviour.js';
import { holdsBehaviour } from './holds-behaviour.js';

describe('exactly-once callbacks on a MemoryStore', () => {
  idempotencyBehaviour(memoryFactory);
});

describe('fulfilment holds on a MemoryStore', () => {
  holdsBehaviour(memoryFactory);
});
