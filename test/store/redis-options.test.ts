/**
 * RedisStore's options, checked at construction (did-you-mean on a misspelt key), the two kinds of
 * client it takes (by the method it sends commands with), and its bound on every call.
 */
import { RedisStore } from 'crossborder-merchant-kit/store/redis';

const nodeRedisLike = (reply: (args: string[]) => unknown = () => null) => {
  const sent: string[][] = [];
  return { sent, client: { sendCommand: async (args: string[]) => { sent.push(args); return reply(args); } } };
};

test('options are checked when the store is built: a misspelt key gets a did-you-mean, a missing or wrong client is refused', () => {
  const { client } = nodeRedisLike();
  expect(() => new RedisStore({ client, keyPrefx: 'x:' } as never)).toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_UNKNOWN', message: expect.stringContaining('keyPrefix') }));
  expect(() => new RedisStore({} as never)).toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_INVALID', message: expect.stringContaining('node-redis') }));
  expect(() => new RedisStore({ client: {} as never })).toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_INVALID' }));
  expect(() => new RedisStore(undefined as never)).toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_REQUIRED' }));
  expect(() => new RedisStore({ client, keyPrefix: 3 as never })).toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_INVALID' }));
  expect(() => new RedisStore({ client, ttl: 'forever' })).toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_INVALID' }));
  const store = new RedisStore({ client, ttl: '12h', timeoutMs: '2s' });
  expect([store.ttlMs, store.timeoutMs, store.keyPrefix]).toEqual([12 * 3_600_000, 2_000, 'cbk:']);
});

test('a node-redis client is sent commands with sendCommand, an ioredis one with call; keys carry the prefix', async () => {
  const nodeRedis = nodeRedisLike();
  await new RedisStore({ client: nodeRedis.client, keyPrefix: 'shop1:' }).getRecord('k:O-1:h');
  expect(nodeRedis.sent).toEqual([['GET', 'shop1:r:k:O-1:h']]);
  const calls: unknown[][] = [];
  const ioredis = { call: async (...args: unknown[]) => { calls.push(args); return 'O-9'; }, sendCommand: () => { throw new Error('not this one'); } };
  expect(await new RedisStore({ client: ioredis }).findOrderId('INT-1')).toBe('O-9');
  expect(calls).toEqual([['GET', 'cbk:m:INT-1']]);
});

test('a script unknown to the server (NOSCRIPT: after a restart) is sent whole, in the same call', async () => {
  const { sent, client } = nodeRedisLike((args) => {
    if (args[0] === 'EVALSHA') throw new Error('NOSCRIPT No matching script. Please use EVAL.');
    return 2;
  });
  expect(await new RedisStore({ client }).countActiveHolds()).toBe(2);
  expect(sent.map((a) => a[0])).toEqual(['EVALSHA', 'EVAL']);
  expect(sent[1][1]).toContain('ZCARD');
});

test('a call the client never answers (a server lost, commands queued) fails at timeoutMs: the kit answers 503', async () => {
  const client = { sendCommand: () => new Promise(() => {}) };
  const store = new RedisStore({ client, timeoutMs: 50 });
  await expect(store.getRecord('k')).rejects.toMatchObject({ code: 'TIMEOUT' });
  await expect(store.acquire('O-1', { waitMs: 1_000, leaseMs: 5_000 })).rejects.toMatchObject({ code: 'TIMEOUT' });
});
