/**
 * PostgresStore passes the store conformance suite exported from /testing, with every capability,
 * its twin a second PostgresStore over the same schema (as a second process has), batched or not.
 */
import pg from 'pg';
import { PostgresStore } from 'crossborder-merchant-kit/store';
import { runStoreConformance } from 'crossborder-merchant-kit/testing';
import { databaseUrl } from './harness.js';

const pool = new pg.Pool({ connectionString: databaseUrl(), max: 20 });
const schemas = new Set<string>();
afterAll(async () => {
  for (const s of schemas) await pool.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  await pool.end();
});

for (const batchStatements of [true, false]) {
  runStoreConformance(async ({ ttlMs }) => {
    const schema = `t_conf_${Math.random().toString(36).slice(2, 10)}`;
    schemas.add(schema);
    const store = new PostgresStore({ pool, schema, batchStatements, ...(ttlMs === undefined ? {} : { ttl: ttlMs }) });
    await store.migrate();
    return store;
  }, {
    describe, it, title: `PostgresStore conformance (batchStatements: ${batchStatements})`, concurrency: Infinity,
    twin: (store) => new PostgresStore({ pool, schema: (store as PostgresStore).schema, batchStatements }),
    capabilities: ['payments', 'latest', 'attempts', 'merchantOrderIds', 'manualRelease', 'batching', 'activeHolds'],
  });
}
