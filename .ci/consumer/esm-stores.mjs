// The packed tarball's /store/redis and /store/dynamodb, as a user imports them (with
// @aws-sdk/client-dynamodb installed beside the kit): options checked, commands sent through the
// user's client. No server: a client stand-in records what RedisStore sends.
import assert from 'node:assert/strict';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStore, tableDefinition } from 'crossborder-merchant-kit/store/dynamodb';
import { RedisStore } from 'crossborder-merchant-kit/store/redis';

const sent = [];
const redis = new RedisStore({ client: { sendCommand: async (args) => { sent.push(args); return null; } }, keyPrefix: 'shop:' });
assert.equal(await redis.getRecord('sendOrderToMerchant:O-1:h'), null);
assert.deepEqual(sent, [['GET', 'shop:r:sendOrderToMerchant:O-1:h']]);
assert.throws(() => new RedisStore({ client: sent, keyPrefx: 'x' }), /keyPrefix/);

const client = new DynamoDBClient({ region: 'eu-west-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } });
const dynamo = new DynamoDBStore({ client, tableName: 'cbk-callbacks', ttl: '7d' });
assert.equal(dynamo.ttlMs, 7 * 86_400_000);
assert.throws(() => new DynamoDBStore({ client, tableNme: 'x' }), /tableName/);
assert.deepEqual(tableDefinition('t').KeySchema.map((k) => k.AttributeName), ['pk', 'sk']);
client.destroy();
console.log('ok: /store/redis and /store/dynamodb from the tarball');
