/**
 * DynamoDBStore's options, checked at construction (did-you-mean on a misspelt key), and how it maps
 * DynamoDB's answers: throttling past the SDK's retries is ERR_CBK_STORE_BUSY (the kit answers 503,
 * retryable), a lock's failed condition is "held", a save's is a lost lease.
 */
import { DynamoDBStore } from 'crossborder-merchant-kit/store/dynamodb';

const named = (name: string) => Object.assign(new Error(name), { name });
const failing = (name: string) => ({ send: async () => { throw named(name); } });

test('options are checked when the store is built', () => {
  const client = failing('x');
  expect(() => new DynamoDBStore({ client, tabelName: 't' } as never)).toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_UNKNOWN', message: expect.stringContaining('tableName') }));
  expect(() => new DynamoDBStore({ tableName: 'orders' } as never)).toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_REQUIRED' }));
  expect(() => new DynamoDBStore({ client, tableName: 'a b' } as never)).toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_INVALID' }));
  expect(() => new DynamoDBStore({ client, tableName: 'orders', ttl: 0 } as never)).toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_INVALID' }));
  const store = new DynamoDBStore({ client: client as never, tableName: 'cbk-orders', ttl: '7d' });
  expect([store.tableName, store.ttlMs, store.timeoutMs]).toEqual(['cbk-orders', 7 * 86_400_000, 5_000]);
});

test.each(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded'])('%s past the SDK\'s retries is ERR_CBK_STORE_BUSY, the error kept as cause', async (name) => {
  const store = new DynamoDBStore({ client: failing(name) as never, tableName: 'orders' });
  const err = await store.getRecord('k').catch((e: unknown) => e) as { code?: string; cause?: { name?: string } };
  expect(err.code).toBe('ERR_CBK_STORE_BUSY');
  expect(err.cause?.name).toBe(name);
  await expect(store.acquire('O-1', { waitMs: 100, leaseMs: 1_000 })).rejects.toMatchObject({ code: 'ERR_CBK_STORE_BUSY' });
});

test('any other failure is passed on unchanged (the kit answers 503 for it too)', async () => {
  const store = new DynamoDBStore({ client: failing('ResourceNotFoundException') as never, tableName: 'orders' });
  await expect(store.getRecord('k')).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
});

test('a lock whose condition fails is held by another (null after waitMs); a save whose condition fails lost its lease', async () => {
  let lockFree = true;
  const client = { send: async (command: { constructor: { name: string }; input: { ConditionExpression?: string } }) => {
    const condition = command.input.ConditionExpression ?? '';
    if (condition.startsWith('attribute_not_exists(w)') && !lockFree) throw named('ConditionalCheckFailedException');
    if (condition.startsWith('w = :w AND e > :now')) throw named('ConditionalCheckFailedException');
    return {};
  } };
  const store = new DynamoDBStore({ client: client as never, tableName: 'orders' });
  const lock = await store.acquire('O-1', { waitMs: 100, leaseMs: 5_000 });
  expect(lock?.recovered).toBe(false);
  lockFree = false;
  expect(await store.acquire('O-2', { waitMs: 50, leaseMs: 5_000 })).toBeNull();
  await expect(lock!.saveAndRelease!({ key: 'k', callback: 'sendOrderToMerchant', orderId: 'O-1', hash: 'h', response: { Success: true }, payment: false }, []))
    .rejects.toMatchObject({ code: 'ERR_CBK_LEASE_LOST' });
});
