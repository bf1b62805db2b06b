/**
 * Several shops sharing ONE PostgresStore (see multi-store-behaviour.ts), plus what only a database
 * shows: the rows of both shops in the same tables, and a second process (another PostgresStore on
 * the same schema) replaying each shop's own reply.
 */
import request from 'supertest';
import express from 'express';
// store and client names from lib/ directly: they move to the /store and /client entry points (issue 27), the file stays valid either way
import { namespacedStore } from '../../lib/store/namespace.js';
import { PostgresStore } from '../../lib/store/postgres.js';
import { createCallbackRouter } from 'crossborder-merchant-kit/express';
import { order } from '../helpers/orders.js';
import { postgresFactory } from './harness.js';
import { EU_GUID, multiStoreSuite, US_GUID } from './multi-store-behaviour.js';

const pg = postgresFactory();
afterAll(() => pg.close());

multiStoreSuite('PostgresStore', async () => (await pg.factory()).store);

test('PostgresStore: both shops\' rows live in the same tables under their namespaces; a second process replays each shop\'s own reply', async () => {
  const h = await pg.factory();
  const calls: string[] = [];
  const adapterOf = (tag: string) => ({
    sendOrderToMerchant: async () => { calls.push(tag); return { InternalOrderId: `${tag}-1` }; },
    updateOrderStatus: async () => ({}),
  });
  const appOn = (store: PostgresStore) => {
    const app = express();
    app.use('/eu', createCallbackRouter({ merchantGuid: EU_GUID, adapter: adapterOf('EU'), store: namespacedStore(store, 'eu'), logger: false }));
    app.use('/us', createCallbackRouter({ merchantGuid: US_GUID, adapter: adapterOf('US'), store: namespacedStore(store, 'us'), logger: false }));
    return app;
  };
  const first = appOn(h.store as PostgresStore);
  await request(first).post('/eu/SendOrderToMerchant').send(order({ MerchantGUID: EU_GUID, OrderId: 'GE-PG' })).expect(200);
  await request(first).post('/us/SendOrderToMerchant').send(order({ MerchantGUID: US_GUID, OrderId: 'GE-PG' })).expect(200);
  const rows = await h.scan();
  expect(rows).toContain('"eu:GE-PG"');
  expect(rows).toContain('"us:GE-PG"');
  expect(rows).not.toContain(EU_GUID);
  expect(rows).not.toContain(US_GUID);

  const second = appOn(h.twin() as PostgresStore);
  const eu = await request(second).post('/eu/SendOrderToMerchant').send(order({ MerchantGUID: EU_GUID, OrderId: 'GE-PG' }));
  const us = await request(second).post('/us/SendOrderToMerchant').send(order({ MerchantGUID: US_GUID, OrderId: 'GE-PG' }));
  expect([eu.body.InternalOrderId, us.body.InternalOrderId]).toEqual(['EU-1', 'US-1']);
  expect(calls).toEqual(['EU', 'US']);
});
