/**
 * The kit's exactly-once, hold and attempt behaviour (the suites every store runs) over
 * DurableObjectStore in workerd, and over namespacedStore views of it (another shop busy with the
 * same OrderIds on the same objects). The objects' storage is on disk: what they stored is searched
 * for card data.
 */
import { attemptBehaviour } from '../idempotency/attempts-behaviour.js';
import { idempotencyBehaviour } from '../idempotency/behaviour.js';
import { holdsBehaviour } from '../idempotency/holds-behaviour.js';
import { durableObjectFactory, startObjects, type Objects } from './durable-object-harness.js';
import { namespacedFactory } from './namespaced-views.js';

let objects: Objects;
beforeAll(async () => { objects = await startObjects(); }, 60_000);
afterAll(() => objects?.dispose());

const factory = () => durableObjectFactory(objects)();
const namespaced = namespacedFactory(factory);

describe('DurableObjectStore: exactly-once callbacks', () => { idempotencyBehaviour(factory); });
describe('DurableObjectStore: fulfilment holds', () => { holdsBehaviour(factory); });
describe('DurableObjectStore: attempts', () => { attemptBehaviour(factory); });
describe('namespacedStore(DurableObjectStore): exactly-once callbacks', () => { idempotencyBehaviour(namespaced); });
