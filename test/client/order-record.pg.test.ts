import { postgresFactory } from '../store/harness.js';
import { orderRecordBehaviour } from './order-record-behaviour.js';

const pg = postgresFactory();
afterAll(() => pg.close());

describe('the order\'s record on a PostgresStore (a twin store is another process)', () => {
  orderRecordBehaviour(pg.factory);
});
