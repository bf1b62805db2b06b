import { postgresFactory } from '../store/harness.js';
import { attemptBehaviour } from './attempts-behaviour.js';
import { idempotencyBehaviour } from './behaviour.js';
import { holdsBehaviour } from './holds-behaviour.js';

const pg = postgresFactory();
afterAll(() => pg.close());

describe('exactly-once callbacks on a PostgresStore', () => {
  idempotencyBehaviour(pg.factory);
});

describe('fulfilment holds on a PostgresStore', () => {
  holdsBehaviour(pg.factory);
});

describe('attempts (lock life, previousAttempt, unsaved replies) on a PostgresStore', () => {
  attemptBehaviour(pg.factory);
});
