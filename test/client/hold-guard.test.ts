import { memoryFactory } from '../store/harness.js';
import { holdGuardBehaviour } from './hold-guard-behaviour.js';

describe('dispatch hold guard on a MemoryStore', () => {
  holdGuardBehaviour(memoryFactory);
});
