/** A namespacedStore view of a PostgresStore keeps the whole Store contract and the kit's exactly-once, hold and attempt behaviour. */
import { attemptBehaviour } from '../idempotency/attempts-behaviour.js';
import { idempotencyBehaviour } from '../idempotency/behaviour.js';
import { holdsBehaviour } from '../idempotency/holds-behaviour.js';
import { storeContract } from './contract.js';
import { postgresFactory } from './harness.js';
import { namespacedFactory } from './namespaced-views.js';

const pg = postgresFactory();
afterAll(() => pg.close());
const factory = namespacedFactory(pg.factory);

describe('namespacedStore(PostgresStore): the Store contract', () => { storeContract(factory); });
describe('namespacedStore(PostgresStore): exactly-once callbacks', () => { idempotencyBehaviour(factory); });
describe('namespacedStore(PostgresStore): fulfilment holds', () => { holdsBehaviour(factory); });
describe('namespacedStore(PostgresStore): attempts', () => { attemptBehaviour(factory); });
