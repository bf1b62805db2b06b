/**
 * DynamoDBStore passes the store conformance suite exported from /testing with every capability but
 * batching, against dynalite started here; each store on a table of its own, its twin on a client
 * of its own (as a second process has).
 */
import { DynamoDBStore } from 'crossborder-merchant-kit/store/dynamodb';
import { runStoreConformance } from 'crossborder-merchant-kit/testing';
import { itCheckingSkips } from '../helpers/conformance-it.js';
import { startDynalite, type Dynalite } from './engines/dynalite.js';

let db: Dynalite;
beforeAll(async () => { db = await startDynalite(); });
afterAll(async () => { await db.close(); });

let made = 0;
runStoreConformance(async ({ ttlMs }) => {
  const store = new DynamoDBStore({ client: db.client(), tableName: `conf-${made++}`, ...(ttlMs === undefined ? {} : { ttl: ttlMs }) });
  await store.createTable();
  return store;
}, {
  describe, it: itCheckingSkips(['batching']), title: 'DynamoDBStore conformance', concurrency: 1,
  twin: (store) => new DynamoDBStore({ client: db.client(), tableName: (store as DynamoDBStore).tableName, ttl: (store as DynamoDBStore).ttlMs }),
  capabilities: ['payments', 'latest', 'attempts', 'merchantOrderIds', 'manualRelease', 'activeHolds'],
});
