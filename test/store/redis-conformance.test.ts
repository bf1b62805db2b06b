/**
 * RedisStore passes the store conformance suite exported from /testing with every capability but
 * batching, against a real redis-server started here: on node-redis 5 clients, on node-redis 4 ones
 * (the npm alias redis4) and on ioredis, each store and its twin on clients of their own (as two processes have).
 */
import { createClient } from 'redis';
import { createClient as createClient4 } from 'redis4';
import { Redis } from 'ioredis';
import { RedisStore } from 'crossborder-merchant-kit/store/redis';
import { runStoreConformance } from 'crossborder-merchant-kit/testing';
import { itCheckingSkips } from '../helpers/conformance-it.js';
import { redisServer, type RedisServer } from './engines/redis-server.js';

let server: RedisServer;
const closers: (() => Promise<unknown>)[] = [];
beforeAll(async () => { server = await redisServer(); });
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
  await server.close();
});

const clients = {
  'node-redis 5': async () => {
    const c = createClient({ url: server.url });
    await c.connect();
    closers.push(() => c.quit());
    return c;
  },
  'node-redis 4': async () => {
    const c = createClient4({ url: server.url });
    await c.connect();
    closers.push(() => c.quit());
    return c;
  },
  ioredis: async () => {
    const c = new Redis(server.url);
    closers.push(() => c.quit());
    return c;
  },
};

let made = 0;
for (const [name, connect] of Object.entries(clients)) {
  // A prefix of its own per store (a fresh store, as the suite wants), shared with its twin.
  runStoreConformance(async ({ ttlMs }) => new RedisStore({
    client: await connect(), keyPrefix: `conf-${name}-${made++}:`, ...(ttlMs === undefined ? {} : { ttl: ttlMs }),
  }), {
    describe, it: itCheckingSkips(['batching']), title: `RedisStore conformance (${name})`, concurrency: Infinity,
    twin: async (store) => new RedisStore({ client: await connect(), keyPrefix: (store as RedisStore).keyPrefix, ttl: (store as RedisStore).ttlMs }),
    capabilities: ['payments', 'latest', 'attempts', 'merchantOrderIds', 'manualRelease', 'activeHolds'],
  });
}
