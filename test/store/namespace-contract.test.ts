/** A namespacedStore view of a MemoryStore keeps the whole Store contract and the kit's exactly-once, hold and attempt behaviour. */
import { attemptBehaviour } from '../idempotency/attempts-behaviour.js';
import { idempotencyBehaviour } from '../idempotency/behaviour.js';
import { holdsBehaviour } from '../idempotency/holds-behaviour.js';
import { storeContract } from './contract.js';
import { memoryFactory } from './harness.js';
import { namespacedFactory } from './namespaced-views.js';

const factory = namespacedFactory(memoryFactory);

describe('namespacedStore(MemoryStore): the Store contract', () => { storeContract(factory); });
describe('namespacedStore(MemoryStore): exactly-once callbacks', () => { idempotencyBehaviour(factory); });
describe('namespacedStore(MemoryStore): fulfilment holds', () => { holdsBehaviour(factory); });
describe('namespacedStore(MemoryStore): attempts', () => { attemptBehaviour(factory); });
