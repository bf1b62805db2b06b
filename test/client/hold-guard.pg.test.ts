import { postgresFactory } from '../store/harness.js';
import { holdGuardBehaviour } from './hold-guard-behaviour.js';

const pg = postgresFactory();
afterAll(() => pg.close());

describe('dispatch hold guard on a PostgresStore', () => {
  holdGuardBehaviour(pg.factory);
});
