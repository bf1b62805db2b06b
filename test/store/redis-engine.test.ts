/**
 * RedisStore on a real redis-server (AOF on, appendfsync always, so a killed server comes back with
 * what it acknowledged): the exactly-once behaviour of engine-behaviour.ts, with store `a` on a
 * node-redis client and store `b` on an ioredis one (both kinds of client, in one pair).
 */
import { createClient, type RedisClientType } from 'redis';
import { Redis } from 'ioredis';
import { RedisStore } from 'crossborder-merchant-kit/store/redis';
import { engineBehaviour, type EngineHarness } from './engine-behaviour.js';
import { redisServer, type RedisServer } from './engines/redis-server.js';
import { stallProxy, type StallProxy } from './engines/stall-proxy.js';

let server: RedisServer;
const closers: (() => Promise<unknown>)[] = [];
beforeAll(async () => { server = await redisServer({ aof: true }); });
afterAll(async () => {
  for (const c of closers) await c().catch(() => {});
  await server.close();
});

let pairs = 0;
const harness = (): EngineHarness => ({
  async pair({ stallable = false, timeoutMs = 5_000 } = {}) {
    let proxy: StallProxy | undefined;
    if (stallable) {
      proxy = await stallProxy(server.port);
      closers.push(() => proxy!.close());
    }
    const nodeRedis = createClient({ url: `redis://127.0.0.1:${proxy?.port ?? server.port}` }) as RedisClientType;
    nodeRedis.on('error', () => { /* reconnects: the fault tests stop the server */ });
    await nodeRedis.connect();
    closers.push(() => nodeRedis.disconnect());
    const ioredis = new Redis(server.url, { lazyConnect: false });
    ioredis.on('error', () => {});
    closers.push(async () => ioredis.disconnect());
    const keyPrefix = `engine-${pairs++}:`;
    return {
      a: new RedisStore({ client: nodeRedis, keyPrefix, timeoutMs }),
      b: new RedisStore({ client: ioredis, keyPrefix, timeoutMs }),
      stall: (ms) => proxy!.stall(ms),
      steal: async (orderId) => { await ioredis.hset(`${keyPrefix}l:${orderId}`, 'w', 'a thief'); },
    };
  },
  stop: () => server.stop(),
  start: () => server.start(),
});

engineBehaviour('RedisStore', harness);
