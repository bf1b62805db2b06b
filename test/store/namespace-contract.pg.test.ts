/** A namespacedStore view of a PostgresStore keeps the whole Store contract and the kit's exactly-once, hold and attempt behaviour. */
import { attemptBehaviour } from '../idempotency/attempts-behaviour.js';
import { idempotencyBehaviour } from '../idempotency/behaviour.js';
import { holdsBehaviour } from '../idempotency/holds-behaviour.js';
import { PostgresStore } from 'crossborder-merchant-kit/store';
import { runStoreConformance } from 'crossborder-merchant-kit/testing';
import { namespacedStore } from '../../lib/store/namespace.js';
import { postgresFactory } from './harness.js';
import { namespacedFactory } from './namespaced-views.js';

const pg = postgresFactory();
const schemas = new Set<string>();
const schemaOf = new WeakMap<object, string>();
afterAll(async () => {
  for (const s of schemas) await pg.pool.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  await pg.close();
});
const factory = namespacedFactory(pg.factory);

runStoreConformance(async ({ ttlMs }) => {
  const schema = `t_ns_${Math.random().toString(36).slice(2, 10)}`;
  schemas.add(schema);
  const base = new PostgresStore({ pool: pg.pool, schema, ...(ttlMs === undefined ? {} : { ttl: ttlMs }) });
  await base.migrate();
  await namespacedStore(base, 'shop-us').saveRecord({ key: 'k:O-1:a', callback: 'sendOrderToMerchant', orderId: 'O-1', hash: 'a', response: { Success: true }, payment: true });
  const view = namespacedStore(base, 'shop-eu');
  schemaOf.set(view, schema);
  return view;
}, {
  describe, it, title: 'namespacedStore(PostgresStore) conformance', concurrency: Infinity,
  twin: (view) => namespacedStore(new PostgresStore({ pool: pg.pool, schema: schemaOf.get(view)! }), 'shop-eu'),
  capabilities: ['payments', 'latest', 'attempts', 'merchantOrderIds', 'manualRelease', 'batching', 'activeHolds'],
});
describe('namespacedStore(PostgresStore): exactly-once callbacks', () => { idempotencyBehaviour(factory); });
describe('namespacedStore(PostgresStore): fulfilment holds', () => { holdsBehaviour(factory); });
describe('namespacedStore(PostgresStore): attempts', () => { attemptBehaviour(factory); });
